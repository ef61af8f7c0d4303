"""docs/rules.md 5.2 T001-13, T001-16, T001-20, T001-21 and the turn economy of seed 001 (ASALTO,
ACCIÓN, INICIATIVA, INDICADOR, DAÑO ESPECIAL), on the pure turns and resolution rulesets."""

from __future__ import annotations

from typing import Any

import pytest

from services.resolution.domain.cypher import resolve
from services.turns.domain.cypher.flow import initiative_order
from shared.errors import RuleViolation
from shared.rulesets.cypher.actions import CypherGenericAction
from shared.rulesets.cypher.settings import CypherSettings
from shared.rulesets.cypher.sheet import CypherSheet

from .kit import Fixed, Referee, condition, npc, pc


def duel() -> Referee:
    return Referee.start({"ana": pc("Ana"), "bruno": pc("Bruno")}, "ana", ["bruno"])


def other(ref: Referee) -> str:
    return "bruno" if ref.actor == "ana" else "ana"


def refused(ref: Referee, action: dict[str, Any], code: str, *, moderator: bool = False) -> str:
    with pytest.raises(RuleViolation) as caught:
        ref.act(action, moderator=moderator)
    assert caught.value.code == code, caught.value
    return str(caught.value.rule)


def attack(actor: str, target: str, **fields: Any) -> dict[str, Any]:
    return {"type": "cypher.attack", "actor": actor, "target": target, "attack": "Espada", **fields}


def set_part(ref: Referee, character: str, **changes: Any) -> None:
    from shared.rulesets.cypher.conditions import Condition

    part = Condition.parse({**ref.turns["participants"][character], **changes})
    part.refresh()
    ref.turns["participants"][character] = part.to_dict()


@pytest.mark.parametrize(
    ("roll", "before_npc"),
    [
        pytest.param(13, True, id="T001-16-13-acts-before"),
        pytest.param(12, False, id="T001-16-12-after"),
    ],
)
def test_t001_16_initiative_strictly_higher_b2(roll: int, before_npc: bool) -> None:
    """001 INICIATIVA, B-2: NPC target number 12; a PC acts before it only above 12."""
    order = initiative_order(["ana"], ["orco"], {"ana": roll}, 12)
    assert (order.index("ana") < order.index("orco")) is before_npc


def test_initiative_sorts_pcs_by_roll_and_keeps_the_order_every_round() -> None:
    """001 INICIATIVA (order, fixed order): by roll, descending; the same order each round."""
    assert initiative_order(["a", "b", "c"], [], {"a": 5, "b": 18, "c": 11}, None) == [
        "b",
        "c",
        "a",
    ]
    ref = duel()
    first = list(ref.turns["order"])
    for _ in range(4):
        ref.act({"type": "cypher.pass", "actor": ref.actor})
    assert ref.turns["round"] == 3 and ref.turns["order"] == first
    assert [e["round"] for e in ref.of_type("round.ended")] == [1, 2]


def test_b3_a_moderator_re_rolls_initiative_at_the_next_round() -> None:
    ref = duel()
    refused(ref, {"type": "cypher.reroll_initiative", "actor": "ana"}, "forbidden")
    ref.act({"type": "cypher.reroll_initiative", "actor": "ana"}, moderator=True)
    assert len(ref.of_type("initiative.rolled")) == 1
    ref.act({"type": "cypher.pass", "actor": ref.actor})
    ref.act({"type": "cypher.pass", "actor": ref.actor})
    assert len(ref.of_type("initiative.rolled")) == 2 and ref.turns["round"] == 2


def test_one_action_per_turn_and_not_your_turn() -> None:
    """001 ACCIÓN (turn): one action per turn (E_ONE_ACTION_PER_TURN); others wait."""
    ref = duel()
    me, him = ref.actor, other(ref)
    assert refused(ref, attack(him, me), "not_your_turn") == "cypher ACCIÓN (turn)"
    ref.act({"type": "cypher.move", "actor": me, "distance": "immediate"})
    refused(
        ref, {"type": "cypher.move", "actor": me, "distance": "immediate"}, "one_action_per_turn"
    )
    ref.act({"type": "cypher.action", "actor": me, "stat": "intellect"})
    assert ref.actor == him


