"""The ruleset's other inputs: joins, *Levantarse*, the read model (umh 1.2.4, 11.5.2, 9.7)."""

from __future__ import annotations

from shared.messages import ACTION_DECLARED, COMBATANT_JOINED, EFFECT_EXPIRED
from tests.unit.resolution.umh.kit import Fight, attack, sheet, support


def test_a_joiner_enters_at_full_vit_once() -> None:
    fight = Fight({"ana": sheet("Ana"), "bruno": sheet("Bruno")})
    payload = {
        "combat_id": "c_1",
        "ruleset": "umh",
        "character": "carla",
        "side": "defenders",
        "via": "irrumpir",
        "joined_at_ms": 1,
        "sheet": sheet("Carla", vit=700),
    }
    fight.send(COMBATANT_JOINED, payload)
    assert (fight.vit("carla"), fight.who("carla")["side"]) == (700, "defenders")
    fight.send(COMBATANT_JOINED, payload)
    assert fight.last is not None and fight.last.state is None


def test_stand_up_ends_the_knockdown() -> None:
    trip = attack("Zancadilla", damage=5, effects=[{"kind": "state", "type": "derribo"}])
    fight = Fight({"ana": sheet("Ana", trip), "bruno": sheet("Bruno")})
    fight.hit("Zancadilla", ["bruno"])
    assert fight.effects("bruno", "state")
    events = fight.send(
        ACTION_DECLARED,
        {"action_id": "a_up", "attacker": "bruno", "skill": "stand_up", "general_action": False},
    )
    assert [e.type for e in events] == [EFFECT_EXPIRED]
    assert fight.effects("bruno", "state") == []


def test_view_shows_effects_and_the_mental_shield() -> None:
    bubble = support("Escudo mental", natures=["mental"], mental_shield=120)
    fight = Fight({"ana": sheet("Ana"), "bruno": sheet("Bruno", bubble)})
    fight.hit("Escudo mental", [], attacker="bruno")
    view = fight.ruleset.view(fight.state)["participants"]["bruno"]
    assert view["mental_shield"] == 120
    (effect,) = view["effects"]
    assert set(effect) == {"effect_id", "kind", "type", "amount", "actions_left", "source", "limb"}
    assert (effect["kind"], effect["source"]) == ("shield", "bruno")


def test_regeneration_effect_at_the_end_of_own_turn() -> None:
    heal = support("Regenerar", effects=[{"kind": "regeneration", "amount": 30, "actions": 4}])
    fight = Fight({"ana": sheet("Ana", attack(damage=100)), "bruno": sheet("Bruno", heal)})
    fight.hit("Golpe", ["bruno"])
    fight.hit("Regenerar", [], attacker="bruno")
    fight.end_turn("ana")
    assert fight.vit("bruno") == 900
    fight.end_turn("bruno")
    assert fight.vit("bruno") == 930
