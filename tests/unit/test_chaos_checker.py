"""The chaos checker's rule for a hit stuck between turns and resolution."""

from __future__ import annotations

from typing import Any

from tests.chaos.check import GRACE_MS, unresolved

T0 = 1_800_000_000_000


def event(kind: str, at_ms: int, **data: Any) -> dict[str, Any]:
    from datetime import UTC, datetime

    when = datetime.fromtimestamp(at_ms / 1000, UTC).isoformat().replace("+00:00", "Z")
    return {"type": kind, "occurred_at": when, "data": data}


WINDOW = [
    event("reaction.requested", T0, action_id="a_1", reactor="b", hit=1),
    event("reaction.answered", T0 + 100, action_id="a_1", reactor="b", hit=1),
]


def test_a_hit_answered_and_never_resolved_is_stuck() -> None:
    assert len(unresolved(WINDOW, T0 + 100 + GRACE_MS + 1)) == 1


def test_within_the_grace_it_is_only_late() -> None:
    assert unresolved(WINDOW, T0 + 100 + GRACE_MS - 1) == []


def test_a_resolved_hit_or_an_ended_combat_is_not_stuck() -> None:
    resolved = event("action.resolved", T0 + 200, action_id="a_1", hit=1)
    ended = event("combat.ended", T0 + 200)
    later = T0 + 10 * GRACE_MS
    assert unresolved([*WINDOW, resolved], later) == []
    assert unresolved([*WINDOW, ended], later) == []


def test_a_window_still_open_is_not_stuck() -> None:
    assert unresolved(WINDOW[:1], T0 + 10 * GRACE_MS) == []
