"""Turns and rounds (umh 2.1 - 2.4, 3.1.3): preparation, PASO TURNO, timeouts, refills."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import CATALOGUE

from .builders import (
    ATTACK,
    BLESSING,
    HEAVY,
    SECOND,
    SHIELD,
    T0,
    TURNS,
    act,
    fighting,
    fire,
    fire_kind,
    new_state,
    now_of,
    payload,
    rejects,
    settle,
    start_cmd,
    timer_of,
    types,
    where,
)

PREP_END = T0 + 120 * SECOND


def passes(state: dict[str, Any], actor: str, now_ms: int) -> dict[str, Any]:
    return new_state(act(state, {"type": "pass_turn", "actor": actor}, now_ms))


def test_preparation_over_starts_round_one() -> None:
    """umh 1.3.1 / 2.1.1 / 2.2.1: round 1, the aggressor first, his clock running."""
    state = new_state(TURNS.start(start_cmd(vel={"bruno": 9}), **where(T0)))
    decision = fire_kind(state, "preparation")
    assert types(decision) == [
        "combat.phase_changed",
        "round.started",
        "turn.started",
    ]
    assert payload(decision, "combat.phase_changed") == {"from": "preparation", "to": "fighting"}
    assert payload(decision, "round.started") == {"round": 1, "turn_order": ["ana", "bruno"]}
    deadline = PREP_END + 300 * SECOND
    assert payload(decision, "turn.started") == {
        "actor": "ana",
        "index": 0,
        "round": 1,
        "turn_seq": 1,
        "deadline_ms": deadline,
        "pa_bonus": 0,
    }
    assert [(r.kind, r.due_ms, r.data) for r in decision.arm] == [
        ("turn", deadline, {"turn_seq": 1})
    ]
    view = TURNS.view(new_state(decision))
    assert view["phase_deadline"] is None
    assert view["turn"] == {
        "index": 0,
        "actor": "ana",
        "deadline": "2023-11-14T22:20:20.000Z",
        "paused_remaining": None,
    }


def test_round_one_lone_attacker_against_two() -> None:
    """umh 2.2.1 / A-66: attacker, D1, attacker, D2 (targets by speed)."""
    state = fighting(defenders=("bruno", "carla"), vel={"carla": 8})
    assert state["turn_order"] == ["ana", "carla", "ana", "bruno"]


def test_pass_turn_starts_the_next_turn() -> None:
    """umh 2.3.3 PASO TURNO."""
    state = fighting()
    old_timer = timer_of(state, "turn")
    decision = act(state, {"type": "pass_turn", "actor": "ana"}, PREP_END + 10 * SECOND)
    assert types(decision) == ["turn.ended", "turn.started"]
    assert payload(decision, "turn.ended") == {
        "actor": "ana",
        "reason": "passed",
        "round": 1,
        "turn_seq": 1,
    }
    started = payload(decision, "turn.started")
    assert (started["actor"], started["index"], started["turn_seq"]) == ("bruno", 1, 2)
    assert decision.cancel == [old_timer]
    assert [r.due_ms for r in decision.arm] == [PREP_END + 310 * SECOND]
    assert list(TURNS.timers(new_state(decision))) == [decision.arm[0].timer_id]


def test_timeout_is_an_automatic_pass() -> None:
    """umh 2.3.5 / T000-25: at 5:00 the turn passes by itself."""
    state = fighting()
    decision = fire_kind(state, "turn")
    assert types(decision) == ["turn.timed_out", "turn.ended", "turn.started"]
    assert payload(decision, "turn.timed_out") == {"actor": "ana", "round": 1, "turn_seq": 1}
    assert payload(decision, "turn.ended") == {
        "actor": "ana",
        "reason": "timeout",
        "round": 1,
        "turn_seq": 1,
    }
    assert payload(decision, "turn.started")["actor"] == "bruno"
    assert decision.cancel == []
    assert len(TURNS.timers(new_state(decision))) == 1


def test_round_rollover_refills_and_reorders() -> None:
    """umh 2.2.5 / 3.1.3 / 2.3.2.1: a new round by speed, PA and speed back."""
    state = fighting(vel={"ana": 4, "bruno": 6})
    now = PREP_END + SECOND
    state = new_state(act(state, {"type": "skill", "actor": "ana", "skill": BLESSING}, now))
    state = settle(state, now)  # bruno lets it be (umh 8.2.3.1: he could annul it)
    assert state["participants"]["ana"]["pa"] == 9
    state["participants"]["ana"]["movement_left"] = 1  # as if he had moved (2.3.2)
    state = passes(state, "ana", now)
    decision = act(state, {"type": "pass_turn", "actor": "bruno"}, now + SECOND)
    assert types(decision) == [
        "turn.ended",
        "round.ended",
        "round.started",
        "turn.started",
    ]
    assert payload(decision, "round.ended") == {"round": 1, "stalemate_rounds": 1}
    assert payload(decision, "round.started") == {"round": 2, "turn_order": ["bruno", "ana"]}
    after = new_state(decision)
    assert after["participants"]["ana"]["pa"] == 10
    assert after["participants"]["ana"]["movement_left"] == 4
    assert TURNS.view(after)["turn"]["actor"] == "bruno"


def test_lone_fighter_round_two_interleaves() -> None:
    """umh 1.2.6 / A-13: a defender faster than the lone attacker starts round 2."""
    state = fighting(defenders=("bruno", "carla"), vel={"ana": 5, "bruno": 7, "carla": 6})
    now = PREP_END
    for actor in ["ana", "bruno", "ana"]:
        state = passes(state, actor, now)
    decision = act(state, {"type": "pass_turn", "actor": "carla"}, now)
    assert payload(decision, "round.started")["turn_order"] == ["bruno", "ana", "carla", "ana"]


def test_stale_timers_are_ignored() -> None:
    """A timer that already fired, was cancelled, or is unknown changes nothing."""
    state = fighting()
    old = timer_of(state, "turn")
    after_pass = passes(state, "ana", PREP_END)
    assert fire(after_pass, old).state is None
    assert fire(after_pass, "c_x:turn:999").state is None
    after_timeout = new_state(fire(after_pass, timer_of(after_pass, "turn")))
    assert fire(after_pass, timer_of(after_pass, "turn")).state is not None
    assert fire(after_timeout, timer_of(after_pass, "turn")).state is None


def test_timer_ids_are_unique_within_a_combat() -> None:
    state = fighting()
    seen = set(state["timers"])
    for _ in range(6):
        decision = fire_kind(state, "turn")
        seen_now = {r.timer_id for r in decision.arm}
        assert not seen_now & seen
        seen |= seen_now
        state = new_state(decision)


SKILL_REJECTIONS = [
    pytest.param(
        {"type": "skill", "actor": "bruno", "skill": ATTACK, "targets": ["ana"]},
        "not_your_turn",
        "umh 2.4.1",
        id="umh-2.4.1-not-your-turn",
    ),
    pytest.param(
        {"type": "skill", "actor": "ana", "skill": "Nada", "targets": ["bruno"]},
        "unknown_skill",
        "umh 3.1.2",
        id="umh-3.1.2-unknown-skill",
    ),
    pytest.param(
        {"type": "skill", "actor": "ana", "skill": SHIELD, "targets": ["bruno"]},
        "no_trigger",
        "umh 8.1.1.3",
        id="umh-8.1.1.3-defense-without-trigger",
    ),
    pytest.param(
        {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": [[1, 2]]},
        "invalid_target",
        "umh 6.1.1",
        id="umh-6.1.1-square-target-needs-an-area",
    ),
    pytest.param(
        {"type": "skill", "actor": "ana", "skill": HEAVY, "targets": ["bruno"]},
        "insufficient_pa",
        "umh 3.1.2",
        id="umh-3.1.2-insufficient-pa",
    ),
    pytest.param(
        {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": []},
        "targets_not_declared",
        "umh 1.1.2",
        id="umh-1.1.2-targets-not-declared",
    ),
    pytest.param(
        {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["zoe"]},
        "not_in_combat",
        None,
        id="target-not-in-combat",
    ),
    pytest.param(
        {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["ana"]},
        "invalid_target",
        "umh 8.1.1.1",
        id="target-oneself",
    ),
    pytest.param(
        {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno", "bruno"]},
        "invalid_target",
        "umh 1.1.2",
        id="target-twice",
    ),
    pytest.param(
        {"type": "pass_turn", "actor": "bruno"},
        "not_your_turn",
        "umh 2.4.1",
        id="umh-2.4.1-pass-not-your-turn",
    ),
    pytest.param(
        {"type": "react", "actor": "bruno", "action_id": "a_" + "0" * 32},
        "no_pending_reaction",
        "umh 8.1.1.3",
        id="umh-8.1.1.3-nothing-to-react-to",
    ),
    pytest.param(
        {"type": "pass_turn", "actor": "zoe"}, "not_in_combat", None, id="actor-not-in-combat"
    ),
]


@pytest.mark.parametrize(("action", "code", "rule"), SKILL_REJECTIONS)
def test_fighting_rejections(action: dict[str, Any], code: str, rule: str | None) -> None:
    state = fighting()
    state["participants"]["ana"]["pa"] = 8
    violation = rejects(state, action, now_of(state))
    assert (violation.code, violation.rule) == (code, rule)
    assert code in CATALOGUE
    if code == "insufficient_pa":
        assert violation.details == {"needed": 9, "left": 8}


def test_skill_on_a_fallen_target_is_refused() -> None:
    state = fighting(defenders=("bruno", "carla"))
    state["participants"]["carla"]["status"] = "down"
    action = {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["carla"]}
    violation = rejects(state, action, now_of(state))
    assert (violation.code, violation.rule) == ("character_down", "umh 4.1.1")


def test_a_fallen_actor_cannot_act() -> None:
    state = fighting(defenders=("bruno", "carla"))
    state["participants"]["carla"]["status"] = "down"
    violation = rejects(state, {"type": "pass_turn", "actor": "carla"})
    assert (violation.code, violation.rule) == ("character_down", "umh 4.1.1")


@pytest.mark.parametrize(
    ("action", "code", "rule"),
    [
        pytest.param(
            {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno"]},
            "not_allowed_in_prep",
            "umh 1.3.2",
            id="umh-1.3.2-attack-in-preparation",
        ),
        pytest.param(
            {"type": "pass_turn", "actor": "ana"},
            "wrong_phase",
            "umh 2.3.3",
            id="umh-2.3.3-pass-in-preparation",
        ),
        pytest.param(
            {"type": "react", "actor": "bruno", "action_id": "a_" + "0" * 32},
            "wrong_phase",
            "umh 2.4.2",
            id="umh-2.4.2-react-in-preparation",
        ),
    ],
)
def test_preparation_rejections(action: dict[str, Any], code: str, rule: str) -> None:
    state = new_state(TURNS.start(start_cmd(), **where(T0)))
    violation = rejects(state, action)
    assert (violation.code, violation.rule) == (code, rule)
