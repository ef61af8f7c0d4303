"""How often a skill may be used (umh 2.3.1.2 - 2.3.1.4, 2.3.4 - 2.3.4.2, 8.2.5.1)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from services.turns.domain.umh.limits import week_of

from .builders import (
    ATTACK,
    BLESSING,
    FORESIGHT,
    SLASH,
    T0,
    TURNS,
    TWICE,
    WEEKLY,
    act,
    action_id,
    fighting,
    fire_kind,
    new_state,
    now_of,
    play_round,
    rejects,
    settle,
    start_cmd,
    use,
    where,
)

MADRID = ZoneInfo("Europe/Madrid")


def ms_at(text: str) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=MADRID).timestamp() * 1000)


def to_anas_turn(state: dict[str, Any], now: int) -> dict[str, Any]:
    """The next round, up to ana's turn (she is the initiator and as fast as bruno)."""
    state = play_round(state, now)
    assert state["turn"]["actor"] == "ana"
    return state


def test_t000_21_same_skill_twice_in_a_round() -> None:
    """umh 2.3.1.3 / T000-21: the same skill once per round; next round again."""
    state = fighting()
    now = now_of(state)
    state = use(state, "ana", BLESSING, now, n=1)
    violation = rejects(state, {"type": "skill", "actor": "ana", "skill": BLESSING}, now)
    assert (violation.code, violation.rule) == ("ability_already_used_this_round", "umh 2.3.1.3")
    state = to_anas_turn(state, now)
    assert use(state, "ana", BLESSING, now, n=2)["participants"]["ana"]["pa"] == 9


def test_t000_21_basic_commands_are_unlimited() -> None:
    """umh 2.3.1.4 / T000-21: moving and passing are not skills: no per-round limit."""
    cmd = start_cmd(positions={"ana": (0, 0), "bruno": (5, 0)})
    state = new_state(fire_kind(new_state(TURNS.start(cmd, **where(T0))), "preparation"))
    now = now_of(state)
    for n, x in enumerate([0, 1, 1, 2, 3]):
        state = new_state(act(state, {"type": "move", "actor": "ana", "to": [x, 1]}, now, n=n))
    assert state["participants"]["ana"]["movement_left"] == 5 - 4
    assert play_round(state, now)["round"] == 2


def test_a_skill_may_say_it_is_used_more_often() -> None:
    """umh 2.3.1.3: "salvo que dicha habilidad especifique lo contrario" (uses_per_round)."""
    state = fighting()
    now = now_of(state)
    state = use(state, "ana", TWICE, now, n=1, targets=("bruno",))
    state = use(state, "ana", TWICE, now, n=2, targets=("bruno",))
    aim = {"type": "skill", "actor": "ana", "skill": TWICE, "targets": ["bruno"]}
    assert rejects(state, aim, now).code == "ability_already_used_this_round"


@pytest.mark.parametrize(
    ("annulled", "reading"),
    [
        pytest.param(False, False, id="umh-2.3.4-T000-22-A-19-used"),
        pytest.param(True, False, id="umh-8.2.3.4-T000-22-annulled-still-starts-the-cooldown"),
    ],
)
def test_t000_22_cooldown_of_two_rounds(annulled: bool, reading: bool) -> None:
    """umh 2.3.4 / 8.2.3.4 / T000-22 / A-19: used (or annulled) in round 1 with TR 2: refused
    in rounds 2 and 3, allowed from round 4."""
    state = fighting()
    now = now_of(state)
    aim = {"type": "skill", "actor": "ana", "skill": SLASH, "targets": ["bruno"]}
    state = new_state(act(state, aim, now, n=1))
    if annulled:
        annul = {
            "type": "react",
            "actor": "bruno",
            "action_id": action_id(1),
            "skill": "Anulación",
            "use_number": 1,
        }
        state = new_state(act(state, annul, now, n=2))
        answer = {
            "action_id": action_id(1),
            "attacker": "ana",
            "skill": SLASH,
            "cancelled": True,
        }
        state = new_state(TURNS.on_event(state, "action.resolved", answer, now_ms=now))
    state = settle(state, now)
    for round_ in (2, 3):
        state = to_anas_turn(state, now)
        assert state["round"] == round_
        violation = rejects(state, aim, now)
        assert (violation.code, violation.rule) == ("on_cooldown", "umh 2.3.4")
        assert TURNS.view(state)["participants"]["ana"]["cooldowns"] == {SLASH: 4 - round_}
    state = to_anas_turn(state, now)
    assert state["round"] == 4
    assert use(state, "ana", SLASH, now, n=9, targets=("bruno",))["participants"]["ana"]["pa"] == 8


