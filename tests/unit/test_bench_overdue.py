"""bench/overdue.py: when each overdue turn timer fired, read from the community's stream."""

from __future__ import annotations

from typing import Any

import pytest

from bench.__main__ import parse
from bench.overdue import Firings, last_fired, turn_seconds_for
from bench.stats import overdue_lines


def event(
    type_: str, combat: str, occurred_at: str = "2026-12-01T06:00:00+00:00", **data: Any
) -> dict[str, Any]:
    return {"type": type_, "combat_id": combat, "occurred_at": occurred_at, "payload": data}


def test_each_combat_keeps_its_first_turn_and_its_first_timeout() -> None:
    firings = Firings()
    firings.take(
        [
            event("turn.started", "c1", turn_seq=1, deadline_ms=1_000),
            event("turn.started", "c2", turn_seq=1, deadline_ms=2_000),
            event("turn.timed_out", "c1", "2026-12-01T06:00:01+00:00", turn_seq=1),
            event("turn.started", "c1", turn_seq=2, deadline_ms=9_000),  # the next turn
        ]
    )
    firings.take([event("turn.timed_out", "c1", "2026-12-01T06:00:09+00:00", turn_seq=2)])
    assert firings.deadlines == {"c1": (1, 1_000), "c2": (1, 2_000)}
    assert firings.fired == {"c1": 1_796_104_801_000.0}
    assert firings.fired_twice() == 0


def test_a_first_turn_timed_out_twice_is_counted() -> None:
    firings = Firings()
    firings.take(
        [
            event("turn.started", "c1", turn_seq=1, deadline_ms=1_000),
            event("turn.timed_out", "c1", turn_seq=1),
            event("turn.timed_out", "c1", turn_seq=1),
        ]
    )
    assert firings.fired_twice() == 1


@pytest.mark.parametrize(
    ("after", "never", "figure"),
    [([120.0, 4_800.4], 0, 4_800.4), ([120.0], 3, 180_000.0), ([], 0, None)],
    ids=["all fired", "some never fired: at least the limit", "none was overdue"],
)
def test_the_figure_is_the_last_firing_after_the_restart(
    after: list[float], never: int, figure: float | None
) -> None:
    assert last_fired(after, never_fired=never, limit=180) == figure


def test_turns_last_long_enough_for_the_setup() -> None:
    assert turn_seconds_for(50) == 10
    assert turn_seconds_for(2000) == 125


@pytest.mark.parametrize(
    ("argv", "timers"),
    [([], 2000), (["--quick"], 50), (["--quick", "--overdue-timers", "2000"], 2000)],
)
def test_the_overdue_timers_option_defaults_to_2000_and_quick_to_50(
    argv: list[str], timers: int
) -> None:
    assert parse(argv).overdue_timers == timers


def test_the_report_prints_the_overdue_timers() -> None:
    overdue = {
        "timers": 2000,
        "turn_seconds": 125,
        "down_seconds": 112.2,
        "fired_before_kill": 3,
        "never_fired": 0,
        "fired_twice": 0,
        "ready_after_ms": 1_100.8,
        "fired_after_restart_ms": {"p50": 5_542.4},
        "last_fired_after_ms": 9_455.7,
    }
    text = "\n".join(overdue_lines(overdue))
    assert "overdue timers       2000 (125 s turns, turns down 112.2 s)" in text
    assert "last fired 9,455.70 ms after the restart" in text
    assert "ran out before the kill 3, never fired 0, fired twice 0" in text
