"""Moving on the grid (umh 2.3.2.1, A-61, A-22), positions (umh 10.1), and what crowd
control and altered states forbid (umh 11.4, 11.5), mirrored from ``effect.applied``."""

from __future__ import annotations

from typing import Any

import pytest

from .builders import (
    ATTACK,
    BLESSING,
    FLY,
    LEAP,
    MIND,
    SHIELD,
    SHOUT,
    T0,
    TURNS,
    act,
    action_id,
    fire_kind,
    new_state,
    now_of,
    payload,
    rejects,
    settle,
    sheet,
    start_cmd,
    types,
    where,
    without_stoppers,
)


def on_grid(vel: float = 5) -> tuple[dict[str, Any], int]:
    sheets = {"ana": sheet("Ana", vel=vel), "bruno": sheet("Bruno")}
    cmd = start_cmd(sheets=sheets, positions={"ana": (0, 0), "bruno": (1, 0)})
    state = new_state(fire_kind(new_state(TURNS.start(cmd, **where(T0))), "preparation"))
    return state, now_of(state)


@pytest.mark.parametrize(
    ("to", "cost"),
    [
        pytest.param([3, 3], 3, id="umh-2.3.2.1-A-61-diagonal-steps-cost-1"),
        pytest.param([0, 5], 5, id="umh-2.3.2.1-all-the-speed"),
        pytest.param([0, 0], 0, id="umh-2.3.2.1-standing-still"),
    ],
)
def test_moving_costs_one_speed_per_square(to: list[int], cost: int) -> None:
    state, now = on_grid()
    decision = act(state, {"type": "move", "actor": "ana", "to": to}, now)
    assert payload(decision, "combatant.moved") == {
        "character": "ana",
        "from": [0, 0],
        "to": to,
        "cost": cost,
        "movement_left": 5 - cost,
        "interference": False,
    }
    view = TURNS.view(new_state(decision))["participants"]["ana"]
    assert view["position"] == {"square": to, "height": "suelo"}
    assert view["movement_left"] == 5 - cost


@pytest.mark.parametrize(
    ("vel", "to", "code", "rule"),
    [
        pytest.param(5, [0, 6], "insufficient_speed", "umh 2.3.2.1", id="umh-2.3.2.1-too-far"),
        pytest.param(
            0.6, [0, 1], "insufficient_speed", "umh 2.3.2.1", id="umh-2.6.1.2-T000-27-vel-0.6"
        ),
        pytest.param(5, [1, 0], "invalid_target", "umh 11.6.1", id="umh-11.6.1-square-taken"),
    ],
)
def test_move_rejections(vel: float, to: list[int], code: str, rule: str) -> None:
    state, now = on_grid(vel)
    violation = rejects(state, {"type": "move", "actor": "ana", "to": to}, now)
    assert (violation.code, violation.rule) == (code, rule)


def test_no_move_without_a_grid_nor_out_of_turn() -> None:
    from .builders import fighting

    state = fighting()
    no_grid = rejects(state, {"type": "move", "actor": "ana", "to": [1, 1]}, now_of(state))
    assert (no_grid.code, no_grid.rule) == ("invalid_target", "umh 2.3.2.1")
    state, now = on_grid()
    other = rejects(state, {"type": "move", "actor": "bruno", "to": [2, 2]}, now)
    assert (other.code, other.rule) == ("not_your_turn", "umh 2.4.1")


def test_a_fly_skill_sets_the_height() -> None:
    """umh 10.1 / 8.1.1.2.2: a levitate / fly skill changes the user's height once settled."""
    state, now = on_grid()
    state = without_stoppers(state)
    decision = act(state, {"type": "skill", "actor": "ana", "skill": FLY}, now)
    request = payload(decision, "resolution.requested")
    assert request["positions"] == {
        "ana": {"square": [0, 0], "height": "suelo"},
        "bruno": {"square": [1, 0], "height": "suelo"},
    }
    state = settle(new_state(decision), now)
    assert TURNS.view(state)["participants"]["ana"]["position"]["height"] == "voladora"


