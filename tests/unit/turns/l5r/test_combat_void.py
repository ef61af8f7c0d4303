"""Seed 004 in an in-memory combat: raises and Void on the roll (T004-01, -02, -05), Void
uses and wounds (T004-06 .. -10, C-3, C-9, C-10), Curso de combate (T004-13), combat
raises (T004-21 .. -23), riding (T004-28), complex actions after moving (T004-24, C-29)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.turns.l5r.session import Combat, attack, code, fighting, sheet, stance, wound


# --- raises and Void on the roll (T004-01, -02, -05) -------------------------------------
def test_t004_01_too_many_raises_on_an_attack() -> None:
    c, actor, foe = fighting()
    stance(c, actor)
    body = {"type": "l5r.attack", "actor": actor, "target": foe, "raises": {"damage": 4}}
    assert code(c, body) == "too_many_raises"  # max(Void 2, kenjutsu 3) = 3
    assert c.refused(body).rule == "l5r Aumentos (max)"


def test_t004_02_unskilled_attack_cannot_raise_and_does_not_explode() -> None:
    sheets = {"ana": sheet("Ana", skills={"kenjutsu": 0}), "bruno": sheet("Bruno", skills={})}
    c, actor, foe = fighting(sheets=sheets)
    stance(c, actor)
    body = {"type": "l5r.attack", "actor": actor, "target": foe, "raises": {"damage": 1}}
    assert code(c, body) == "unskilled_no_raises"
    assert attack(c, actor, foe)["roll"]["explode"] is False


def allies(**l5r: Any) -> Combat:
    """Ana against Bruno and Carla (allies on the defenders' side), in round 1."""
    c = Combat(defenders=["bruno", "carla"], l5r=l5r)
    c.ready_all()
    return c


def until_turn_of(c: Combat, *who: str) -> str:
    while c.actor not in who:
        stance(c, c.actor)
        c.act({"type": "l5r.pass", "actor": c.actor})
    return c.actor


def test_t004_05_one_void_use_per_roll_but_alentar_rides_apart() -> None:
    """T004-05 with ``persistencia_more_points`` off (the seed's reading is on: see
    test_persistencia_more_than_one_point)."""
    c = allies(persistencia_more_points=False)
    actor = until_turn_of(c, "bruno", "carla")
    partner = "carla" if actor == "bruno" else "bruno"
    stance(c, actor)
    body = {
        "type": "l5r.attack",
        "actor": actor,
        "target": "ana",
        "void": ["mejora_die", "persistencia"],
    }
    assert code(c, body) == "one_void_use_per_roll"
    c.act({"type": "l5r.void", "actor": actor, "use": "alentar", "partner": partner})
    assert c.p(partner)["alentar_bonus"] == 1 and c.p(actor)["void"] == 0
    c.act({"type": "l5r.pass", "actor": actor})
    until_turn_of(c, partner)
    stance(c, partner)
    request = attack(c, partner, "ana", void=["mejora_die"])
    assert request["roll"]["rolled"] == 3 + 3 + 2 and request["roll"]["kept"] == 3 + 2
    assert c.p(partner)["alentar_bonus"] == 0


def test_t004_09_alentar_cap_per_recipient() -> None:
    c = Combat(defenders=["bruno", "carla"], counters={"carla": {"alentar_received": 2}})
    c.ready_all()
    until_turn_of(c, "bruno")
    stance(c, "bruno")
    body = {"type": "l5r.void", "actor": "bruno", "use": "alentar", "partner": "carla"}
    assert code(c, body) == "alentar_cap"


def test_t004_10_cambiar_iniciativa() -> None:
    c = allies()
    c.p("bruno")["initiative"], c.p("carla")["initiative"] = 32, 18
    c.act({"type": "l5r.void", "actor": "bruno", "use": "cambiar_iniciativa", "partner": "carla"})
    assert c.p("bruno")["initiative"] == 32  # waits for the partner
    c.act({"type": "l5r.void", "actor": "carla", "use": "cambiar_iniciativa", "partner": "bruno"})
    assert (c.p("bruno")["initiative"], c.p("carla")["initiative"]) == (18, 32)
    assert c.p("bruno")["void"] == 1 and c.p("carla")["void"] == 1


def test_t004_10_swap_window_closes_after_the_first_attack() -> None:
    c = allies()
    actor = c.actor
    foe = "bruno" if actor == "ana" else "ana"
    stance(c, actor)
    attack(c, actor, foe)
    body = {"type": "l5r.void", "actor": "bruno", "use": "cambiar_iniciativa", "partner": "carla"}
    assert code(c, body) == "swap_window_closed"


# --- wounds and Void reactions (T004-07, -08), Curso de combate (T004-13) --------------------
def hit_until_wounded(c: Combat, actor: str, foe: str) -> dict[str, Any]:
    for _ in range(12):
        c.p(foe)["reflexes"] = 1  # TN 10: the hit is near certain
        events = c.act({"type": "l5r.attack", "actor": actor, "target": foe})
        done = next(e.payload for e in events if e.type == "action.resolved")
        if done["wounds_dealt"]:
            return done
        c.p(actor)["round"]["attacks"] = 0
    raise AssertionError("no hit")


def test_t004_07_wound_reduction_once_per_round() -> None:
    c, actor, foe = fighting()
    stance(c, actor)
    done = hit_until_wounded(c, actor, foe)
    c.act({"type": "l5r.void", "actor": foe, "use": "reduccion_heridas"})
    assert c.p(foe)["wounds"] == max(0, done["wounds_dealt"] - 10)
    body = {"type": "l5r.void", "actor": foe, "use": "reduccion_heridas"}
    assert code(c, body) == "once_per_round"


def test_t004_08_golpe_final_at_down_acts_once_then_falls() -> None:
    c, actor, foe = fighting()
    c.p(foe)["void"] = 3
    body = {"type": "l5r.void", "actor": foe, "use": "golpe_final"}
    assert code(c, body) == "not_fallen"
    wound(c, foe, 34)  # Down in the Earth 2 table
    assert c.p(foe)["status"] == "down"
    c.act(body)
    assert c.p(foe)["void"] == 0 and c.p(foe)["golpe_final"] == "pending"
    stance(c, actor)
    c.act({"type": "l5r.pass", "actor": actor})
    assert c.state["phase"] == "fighting" and c.actor == foe  # he acts before falling
    stance(c, foe)
    attack(c, foe, actor)
    assert c.p(foe)["golpe_final"] == "used"
    assert c.state["phase"] == "ended"


def test_t004_08_golpe_final_needs_five_when_dead() -> None:
    c, _actor, foe = fighting()
    wound(c, foe, 99)
    c.p(foe)["void"] = 4
    body = {"type": "l5r.void", "actor": foe, "use": "golpe_final"}
    assert code(c, body) == "not_enough_void"


def test_t004_13_curso_de_combate_at_the_round_end() -> None:
    c, actor, foe = fighting()
    before = {x: c.p(x)["initiative"] for x in (actor, foe)}
    c.p(foe)["wounded_since_turn"] = True
    stance(c, actor)
    c.act({"type": "l5r.pass", "actor": actor})
    stance(c, foe)
    c.p(foe)["wounded_since_turn"] = True  # wounded since his last turn
    c.act({"type": "l5r.pass", "actor": foe})
    tides = c.of_type("tide.rolled")
    assert [t["character"] for t in tides] == [actor]
    assert c.p(actor)["initiative"] == before[actor] + tides[0]["die"]
    assert c.state["round"] == 2


def test_t004_21_protect_gives_the_ally_a_tn_bonus() -> None:
    c = allies()
    until_turn_of(c, "bruno")
    stance(c, "bruno")
    c.p("ana")["reflexes"] = 1
    body = {
        "type": "l5r.attack",
        "actor": "bruno",
        "target": "ana",
        "raises": {"protect": {"ally": "carla", "raises": 3}},
    }
    done = next(e.payload for e in c.act(body) if e.type == "action.resolved")
    if done["success"]:
        assert c.p("carla")["protected"]["ana"] == {"bonus": 15, "round": 2, "by": "bruno"}
    else:
        assert c.p("carla")["protected"] == {}


def test_t004_22_second_extra_attack_attempt_refused() -> None:
    c, actor, foe = fighting(
        sheets={
            "ana": sheet("Ana", skills={"kenjutsu": 4}),
            "bruno": sheet("Bruno", skills={"kenjutsu": 4}),
        }
    )
    stance(c, actor)
    attack(c, actor, foe, raises={"extra_attack": True})
    body = {"type": "l5r.attack", "actor": actor, "target": foe, "raises": {"extra_attack": True}}
    assert code(c, body) == "extra_attack_limit"


def test_t004_23_feint_bonus_on_the_next_attack() -> None:
    c, actor, foe = fighting()
    c.p(actor)["feint"] = {foe: 1}
    stance(c, actor)
    request = attack(c, actor, foe, raises={"called_shot": "torso"})
    assert request["raises"]["free"] == {"feint": 1} and request["raises"]["paid"] == 0


def test_t004_28_mounted_without_horsemanship() -> None:
    sheets = {"ana": sheet("Ana", mounted=True), "bruno": sheet("Bruno", mounted=True)}
    c, actor, foe = fighting(sheets=sheets)
    assert code(c, {"type": "l5r.stance", "actor": actor, "stance": "full_attack"}) == (
        "action_not_allowed_in_stance"
    )
    stance(c, actor)
    assert code(c, {"type": "l5r.attack", "actor": actor, "target": foe}) == (
        "cannot_fight_mounted"
    )


@pytest.mark.parametrize("use", ["incremento_no"])
def test_t004_06_incremento_del_no_in_the_turn(use: str) -> None:
    c, actor, foe = fighting()
    stance(c, actor)
    c.act({"type": "l5r.void", "actor": actor, "use": use})
    assert c.p(actor)["tn_boost"] == 10
    c.act({"type": "l5r.pass", "actor": actor})
    stance(c, foe)
    request = attack(c, foe, actor)
    assert [s["step"] for s in request["tn_steps"]][:2] == ["base", "incremento_no"]


def test_t004_13_the_die_taken_from_an_opponent_he_hit() -> None:
    c, actor, foe = fighting()
    stance(c, actor)
    c.p(foe)["reflexes"] = 1
    done = next(
        e.payload
        for e in c.act({"type": "l5r.attack", "actor": actor, "target": foe})
        if e.type == "action.resolved"
    )
    c.act({"type": "l5r.tide", "actor": actor, "against": foe})
    c.p(foe)["initiative"] = 30
    c.act({"type": "l5r.pass", "actor": actor})
    stance(c, foe)
    c.act({"type": "l5r.pass", "actor": foe})
    tide = next(t for t in c.of_type("tide.rolled") if t["character"] == actor)
    if done["success"]:
        assert tide["applied_to"] == foe
        assert c.p(foe)["initiative"] >= 30 - tide["die"]  # his own die may add back
    else:
        assert tide["applied_to"] == actor


def test_c_9_the_extra_action_cannot_attack() -> None:
    c, actor, foe = fighting()
    stance(c, actor)
    attack(c, actor, foe)
    c.act({"type": "l5r.void", "actor": actor, "use": "obtener_accion"})
    body = {"type": "l5r.attack", "actor": actor, "target": foe}
    assert code(c, body) == "extra_action_cannot_attack"
    c.act({"type": "l5r.complex", "actor": actor, "description": "x"})
    c.act({"type": "l5r.simple", "actor": actor, "description": "free"})
    c.act({"type": "l5r.simple", "actor": actor, "description": "the extra action"})
    assert code(c, {"type": "l5r.simple", "actor": actor, "description": "z"}) == (
        "complex_action_limit"
    )


def test_c_10_reduction_brings_him_back_from_down() -> None:
    c, actor, foe = fighting()
    wound(c, foe, 30)
    stance(c, actor)
    c.p(foe)["reflexes"] = 1
    for _ in range(12):
        events = c.act({"type": "l5r.attack", "actor": actor, "target": foe})
        done = next(e.payload for e in events if e.type == "action.resolved")
        if done["wounds_dealt"]:
            break
        c.p(actor)["round"]["attacks"] = 0
    dealt = done["wounds_dealt"]
    c.act({"type": "l5r.void", "actor": foe, "use": "reduccion_heridas"})
    assert c.p(foe)["wounds"] == 30 + max(0, dealt - 10)
    if 30 + max(0, dealt - 10) <= 30:
        assert c.p(foe)["status"] == "active"


def test_c_3_a_moderator_grants_a_void_point() -> None:
    c, actor, _ = fighting()
    c.p(actor)["void"] = 0
    c.act({"type": "l5r.grant_void", "actor": actor, "character": actor}, moderator=True)
    assert c.p(actor)["void"] == 1
    body = {"type": "l5r.grant_void", "actor": actor, "character": actor}
    assert code(c, body) == "forbidden"


def test_t004_24_c_19_complex_action_after_a_half_move() -> None:
    c, actor, _ = fighting()
    stance(c, actor)
    c.act({"type": "l5r.move", "actor": actor, "meters": 2})
    body = {
        "type": "l5r.complex",
        "actor": actor,
        "description": "climb",
        "skill": "kenjutsu",
        "trait": "agility",
        "tn": 10,
    }
    done = next(e.payload for e in c.act(body) if e.type == "complex_action.taken")
    assert done["forced_raises"] == 1 and done["tn"] == 15 and done["raises_paid"] == 1


def test_c_29_unskilled_complex_action_cannot_follow_a_move() -> None:
    c, actor, _ = fighting()
    stance(c, actor)
    c.act({"type": "l5r.move", "actor": actor, "meters": 2})
    body = {
        "type": "l5r.complex",
        "actor": actor,
        "description": "sing",
        "skill": "perform",
        "trait": "awareness",
        "tn": 10,
    }
    assert code(c, body) == "unskilled_no_raises"


def test_t004_24_complex_action_after_more_than_half_a_move_is_refused() -> None:
    c, actor, _ = fighting()
    stance(c, actor)
    c.act({"type": "l5r.move", "actor": actor, "meters": 4})  # Water 2: half is 3 m
    body = {"type": "l5r.complex", "actor": actor, "description": "x"}
    assert code(c, body) == "complex_after_full_move"


def test_full_defense_roll_loses_the_wound_penalty() -> None:
    c, actor, _ = fighting()
    wound(c, actor, 15)  # Grazed: penalty 5 (Earth 2 table)
    stance(c, actor, "full_defense")
    roll = next(r for r in c.of_type("dice.rolled") if r["purpose"] == "full_defense")
    assert c.p(actor)["full_defense"]["bonus"] == max(0, roll["total"] - 5)


def test_paso_3_fleeing_leaves_the_side_beaten() -> None:
    c, actor, foe = fighting()
    c.act({"type": "l5r.flee", "actor": foe})
    ended = c.of_type("combat.ended")[0]
    assert ended["reason"] == "fled" and ended["winner"] == c.p(actor)["side"]
    assert ended["participants"][foe]["status"] == "fled"
