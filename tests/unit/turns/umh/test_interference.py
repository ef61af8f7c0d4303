"""Interference turns (umh 2.5): free and predetermined, inside the current general turn."""

from __future__ import annotations

from typing import Any

from .builders import (
    ATTACK,
    BLESSING,
    COMMAND,
    HEAVY,
    JAB,
    ORDER,
    SECOND,
    T0,
    TURNS,
    act,
    fire_kind,
    new_state,
    now_of,
    passes,
    payload,
    play_round,
    rejects,
    settle,
    start_cmd,
    types,
    use,
    where,
)


def two_vs_one() -> tuple[dict[str, Any], int]:
    """ana and carla (attackers) against bruno; ana's turn, positions on a grid."""
    cmd = start_cmd(
        defenders=("bruno",), positions={"ana": (0, 0), "bruno": (1, 0), "carla": (0, 1)}
    )
    state = new_state(TURNS.start(cmd, **where(T0)))
    from .builders import join_cmd, joined

    state = new_state(joined(state, join_cmd("carla", "attackers", "llamada_de_auxilio"), T0))
    state["positions"]["carla"] = [0, 1]
    state = new_state(fire_kind(state, "preparation"))
    now = now_of(state)
    assert state["turn"]["actor"] == "ana"
    return state, now


def granted(skill: str) -> tuple[dict[str, Any], int]:
    """ana grants carla an interference turn with ``skill``; it opens once settled."""
    state, now = two_vs_one()
    decision = act(
        state, {"type": "skill", "actor": "ana", "skill": skill, "targets": ["carla"]}, now
    )
    state = settle(new_state(decision), now)
    assert state["interference"]["holder"] == "carla"
    return state, now


def test_free_interference_allows_moving_and_one_skill() -> None:
    """umh 2.5.3.1 / A-63: carla moves and uses one skill; a second is refused; the general
    turn's owner waits; passing ends the interference turn only."""
    state, now = granted(ORDER)
    view = TURNS.view(state)
    assert view["interference"]["kind"] == "free"
    assert view["turn"]["paused_remaining"] is not None
    owner = rejects(state, {"type": "pass_turn", "actor": "ana"}, now)
    assert (owner.code, owner.rule) == ("not_your_turn", "umh 2.5.1")
    state = new_state(act(state, {"type": "move", "actor": "carla", "to": [1, 1]}, now, n="mv"))
    decision = act(
        state, {"type": "skill", "actor": "carla", "skill": JAB, "targets": ["bruno"]}, now, n="jab"
    )
    declared = payload(decision, "action.declared")
    assert (declared["interference"], declared["general_action"]) == (True, False)
    state = settle(new_state(decision), now)
    second = rejects(state, {"type": "skill", "actor": "carla", "skill": BLESSING}, now)
    assert (second.code, second.rule) == ("interference_limit", "umh 2.5.3.1")
    decision = act(state, {"type": "pass_turn", "actor": "carla"}, now, n="end")
    assert types(decision) == ["interference.ended", "turn.resumed"]
    state = new_state(decision)
    assert state["turn"]["actor"] == "ana" and state["interference"] is None
    assert state["participants"]["carla"]["offensive_1pa"] == 1  # counts for 3.4
    assert state["participants"]["carla"]["movement_left"] == 4  # 2.5.4: stays spent


def test_t000_13_predetermined_interference() -> None:
    """umh 2.5.3.2 / T000-13: only the stipulated skill (supplementaries before it); it ends
    the interference turn; anything else is refused."""
    state, now = granted(COMMAND)
    assert TURNS.view(state)["interference"]["skill"] == ATTACK
    other = rejects(
        state, {"type": "skill", "actor": "carla", "skill": HEAVY, "targets": ["bruno"]}, now
    )
    assert (other.code, other.rule) == ("interference_action_not_allowed", "umh 2.5.3.2")
    moving = rejects(state, {"type": "move", "actor": "carla", "to": [1, 1]}, now)
    assert moving.code == "interference_action_not_allowed"
    state = use(state, "carla", BLESSING, now, n="aura")
    assert state["interference"] is not None
    decision = act(
        state,
        {"type": "skill", "actor": "carla", "skill": ATTACK, "targets": ["bruno"]},
        now,
        n="forced",
    )
    assert "interference.ended" in types(decision)
    state = settle(new_state(decision), now)
    assert state["interference"] is None
    assert state["turn"]["actor"] == "ana" and state["turn"]["paused_remaining_ms"] is None


def test_an_interference_turn_times_out() -> None:
    """umh 2.5 / 2.3.5: it lasts at most a turn's time; then the owner's clock resumes."""
    state, _now = granted(ORDER)
    decision = fire_kind(state, "interference")
    assert types(decision) == ["interference.ended", "turn.resumed"]
    assert payload(decision, "interference.ended") == {"holder": "carla", "reason": "timeout"}


def test_interference_is_not_granted_when_the_skill_is_cancelled() -> None:
    """umh 8.2.3 / 2.5: an annulled (or anticipated) granting skill grants nothing."""
    state, now = two_vs_one()
    state = new_state(
        act(state, {"type": "skill", "actor": "ana", "skill": ORDER, "targets": ["carla"]}, now)
    )
    (action_id,) = state["actions"]
    annul = {"type": "react", "actor": "bruno", "action_id": action_id, "skill": "Anulación"}
    state = new_state(act(state, {**annul, "use_number": 1}, now, n="annul"))
    answer = {"action_id": action_id, "attacker": "ana", "skill": ORDER, "cancelled": True}
    state = new_state(TURNS.on_event(state, "action.resolved", answer, now_ms=now))
    assert state["interference"] is None and state["interference_queue"] == []


def test_the_speed_of_an_interference_turn_comes_back_with_the_round() -> None:
    """umh 2.5.4: spent until the round ends."""
    state, now = granted(ORDER)
    state = new_state(act(state, {"type": "move", "actor": "carla", "to": [1, 1]}, now, n="mv"))
    state = passes(state, "carla", now)
    state = play_round(state, now + SECOND)
    assert state["participants"]["carla"]["movement_left"] == 5