def test_short_move_is_the_whole_turn() -> None:
    """001 DISTANCIA (short move): the turn's action."""
    ref = duel()
    me = ref.actor
    ref.act({"type": "cypher.move", "actor": me, "distance": "short"})
    assert ref.actor != me and ref.last("combatant.moved")["distance"] == "short"


@pytest.mark.parametrize(
    ("action", "allowed"),
    [
        pytest.param("attack", False, id="T001-13-debilitated-attacks"),
        pytest.param("immediate", True, id="T001-13-moves-immediate"),
        pytest.param("speed-0", False, id="T001-13-speed-0-cannot-move"),
    ],
)
def test_t001_13_debilitated(action: str, allowed: bool) -> None:
    """001 INDICADOR (incapacitado): only a move within immediate range, not with Speed 0."""
    ref = Referee.start(
        {"ana": pc("Ana"), "bruno": pc("Bruno"), "carla": pc("Carla")}, "ana", ["bruno", "carla"]
    )
    me = ref.actor
    foe = "bruno" if me == "ana" else "ana"
    speed = 0 if action == "speed-0" else 3
    set_part(ref, me, pools={"might": 0, "speed": speed, "intellect": 0 if speed else 4})
    assert ref.part(me)["status"] == "debilitated"
    body = (
        attack(me, foe)
        if action == "attack"
        else {"type": "cypher.move", "actor": me, "distance": "immediate"}
    )
    if allowed:
        ref.act(body)
        assert ref.last("combatant.moved")["character"] == me
    else:
        assert refused(ref, body, "debilitated") == "cypher INDICADOR (incapacitado)"


def test_dead_refuses_everything() -> None:
    """001 INDICADOR (muerto): every action of the dead is E_DEAD."""
    ref = Referee.start(
        {"ana": pc("Ana"), "bruno": pc("Bruno"), "carla": pc("Carla")}, "ana", ["bruno", "carla"]
    )
    victim = next(c for c in ("bruno", "carla") if c != ref.actor)
    set_part(ref, victim, special_steps=3)
    assert (
        refused(ref, {"type": "cypher.pass", "actor": victim}, "dead")
        == "cypher INDICADOR (muerto)"
    )


def test_paralysis_refuses_moving_and_physical_actions() -> None:
    """001 DAÑO ESPECIAL (parálisis): actions that need no movement are still allowed."""
    ref = duel()
    me = ref.actor
    set_part(ref, me, paralyzed=True)
    refused(ref, {"type": "cypher.move", "actor": me, "distance": "immediate"}, "paralyzed")
    refused(ref, attack(me, other(ref)), "paralyzed")
    ref.act({"type": "cypher.action", "actor": me, "stat": "intellect", "physical": False})


def test_t001_20_dazed_is_one_step_harder_for_a_round_b18() -> None:
    """DAÑO ESPECIAL (desorientado): difficulty 2 becomes 3 while dazed (1 round)."""
    ref = duel()
    me = ref.actor
    set_part(ref, me, dazed_turns=1)
    ref.turns["turn"]["dazed_at_start"] = True
    ref.act({"type": "cypher.action", "actor": me, "stat": "intellect", "difficulty": 2})
    assert ref.last("action.resolved")["difficulty"] == 3
    assert ref.part(me)["dazed_turns"] == 0
    ref.act({"type": "cypher.pass", "actor": ref.actor})
    ref.act({"type": "cypher.action", "actor": me, "stat": "intellect", "difficulty": 2})
    assert ref.last("action.resolved")["difficulty"] == 2


def test_t001_20_stunned_loses_his_next_turn_but_defends_b15() -> None:
    """DAÑO ESPECIAL (aturdido): his next turn is skipped; an NPC's attack on him is still
    met by his defense roll."""
    ref = Referee.start({"ana": pc("Ana"), "orco": npc("Orco", level=2)}, "ana", ["orco"])
    ref.act(
        {"type": "cypher.inflict", "actor": "orco", "target": "ana", "stunned": True},
        moderator=True,
    )
    assert ref.part("ana")["stunned"]
    while ref.actor != "orco":
        ref.act({"type": "cypher.pass", "actor": ref.actor})
    ref.act({"type": "cypher.attack", "actor": "orco", "target": "ana", "attack": "Garra"})
    assert ref.last("action.resolved")["defense_roll"] is True
    skipped = [e for e in ref.of_type("turn.ended") if e["reason"] == "stunned"]
    assert skipped and skipped[0]["actor"] == "ana" and ref.actor == "orco"