def reacting(state: dict[str, Any], now: int, n: int, use_number: int | None) -> Any:
    aim = {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno"]}
    state["participants"]["ana"]["used_round"] = {}
    state["participants"]["bruno"]["used_round"] = {}  # one use per round (umh 2.3.1.3)
    state["participants"]["ana"]["pa"] = 10
    state["participants"]["bruno"]["pa"] = 10
    state = new_state(act(state, aim, now, n=f"atk{n}"))
    react = {
        "type": "react",
        "actor": "bruno",
        "action_id": action_id(f"atk{n}"),
        "skill": "Anulación",
        "use_number": use_number,
    }
    return state, react


def test_t000_23_five_annulments_per_combat_with_their_use_numbers() -> None:
    """umh 2.3.4.1 / 2.3.1.2 / T000-23: uses #1..#5 accepted in order; a 6th refused; the
    number must be stated and be the next one."""
    state = fighting()
    now = now_of(state)
    for n in range(1, 6):
        state, react = reacting(state, now, n, None)
        missing = rejects(state, react, now)
        assert (missing.code, missing.rule) == ("use_number_missing", "umh 2.3.1.2")
        if n == 3:
            wrong = rejects(state, {**react, "use_number": 4}, now)
            assert (wrong.code, wrong.rule) == ("use_number_mismatch", "umh 2.3.1.2")
            assert wrong.details == {"expected": 3, "declared": 4}
        state = new_state(act(state, {**react, "use_number": n}, now, n=f"re{n}"))
        state = settle(state, now)
    view = TURNS.view(state)["participants"]["bruno"]
    assert view["uses_this_combat"] == {"Anulación": 5}
    assert view["uses"] == {"annul_anticipate": 5}
    state, react = reacting(state, now, 6, 6)
    exhausted = rejects(state, react, now)
    assert (exhausted.code, exhausted.rule) == ("reaction_uses_exhausted", "umh 2.3.4.1")


def test_the_document_sets_its_own_number_of_uses() -> None:
    """umh 2.3.4.1: "salvo que el documento especifique un número inferior" (uses_per_combat)."""
    state = fighting()
    now = now_of(state)
    for n in (1, 2, 3):
        state, react = reacting(state, now, n, n)
        react = {**react, "skill": FORESIGHT}
        if n == 3:
            assert rejects(state, react, now).code == "reaction_uses_exhausted"
            return
        state = new_state(act(state, react, now, n=f"re{n}"))
        state = settle(state, now)


def test_reflections_count_as_annulments() -> None:
    """umh 8.2.5.1 / A-21: a reflection needs its use number and counts against the limit."""
    state = fighting()
    now = now_of(state)
    state, react = reacting(state, now, 1, None)
    react = {**react, "skill": "Espejo"}
    assert rejects(state, react, now).code == "use_number_missing"
    state = new_state(act(state, {**react, "use_number": 1}, now, n="re"))
    assert state["participants"]["bruno"]["uses"] == {"annul_anticipate": 1}


@pytest.mark.parametrize(
    ("first", "second", "same_week"),
    [
        pytest.param(
            "2024-03-31T23:59:59", "2024-04-01T00:00:00", False, id="umh-2.3.4.2-T000-24-DST"
        ),
        pytest.param(
            "2024-01-07T23:59:59", "2024-01-08T00:00:00", False, id="umh-2.3.4.2-T000-24-winter"
        ),
        pytest.param(
            "2024-01-01T00:00:00", "2024-01-07T23:59:59", True, id="umh-2.3.4.2-monday-to-sunday"
        ),
    ],
)
def test_t000_24_weeks_in_madrid(first: str, second: str, same_week: bool) -> None:
    """umh 2.3.4.2 / T000-24: weeks run Monday 00:00 to Sunday 23:59 hpe."""
    weeks = week_of(ms_at(first), "Europe/Madrid"), week_of(ms_at(second), "Europe/Madrid")
    assert (weeks[0] == weeks[1]) is same_week


def test_weekly_uses_from_the_snapshot_and_the_week_change() -> None:
    """umh 2.3.4.2: services/states counted one use this week: the skill is refused; in a
    combat still running on Monday the count restarts. ``action.declared`` carries the
    weekly limit so that services/states counts each use."""
    sunday = ms_at("2024-01-07T23:50:00")
    cmd = start_cmd(weekly_uses={"ana": {WEEKLY.lower(): 1}})
    state = new_state(fire_kind(new_state(TURNS.start(cmd, **where(sunday))), "preparation"))
    now = now_of(state)
    violation = rejects(state, {"type": "skill", "actor": "ana", "skill": WEEKLY}, now)
    assert (violation.code, violation.rule) == ("on_cooldown", "umh 2.3.4.2")
    monday = ms_at("2024-01-08T00:00:01")
    decision = act(state, {"type": "skill", "actor": "ana", "skill": WEEKLY}, monday)
    declared = next(e.payload for e in decision.events if e.type == "action.declared")
    assert declared["weekly_limit"] == 1
    state = new_state(decision)
    assert TURNS.view(state)["participants"]["ana"]["weekly_uses"] == {WEEKLY: 1}
