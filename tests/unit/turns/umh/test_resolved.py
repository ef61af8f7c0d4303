"""``action.resolved`` (umh 4.1.1, 4.1.1.2, 4.1.4): the fallen, the end, the next turn."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from shared.messages import derived_id
from shared.payloads import CombatEnded

from .builders import (
    ATTACK,
    COMBAT_ID,
    SECOND,
    T0,
    TURNS,
    act,
    action_id,
    attack_opening,
    fighting,
    fire,
    fire_kind,
    new_state,
    now_of,
    payload,
    rejects,
    resolved,
    start_cmd,
    types,
    where,
)


def attacking(
    defenders: tuple[str, ...], attacker: str = "ana", targets: tuple[str, ...] = ()
) -> tuple[dict[str, Any], int]:
    """Round 1: every turn passes until ``attacker``'s; he attacks; every window times out."""
    state = fighting(defenders=defenders)
    n = 100
    while state["turn"]["actor"] != attacker:
        n += 1
        pass_turn = {"type": "pass_turn", "actor": state["turn"]["actor"]}
        state = new_state(act(state, pass_turn, now_of(state), n=n))
    now = now_of(state) + 10 * SECOND
    aimed = list(targets or defenders)
    attack = {"type": "skill", "actor": attacker, "skill": ATTACK, "targets": aimed}
    state = new_state(act(state, attack, now))
    for timer_id in list(state["timers"]):
        state = new_state(fire(state, timer_id, now))
    return state, now


@pytest.mark.parametrize(
    ("defenders", "downs", "winner"),
    [
        pytest.param(("bruno",), ("bruno",), "attackers", id="umh-4.1.1.2-attackers-win"),
        pytest.param(
            ("bruno", "carla"), ("bruno", "carla"), "attackers", id="umh-4.1.1.2-both-targets"
        ),
        pytest.param(("bruno",), ("ana",), "defenders", id="umh-4.1.1.2-attacker-falls"),
        pytest.param(("bruno",), ("ana", "bruno"), None, id="umh-4.1.1-both-sides-fall"),
    ],
)
def test_a_side_with_nobody_standing_loses(
    defenders: tuple[str, ...], downs: tuple[str, ...], winner: str | None
) -> None:
    state, now = attacking(defenders)
    before = copy.deepcopy(state)
    decision = TURNS.on_event(
        state, "action.resolved", resolved(action_id(1), downs=downs), now_ms=now
    )
    assert state == before
    assert types(decision) == ["action.completed", "combat.phase_changed", "combat.ended"]
    assert payload(decision, "combat.phase_changed") == {"from": "fighting", "to": "ended"}
    ended = CombatEnded.model_validate(payload(decision, "combat.ended"))
    assert (ended.combat_id, ended.winner, ended.reason, ended.ended_at_ms) == (
        COMBAT_ID,
        winner,
        "defeat",
        now,
    )
    for character in downs:
        assert ended.participants[character].status == "down"
        assert ended.participants[character].reached_zero_vit
    after = new_state(decision)
    assert not TURNS.is_active(after)
    assert TURNS.timers(after) == {}
    view = TURNS.view(after)
    assert view["result"] == {"winner": winner, "reason": "defeat"}
    assert view["ended_at"] is not None
    assert view["turn"] is None
    violation = rejects(after, {"type": "pass_turn", "actor": "ana"})
    assert (violation.code, violation.rule) == ("combat_ended", "umh 4.1.1")


def test_end_cancels_every_armed_timer() -> None:
    state, now = attacking(("bruno", "carla"))
    state["timers"]["extra"] = {"kind": "turn", "due_ms": now, "data": {}}
    downs = ("bruno", "carla")
    decision = TURNS.on_event(
        state, "action.resolved", resolved(action_id(1), downs=downs), now_ms=now
    )
    assert decision.cancel == ["extra"]


def test_one_fallen_target_of_two_fights_no_more() -> None:
    """umh 4.1.1.2 / 2.2.5: the fallen lose their remaining turns and leave the order."""
    state, now = attacking(("bruno", "carla"), targets=("carla",))
    decision = TURNS.on_event(
        state, "action.resolved", resolved(action_id(1), downs=("carla",)), now_ms=now
    )
    assert types(decision) == ["action.completed", "turn.resumed"]
    state = new_state(decision)
    assert state["turn_order"] == ["ana", "bruno", "ana", "carla"]
    state = new_state(act(state, {"type": "pass_turn", "actor": "ana"}, now, n=50))
    state = new_state(act(state, {"type": "pass_turn", "actor": "bruno"}, now, n=51))
    decision = act(state, {"type": "pass_turn", "actor": "ana"}, now, n=52)
    assert types(decision) == ["turn.ended", "round.ended", "round.started", "turn.started"]
    assert payload(decision, "round.started")["turn_order"] == ["ana", "bruno"]
    assert new_state(decision)["participants"]["carla"]["pa"] == 10  # no refill when down


def test_fallen_current_actor_ends_his_turn() -> None:
    """umh 4.1.1.2: the actor fell by his own action (a counter, later): next turn."""
    state, now = attacking(("bruno", "carla"), attacker="bruno", targets=("ana",))
    decision = TURNS.on_event(
        state, "action.resolved", resolved(action_id(1), downs=("bruno",)), now_ms=now
    )
    assert types(decision) == ["action.completed", "turn.ended", "turn.started"]
    assert payload(decision, "turn.ended") == {
        "actor": "bruno",
        "reason": "down",
        "round": 1,
        "turn_seq": 2,
    }
    assert payload(decision, "turn.started")["actor"] == "ana"


def test_opening_attack_that_fells_the_only_target_ends_the_combat() -> None:
    state = new_state(TURNS.start(start_cmd(opening=attack_opening("bruno")), **where(T0)))
    opening = derived_id("a", COMBAT_ID, "opening")
    state = new_state(fire_kind(state, "defense"))
    decision = TURNS.on_event(
        state, "action.resolved", resolved(opening, downs=("bruno",)), now_ms=T0
    )
    assert types(decision) == ["action.completed", "combat.phase_changed", "combat.ended"]
    assert payload(decision, "combat.phase_changed") == {"from": "opening", "to": "ended"}


def test_unknown_or_settled_actions_and_other_events_change_nothing() -> None:
    state, now = attacking(("bruno",))
    assert (
        TURNS.on_event(state, "action.resolved", resolved(action_id(77)), now_ms=now).state is None
    )
    assert (
        TURNS.on_event(state, "effect.applied", {"action_id": action_id(1)}, now_ms=now).state
        is None
    )
    settled = new_state(
        TURNS.on_event(state, "action.resolved", resolved(action_id(1)), now_ms=now)
    )
    assert (
        TURNS.on_event(settled, "action.resolved", resolved(action_id(1)), now_ms=now).state is None
    )


def test_timers_after_the_end_are_stale() -> None:
    state, now = attacking(("bruno",))
    timers = dict(state["timers"])
    ended = new_state(
        TURNS.on_event(
            state, "action.resolved", resolved(action_id(1), downs=("bruno",)), now_ms=now
        )
    )
    ended["timers"] = timers  # even if the runtime still had them
    for timer_id in timers:
        assert fire_kind(ended, ended["timers"][timer_id]["kind"]).state is None
