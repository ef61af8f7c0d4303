"""Vacío (C-3, issue 17): two exploding dice in one roll give a Void point back with no
moderator, and a moderator may veto it; through services/turns' handlers."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import RuleViolation
from shared.messages import ACTION_RESOLVED
from shared.payloads import ActOnCombat
from tests.unit.turns.l5r.session import T0, Combat, code, sheet, stance


def pending_attack(void: int, **l5r: Any) -> tuple[Combat, str]:
    """Ana (Void ring 2, ``void`` points) has attacked Bruno; the answer is not back yet."""
    c = Combat({"ana": sheet("Ana", void_points=void), "bruno": sheet("Bruno")}, l5r=l5r)
    c.ready_all()
    while c.actor != "ana":
        stance(c, c.actor)
        c.act({"type": "pass_turn", "actor": c.actor})
    stance(c, "ana")
    action_id = "a_" + "7" * 32
    body = {"type": "l5r.attack", "actor": "ana", "target": "bruno"}
    cmd = ActOnCombat.model_validate({"action_id": action_id, "action": body})
    decision = c.turns.act(c.state, cmd, now_ms=T0)
    assert decision.state is not None
    c.state = decision.state
    return c, action_id


def answer(action_id: str, attack: list[list[int]], damage: list[list[int]]) -> dict[str, Any]:
    """An ``action.resolved`` as services/resolution writes it (a miss: no wounds)."""
    return {
        "ruleset": "l5r",
        "action_id": action_id,
        "attacker": "ana",
        "target": "bruno",
        "hits": 0,
        "wounds_dealt": 0,
        "steps": [
            {"step": "attack_roll", "dice": attack},
            *([{"step": "damage", "dice": damage}] if damage else []),
        ],
    }


@pytest.mark.parametrize(
    ("void", "attack", "damage", "settings", "gained"),
    [
        pytest.param(0, [[10, 4], [10, 2], [3]], [], {}, 1, id="two tens explode: +1"),
        pytest.param(0, [[10, 4], [3], [2]], [], {}, 0, id="one ten: nothing"),
        pytest.param(0, [[10, 10, 4], [3]], [], {}, 0, id="one die exploding twice: nothing"),
        pytest.param(0, [[3]], [[10, 1], [10, 5], [2]], {}, 1, id="on the damage roll: +1"),
        pytest.param(2, [[10, 4], [10, 2]], [], {}, 0, id="pool full: capped"),
        pytest.param(
            0,
            [[10, 4], [10, 2]],
            [],
            {"void_for_two_tens": "moderator"},
            0,
            id="setting moderator: only l5r.grant_void",
        ),
    ],
)
def test_004_vacio_two_exploding_dice_give_a_point(
    void: int,
    attack: list[list[int]],
    damage: list[list[int]],
    settings: dict[str, Any],
    gained: int,
) -> None:
    """Vacío: "se recuperan cuando obtienes 2 dados relanzables en una tirada" (C-3)."""
    c, action_id = pending_attack(void, **settings)
    decision = c.turns.on_event(
        c.state, ACTION_RESOLVED, answer(action_id, attack, damage), now_ms=T0
    )
    assert decision.state is not None
    c.state = decision.state
    assert c.p("ana")["void"] == void + gained
    regained = [e.payload for e in decision.events if e.type == "void.regained"]
    assert len(regained) == gained
    if gained:
        assert regained[0]["reason"] == "two_exploding_dice" and regained[0]["vetoable"]
        assert regained[0]["action_id"] == action_id


def test_004_vacio_a_moderator_vetoes_the_point() -> None:
    """ "(el DM confirmará esto)": the moderator takes the point back; once only."""
    c, action_id = pending_attack(0)
    decision = c.turns.on_event(
        c.state, ACTION_RESOLVED, answer(action_id, [[10, 4], [10, 2]], []), now_ms=T0
    )
    assert decision.state is not None
    c.state = decision.state
    veto = {"type": "l5r.veto_void", "actor": "moderadora", "character": "ana"}
    assert c.refused(veto).code == "forbidden"
    vetoed = c.act(veto, moderator=True)
    assert [e.type for e in vetoed] == ["void.vetoed"] and c.p("ana")["void"] == 0
    assert code_moderated(c, veto) == "no_void_to_veto"


def code_moderated(c: Combat, body: dict[str, Any]) -> str:
    with pytest.raises(RuleViolation) as caught:
        c.act(body, moderator=True)
    return caught.value.code


def test_004_vacio_grant_void_still_works() -> None:
    """The moderator's own grant (meditation, a story roll) is unchanged."""
    c, _ = pending_attack(0)
    c.act({"type": "l5r.grant_void", "actor": "moderadora", "character": "ana"}, moderator=True)
    assert c.p("ana")["void"] == 1
    assert code(c, {"type": "l5r.grant_void", "actor": "ana", "character": "ana"}) == "forbidden"
