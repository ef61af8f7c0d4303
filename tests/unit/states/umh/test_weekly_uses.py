"""Weekly uses (umh 2.3.4.2): Monday 00:00 to Sunday 23:59 Europe/Madrid, across DST."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.states.domain.umh.weeks import (
    next_week_start_ms,
    same_week,
    uses_this_week,
    week_start_ms,
)
from shared.messages import ACTION_DECLARED, COMBAT_STARTED
from tests.unit.states.umh.builders import HOUR, SECOND, T0, World, at_madrid, declared, started

MADRID = "Europe/Madrid"


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> int:
    return int(datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp() * 1000)


@pytest.mark.parametrize(
    ("sunday", "monday"),
    [
        (at_madrid(2025, 5, 18, 23, 59, 59), at_madrid(2025, 5, 19, 0, 0, 0)),
        (at_madrid(2025, 3, 30, 23, 59, 59), at_madrid(2025, 3, 31, 0, 0, 0)),
        (at_madrid(2025, 10, 26, 23, 59, 59), at_madrid(2025, 10, 27, 0, 0, 0)),
        (at_madrid(2026, 3, 29, 23, 59, 59), at_madrid(2026, 3, 30, 0, 0, 0)),
        (at_madrid(2026, 10, 25, 23, 59, 59), at_madrid(2026, 10, 26, 0, 0, 0)),
    ],
    ids=[
        "T000-24 a summer week",
        "T000-24 the week of the March change (CET -> CEST)",
        "T000-24 the week of the October change (CEST -> CET)",
        "T000-24 March 2026",
        "T000-24 October 2026",
    ],
)
def test_t000_24_sunday_235959_and_monday_0000_fall_in_different_weeks(
    sunday: int, monday: int
) -> None:
    assert monday - sunday == SECOND
    assert not same_week(sunday, monday, MADRID)
    assert next_week_start_ms(sunday, MADRID) == monday == week_start_ms(monday, MADRID)
    counted = uses_this_week([("Teleport", sunday)], monday, MADRID)
    assert counted == {}
    assert uses_this_week([("Teleport", sunday), ("Teleport", monday)], monday, MADRID) == {
        "Teleport": 1
    }


@pytest.mark.parametrize(
    ("monday", "instant_utc", "hours"),
    [
        (at_madrid(2025, 3, 24), utc(2025, 3, 23, 23, 0), 167),
        (at_madrid(2025, 10, 20), utc(2025, 10, 19, 22, 0), 169),
        (at_madrid(2025, 5, 12), utc(2025, 5, 11, 22, 0), 168),
    ],
    ids=[
        "umh 2.3.4.2 the March week lasts 167 h",
        "umh 2.3.4.2 the October week lasts 169 h",
        "umh 2.3.4.2 any other week lasts 168 h",
    ],
)
def test_week_boundaries_are_local_midnights(monday: int, instant_utc: int, hours: int) -> None:
    assert monday == instant_utc
    middle = monday + 80 * HOUR
    assert week_start_ms(middle, MADRID) == monday
    assert next_week_start_ms(middle, MADRID) - monday == hours * HOUR


def test_a_naive_utc_offset_would_put_the_march_boundary_an_hour_late() -> None:
    # Sunday 30 March 2025, 23:30 CEST = 21:30 UTC: still the old week in Madrid.
    sunday_night = utc(2025, 3, 30, 21, 30)
    assert week_start_ms(sunday_night, MADRID) == at_madrid(2025, 3, 24)
    # Monday 00:30 CEST = 22:30 UTC on Sunday: the new week already.
    assert week_start_ms(utc(2025, 3, 30, 22, 30), MADRID) == at_madrid(2025, 3, 31)


def test_another_community_timezone_moves_the_week() -> None:
    instant = utc(2025, 5, 18, 22, 30)  # Monday 00:30 in Madrid, Sunday 23:30 in London
    assert week_start_ms(instant, MADRID) == at_madrid(2025, 5, 19)
    assert week_start_ms(instant, "Europe/London") == utc(2025, 5, 11, 23, 0)


def test_weekly_limited_uses_are_counted_and_reset_by_a_timer() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    sunday = at_madrid(2025, 5, 18, 23, 59, 59)
    monday = at_madrid(2025, 5, 19, 0, 0, 0)
    for when in (T0, sunday):
        world.on(ACTION_DECLARED, declared("ana", "Teleport", weekly=2), now=when)
    assert world.status("ana", sunday)["weekly_uses"] == {"Teleport": 2}
    checked = world.check({"purpose": "start", "characters": ["ana"]}, now=sunday)
    assert checked.weekly_uses == {"ana": {"Teleport": 2}}
    (reset,) = [t for t in world.armed.values() if t.kind == "weekly_reset"]
    assert reset.due_ms == monday
    decision = world.fire("ana", reset.timer_id)
    assert [e.type for e in decision.events] == ["weekly_uses.reset"]
    assert world.status("ana", monday)["weekly_uses"] == {}
    assert world.states["ana"] is not None and world.states["ana"]["weekly_uses"] == []


def test_a_use_on_monday_starts_the_new_week_count() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(
        ACTION_DECLARED,
        declared("ana", "Teleport", weekly=1),
        now=at_madrid(2025, 10, 26, 23, 59, 59),
    )
    world.on(ACTION_DECLARED, declared("ana", "Teleport", weekly=1), now=at_madrid(2025, 10, 27))
    state = world.states["ana"]
    assert state is not None and len(state["weekly_uses"]) == 1
    events = [e for _, e in world.events if e.payload.get("change") == "weekly_use"]
    assert [e.payload["uses_this_week"] for e in events] == [1, 1]
    assert events[-1].payload["resets_at"] == "2025-11-02T23:00:00.000Z"


def test_skills_without_a_weekly_limit_are_not_counted() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(ACTION_DECLARED, declared("ana", "Puño"))
    assert world.status("ana", T0)["weekly_uses"] == {}
    assert not any(t.kind == "weekly_reset" for t in world.armed.values())