def test_evasions_spend_speed_and_move_the_evader() -> None:
    """umh 8.2.1.1 / 8.2.1.2: resolution says what the evasion cost and where he is now."""
    state, now = on_grid()
    state = new_state(
        act(state, {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno"]}, now)
    )
    evade = {
        "type": "react",
        "actor": "bruno",
        "action_id": action_id(1),
        "skill": "Esquiva",
        "to": [2, 0],
    }
    decision = act(state, evade, now, n=2)
    assert payload(decision, "resolution.requested")["reactions"]["bruno"]["to"] == [2, 0]
    answer = {
        "action_id": action_id(1),
        "attacker": "ana",
        "skill": ATTACK,
        "speed_spent": {"bruno": 1},
        "moved": {"bruno": {"square": [2, 0], "height": "suelo"}},
    }
    decision = TURNS.on_event(new_state(decision), "action.resolved", answer, now_ms=now)
    assert "combatant.position_changed" in types(decision)
    bruno = TURNS.view(new_state(decision))["participants"]["bruno"]
    assert (bruno["movement_left"], bruno["position"]["square"]) == (4, [2, 0])


def test_an_evasion_cannot_cost_more_speed_than_is_left() -> None:
    state, now = on_grid()
    state = new_state(
        act(state, {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno"]}, now)
    )
    evade = {
        "type": "react",
        "actor": "bruno",
        "action_id": action_id(1),
        "skill": "Esquiva",
        "to": [7, 0],
    }
    violation = rejects(state, evade, now)
    assert (violation.code, violation.rule) == ("insufficient_speed", "umh 8.2.1.1")


def afflicted(
    blocks: list[str], who: str = "ana", kind: str = "control"
) -> tuple[dict[str, Any], int]:
    state, now = on_grid()
    applied = {
        "combat_id": state["id"],
        "character": who,
        "effect": {"effect_id": "e1", "kind": kind, "type": "x", "actions_left": 2},
        "blocks": blocks,
    }
    decision = TURNS.on_event(state, "effect.applied", applied, now_ms=now)
    assert decision.events == []
    return new_state(decision), now


SKILL = {"type": "skill", "actor": "ana", "targets": ["bruno"]}


@pytest.mark.parametrize(
    ("blocks", "action", "code", "rule"),
    [
        pytest.param(
            ["act"],
            {**SKILL, "skill": ATTACK},
            "stunned",
            "umh 11.4.1",
            id="umh-11.4.1-stun-no-skill",
        ),
        pytest.param(
            ["act"],
            {"type": "move", "actor": "ana", "to": [0, 1]},
            "stunned",
            "umh 11.4.1",
            id="umh-11.4.1-stun-no-move",
        ),
        pytest.param(
            ["act_unless_telepathic"],
            {**SKILL, "skill": ATTACK},
            "paralyzed",
            "umh 11.4.2",
            id="umh-11.4.2-paralysis",
        ),
        pytest.param(
            ["act_unless_telepathic"],
            {"type": "move", "actor": "ana", "to": [0, 1]},
            "paralyzed",
            "umh 11.4.2",
            id="umh-11.4.2-paralysis-no-move",
        ),
        pytest.param(
            ["move"],
            {"type": "move", "actor": "ana", "to": [0, 1]},
            "immobilized",
            "umh 11.5.1",
            id="umh-11.5.1-immobilised",
        ),
        pytest.param(
            ["speech"], {**SKILL, "skill": SHOUT}, "muted", "umh 11.5.8", id="umh-11.5.8-mute"
        ),
        pytest.param(
            ["attack:bruno"],
            {**SKILL, "skill": ATTACK},
            "enamored",
            "umh 11.5.10",
            id="umh-11.5.10-enamoured",
        ),
        pytest.param(
            ["stand_up", "move", "evade_with_legs"],
            {"type": "move", "actor": "ana", "to": [0, 1]},
            "immobilized",
            "umh 11.5.2",
            id="umh-11.5.2-knocked-down-no-move",
        ),
    ],
)
def test_what_conditions_forbid(
    blocks: list[str], action: dict[str, Any], code: str, rule: str
) -> None:
    state, now = afflicted(blocks)
    violation = rejects(state, action, now)
    assert (violation.code, violation.rule) == (code, rule)


@pytest.mark.parametrize(
    ("blocks", "action"),
    [
        pytest.param(
            ["act_unless_telepathic"], {**SKILL, "skill": MIND}, id="umh-11.4.2-telepathic-allowed"
        ),
        pytest.param(["move"], {**SKILL, "skill": ATTACK}, id="umh-11.5.1-immobilised-may-attack"),
        pytest.param(
            ["stand_up", "move", "evade_with_legs"],
            {**SKILL, "skill": ATTACK},
            id="umh-11.5.2-knocked-down-may-attack",
        ),
        pytest.param(["speech"], {**SKILL, "skill": ATTACK}, id="umh-11.5.8-mute-silent-skill"),
        pytest.param(
            ["act"], {"type": "pass_turn", "actor": "ana"}, id="umh-11.4.1-stunned-may-pass"
        ),
    ],
)
def test_what_conditions_allow(blocks: list[str], action: dict[str, Any]) -> None:
    state, now = afflicted(blocks)
    assert act(state, action, now).state is not None


def test_stand_up_ends_the_knockdown() -> None:
    """umh 11.5.2 *Levantarse*; an expired effect is forgotten; the view shows blocks."""
    state, now = afflicted(["stand_up", "move", "evade_with_legs"], kind="state")
    view = TURNS.view(state)["participants"]["ana"]
    assert view["blocks"] == ["evade_with_legs", "move", "stand_up"]
    assert view["effects"][0]["effect_id"] == "e1"
    decision = act(state, {"type": "stand_up", "actor": "ana"}, now)
    assert payload(decision, "combatant.stood_up") == {"character": "ana", "effects": ["e1"]}
    state = new_state(decision)
    assert act(state, {**SKILL, "skill": ATTACK}, now, n=2).state is not None
    standing = rejects(state, {"type": "stand_up", "actor": "ana"}, now)
    assert (standing.code, standing.rule) == ("wrong_phase", "umh 11.5.2")


def test_effect_expired_lifts_the_block() -> None:
    state, now = afflicted(["act"])
    expired = {
        "combat_id": state["id"],
        "character": "ana",
        "effect_id": "e1",
        "kind": "control",
        "type": "x",
    }
    state = new_state(TURNS.on_event(state, "effect.expired", expired, now_ms=now))
    assert act(state, {**SKILL, "skill": ATTACK}, now).state is not None
    assert TURNS.on_event(state, "effect.expired", expired, now_ms=now).state is None


@pytest.mark.parametrize(
    ("blocks", "defense", "code", "rule"),
    [
        pytest.param(
            ["act"], SHIELD, "stunned", "umh 11.4.1", id="umh-11.4.1-stunned-cannot-defend"
        ),
        pytest.param(
            ["evade_with_legs"], LEAP, "immobilized", "umh 11.5.1", id="umh-11.5.1-no-leg-evasion"
        ),
    ],
)
def test_what_conditions_forbid_in_a_reaction(
    blocks: list[str], defense: str, code: str, rule: str
) -> None:
    state, now = afflicted(blocks, who="bruno")
    state = new_state(act(state, {**SKILL, "skill": ATTACK}, now))
    react = {"type": "react", "actor": "bruno", "action_id": action_id(1), "skill": defense}
    violation = rejects(state, react, now)
    assert (violation.code, violation.rule) == (code, rule)
    take = {"type": "react", "actor": "bruno", "action_id": action_id(1), "skill": None}
    assert act(state, take, now, n=2).state is not None


def test_supplementary_is_not_enamoured() -> None:
    state, now = afflicted(["attack:bruno"])
    assert act(
        state, {"type": "skill", "actor": "ana", "skill": BLESSING, "targets": ["ana"]}, now
    ).state
