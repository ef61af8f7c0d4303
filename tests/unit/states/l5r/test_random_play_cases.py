"""Cases the random player found in l5r's part of services/states, reduced to the handler a
combat runs."""

from __future__ import annotations

import pytest

from services.states.domain.l5r import L5rAftermath
from services.states.domain.l5r.void import DAY_MS
from services.states.interface import Context

T0 = 1_750_000_000_000
RULESET = L5rAftermath()


def ctx(now: int) -> Context:
    return Context(tenant="t", room="r", combat_id="c_1", occurred_ms=now, now_ms=now)


def started(combat_id: str, **sheet: object) -> dict[str, object]:
    ana = {"ruleset": "l5r", "rings": {"void": 3}, **sheet}
    return {"combat_id": combat_id, "ruleset": "l5r", "sheets": {"ana": ana}}


def ended(void: int) -> dict[str, object]:
    row = {"void_points": void, "void_max": 3, "alentar_received": 0, "wounds": 0}
    return {"combat_id": "c_1", "ruleset": "l5r", "participants": {}, "l5r": {"ana": row}}


@pytest.mark.parametrize(
    "before",
    [
        pytest.param("sheet", id="l5r-W15-a-sheet-below-its-ring"),
        pytest.param("last_combat", id="l5r-W15-what-the-last-combat-left"),
    ],
)
def test_w15_the_void_regain_the_record_expects_is_armed_at_the_start(before: str) -> None:
    """Vacío (recovery), W15: a combat's start moves the pool's clock to now; the day's
    regain timer it now expects is armed with that commit (it was left to the reconciler,
    which re-armed it up to 30 s later and warned ``timers_rearmed_by_reconciler``)."""
    state = None
    now = T0
    if before == "last_combat":
        state = RULESET.on_event(None, "ana", "combat.started", started("c_0"), ctx(now)).state
        state = RULESET.on_event(state, "ana", "combat.ended", ended(1), ctx(now)).state
        now += DAY_MS // 2
    sheet = {"void_points": 1} if before == "sheet" else {}
    decision = RULESET.on_event(state, "ana", "combat.started", started("c_1", **sheet), ctx(now))
    assert decision.state is not None and decision.state["void_points"] == 1
    expected = RULESET.armed_timers(decision.state)
    assert [t.due_ms for t in expected] == [now + DAY_MS]
    assert decision.arm == expected