def test_t001_21_minimum_spend_not_met_fails_automatically() -> None:
    """001 ACCIÓN (minimum spend): needs 3 Might, the pool has 2: automatic failure."""
    sheet = pc("Ana")
    conds = {"ana": condition(sheet, pools={"might": 2, "speed": 5, "intellect": 5})}
    action = CypherGenericAction(
        type="cypher.action", actor="ana", stat="might", difficulty=1, minimum_spend=3
    )
    done = resolve.resolve_action(
        action, {"ana": CypherSheet.model_validate(sheet)}, conds, Fixed()
    )
    assert done.payload["success"] is False and done.payload["automatic"] == "minimum_spend_not_met"
    assert done.rolls == []


def test_effort_is_paid_from_the_pool_and_limited_by_the_sheet_b7() -> None:
    ref = duel()
    me = ref.actor
    refused(ref, attack(me, other(ref), effort=2), "effort_too_high")
    ref.act(attack(me, other(ref), effort=1))
    resolved = ref.last("action.resolved")
    assert resolved["effort"]["cost"] == 3 and resolved["effort_levels"] == 1
    assert ref.part(me)["pools"]["might"] == 7


def test_the_turn_timer_passes_the_turn() -> None:
    """docs/rules.md 7.1 W2 (turn): the community's turn clock (5 minutes by default) passes it."""
    ref = duel()
    me = ref.actor
    ref.fire_turn_timer()
    assert ref.of_type("turn.timed_out")[0]["actor"] == me and ref.actor != me


def test_a_combat_ends_when_a_side_is_all_down_and_a_moderator_annuls() -> None:
    """The end (this referee's reading): a side all dead, debilitated or fled loses."""
    ref = Referee.start({"ana": pc("Ana"), "orco": npc("Orco", health=3)}, "ana", ["orco"])
    ref.act(
        {"type": "cypher.inflict", "actor": "ana", "target": "orco", "damage": 5}, moderator=True
    )
    ended = ref.last("combat.ended")
    assert ended["winner"] == "attackers" and ended["reason"] == "defeat"
    refused(ref, {"type": "cypher.pass", "actor": "ana"}, "combat_ended")
    again = duel()
    again.act({"type": "annul", "actor": "ana", "reason": "test"}, moderator=True)
    assert again.last("combat.ended")["reason"] == "annulled"


def test_fleeing_ends_the_combat_when_a_side_has_all_fled() -> None:
    ref = duel()
    me = ref.actor
    ref.act({"type": "flee", "actor": me})
    ended = ref.last("combat.ended")
    assert ended["reason"] == "fled" and ref.of_type("combatant.fled")[0]["character"] == me


def test_the_turn_clock_waits_for_a_resolution_in_flight() -> None:
    """A timer due while an action is being resolved is re-armed a little later."""
    ref = duel()
    me = ref.actor
    ref.pump = lambda events: ref.log.extend(events)  # type: ignore[method-assign]
    ref.act(attack(me, other(ref)))
    assert ref.turns["turn"]["pending"]
    ref.fire_turn_timer()
    assert ref.actor == me and not ref.of_type("turn.timed_out")
    assert any(t["kind"] == "turn" for t in ref.turns["timers"].values())


def test_umh_only_actions_are_not_implemented() -> None:
    ref = duel()
    refused(
        ref,
        {"type": "join", "actor": "x", "side": "attackers", "via": "irrumpir"},
        "not_implemented",
    )
    ref.act({"type": "pass_turn", "actor": ref.actor})


def test_b23_the_literal_low_light_reading_is_a_community_setting() -> None:
    from .kit import start_cmd

    sheets = {"ana": pc("Ana"), "bruno": pc("Bruno")}
    cmd = start_cmd(sheets, "ana", ["bruno"])
    literal = cmd.model_copy(
        update={
            "settings": cmd.settings.model_copy(
                update={
                    "cypher": cmd.settings.ruleset("cypher", CypherSettings).model_copy(
                        update={"literal_low_light": True}
                    )
                }
            )
        }
    )
    from .kit import TURNS

    state = TURNS.start(literal, tenant="t", room="r", now_ms=0).state or {}
    assert state["settings"]["literal_low_light"] is True
