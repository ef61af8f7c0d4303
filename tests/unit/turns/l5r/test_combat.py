"""Seed 004 through a whole in-memory combat (services/turns + services/resolution): the
order of play (Paso 1 - 3, C-11 .. C-13), actions per round (C-18) and stances (T004-14 ..
-17, -24, -25, -27)."""

from __future__ import annotations

from services.turns.domain.l5r.flow import round_order
from services.turns.domain.l5r.state import L5rCombat
from services.turns.domain.l5r.view import view
from tests.unit.turns.l5r.session import Combat, attack, code, fighting, sheet, stance, wound


# --- Paso 1 - 3 -------------------------------------------------------------------------
def test_paso_1_initiative_is_rolled_once_when_everyone_is_ready() -> None:
    c = Combat()
    assert c.state["phase"] == "preparation"
    c.ready_all()
    rolls = [r for r in c.of_type("dice.rolled") if r["purpose"] == "initiative"]
    assert [r["spec"] for r in rolls] == ["5k3", "5k3"]
    assert c.state["phase"] == "fighting" and c.state["round"] == 1
    assert c.state["order"][0] == max(c.state["participants"], key=lambda x: c.p(x)["initiative"])


def test_paso_1_preparation_timer_rolls_initiative() -> None:
    c = Combat()
    c.fire("preparation")
    assert c.state["phase"] == "fighting"


def test_t004_11_velocidad_before_initiative() -> None:
    c = Combat()
    c.act({"type": "l5r.void", "actor": "ana", "use": "velocidad"})
    assert c.p("ana")["void"] == 0
    c.ready_all()
    rolls = c.of_type("dice.rolled")
    spec = next(r["spec"] for r in rolls if r["purpose"] == "initiative" and r["roller"] == "ana")
    assert spec == "6k4"
    assert code(c, {"type": "l5r.void", "actor": c.actor, "use": "velocidad"}) == (
        "initiative_already_rolled"
    )


def test_paso_2_stance_comes_first_and_only_the_actor_acts() -> None:
    c, actor, foe = fighting()
    assert code(c, {"type": "l5r.attack", "actor": actor, "target": foe}) == "stance_not_declared"
    assert code(c, {"type": "l5r.stance", "actor": foe, "stance": "attack"}) == "not_your_turn"
    stance(c, actor)
    assert code(c, {"type": "l5r.stance", "actor": actor, "stance": "attack"}) == (
        "stance_already_declared"
    )


def test_w2_turn_timer_passes_the_turn() -> None:
    c, actor, foe = fighting()
    c.fire("turn")
    assert c.of_type("turn.timed_out")[0]["actor"] == actor and c.actor == foe


def test_paso_3_a_side_down_ends_the_combat() -> None:
    c, actor, foe = fighting()
    c.p(foe)["wounds"] = 33  # one short of Down's threshold 34 in the default table
    c.p(foe)["rank"] = "crippled"
    stance(c, actor)
    for _ in range(6):
        if c.state["phase"] == "ended":
            break
        if c.actor == actor:
            attack(c, actor, foe)
            c.act({"type": "l5r.pass", "actor": actor})
        else:
            c.act({"type": "l5r.pass", "actor": c.actor})
            if c.state["phase"] != "ended":
                stance(c, c.actor)
    assert c.state["phase"] == "ended"
    ended = c.of_type("combat.ended")[0]
    assert ended["winner"] == c.p(actor)["side"] and ended["reason"] == "defeat"
    assert ended["l5r"][foe]["wound_rank"] in ("down", "out", "dead")


def test_annulment_by_a_moderator() -> None:
    c, actor, _ = fighting()
    c.act({"type": "annul", "actor": actor, "reason": "test"}, moderator=True)
    assert c.of_type("combat.ended")[0]["reason"] == "annulled"


def test_c_11_ties_are_broken_by_reflexes() -> None:
    c = Combat({"ana": sheet("Ana"), "bruno": sheet("Bruno", traits={"reflexes": 4})})
    c.ready_all()
    c.p("ana")["initiative"] = c.p("bruno")["initiative"] = 20
    assert round_order(L5rCombat.parse(c.state)) == ["bruno", "ana"]


def test_t004_12_c_13_wound_penalty_recomputed_on_initiative() -> None:
    c, _actor, foe = fighting()
    c.p(foe)["initiative"] = 30
    wound(c, foe, 23)  # Injured: penalty 15 in the Earth 2 table
    assert view(L5rCombat.parse(c.state))["participants"][foe]["initiative"] == 15


# --- actions per round (C-18), stances (T004-14 .. -17, -24, -25, -27) -----------------------
def test_c_18_first_simple_free_second_takes_the_complex_slot() -> None:
    c, actor, _ = fighting()
    stance(c, actor)
    for _ in range(2):
        c.act({"type": "l5r.simple", "actor": actor, "description": "draw"})
    body = {"type": "l5r.simple", "actor": actor, "description": "again"}
    assert code(c, body) == "complex_action_limit"


def test_c_18_one_movement_per_round() -> None:
    c, actor, _ = fighting()
    stance(c, actor)
    c.act({"type": "l5r.move", "actor": actor, "meters": 2})
    assert code(c, {"type": "l5r.move", "actor": actor, "meters": 2}) == "movement_limit"


def test_t004_14_full_attack_free_raises_and_no_ranged() -> None:
    c, actor, foe = fighting()
    stance(c, actor, "full_attack")
    body = {"type": "l5r.attack", "actor": actor, "target": foe, "kind": "ranged"}
    assert code(c, body) == "action_not_allowed_in_stance"
    request = attack(c, actor, foe, raises={"damage": 1})
    assert request["raises"]["free"] == {"full_attack": 2}
    assert request["raises"]["paid"] == 0


def test_t004_14_enemies_of_a_full_attacker_get_three_free_raises() -> None:
    c, actor, foe = fighting()
    c.p(foe)["stance"] = "full_attack"
    stance(c, actor)
    request = attack(c, actor, foe, raises={"knockdown": True})
    assert request["raises"]["free"] == {"enemy_full_attack": 3} and request["raises"]["paid"] == 0


def test_t004_15_full_defense_roll_and_losing_it_by_moving() -> None:
    c, actor, _ = fighting()
    stance(c, actor, "full_defense")
    fd = c.p(actor)["full_defense"]
    roll = next(r for r in c.of_type("dice.rolled") if r["purpose"] == "full_defense")
    assert roll["spec"] == "5k3" and fd["bonus"] == roll["total"]
    c.act({"type": "l5r.move", "actor": actor, "meters": 3})  # Water 2: half is 3 m
    assert not c.p(actor)["full_defense"]["lost"]


def test_t004_16_c_16_full_defense_more_than_half_loses_the_bonus() -> None:
    c, actor, _ = fighting()
    stance(c, actor, "full_defense")
    c.act({"type": "l5r.move", "actor": actor, "meters": 4})
    assert c.p(actor)["full_defense"]["lost"]


def test_t004_16_running_is_the_whole_turn() -> None:
    c, actor, foe = fighting()
    stance(c, actor)
    body = {"type": "l5r.move", "actor": actor, "mode": "run", "meters": 19}
    assert code(c, body) == "movement_exceeded"  # Water 2 x 9 = 18 m
    c.act({**body, "meters": 18})
    assert code(c, {"type": "l5r.attack", "actor": actor, "target": foe}) == (
        "no_other_action_while_running"
    )


def test_t004_17_concentration_lost_when_the_target_moves() -> None:
    c, actor, foe = fighting()
    stance(c, actor)
    c.act({"type": "l5r.concentrate", "actor": actor, "target": foe})
    assert c.p(actor)["concentration"] == {"target": foe, "rounds": 1}
    c.act({"type": "l5r.pass", "actor": actor})
    stance(c, foe)
    c.act({"type": "l5r.move", "actor": foe, "meters": 1})
    assert c.p(actor)["concentration"] is None


def test_t004_17_concentration_gives_damage_raises() -> None:
    c, actor, foe = fighting()
    stance(c, actor)
    c.p(actor)["concentration"] = {"target": foe, "rounds": 2}
    request = attack(c, actor, foe)
    assert request["raises"]["damage_raises"] == 2 and request["damage"] == {"rolled": 4, "kept": 3}


def test_t004_24_melee_after_moving_in_attack_stance_forces_a_raise() -> None:
    c, actor, foe = fighting()
    stance(c, actor)
    c.act({"type": "l5r.move", "actor": actor, "meters": 2})
    request = attack(c, actor, foe)
    assert request["raises"]["forced"] == 1 and request["tn"] == 25  # 3 x 5 + 5, +5 forced


def test_t004_24_none_in_full_attack() -> None:
    c, actor, foe = fighting()
    stance(c, actor, "full_attack")
    c.act({"type": "l5r.move", "actor": actor, "meters": 2})
    assert attack(c, actor, foe)["raises"]["forced"] == 0


def test_t004_25_prone_standing_is_the_action() -> None:
    c, actor, foe = fighting()
    c.p(actor)["prone"] = True
    stance(c, actor)
    assert code(c, {"type": "l5r.attack", "actor": actor, "target": foe}) == "prone"
    c.act({"type": "l5r.stand_up", "actor": actor})
    assert not c.p(actor)["prone"]
    assert code(c, {"type": "l5r.attack", "actor": actor, "target": foe}) == "attack_limit"


def test_t004_25_c_31_prone_in_full_attack_stands_and_attacks_with_two_raises() -> None:
    c, actor, foe = fighting()
    c.p(actor)["prone"] = True
    stance(c, actor, "full_attack")
    request = attack(c, actor, foe, stand_up=True)
    assert request["raises"]["forced"] == 2


def test_t004_27_melee_and_complex_refused_in_full_defense() -> None:
    c, actor, foe = fighting()
    stance(c, actor, "full_defense")
    body = {"type": "l5r.attack", "actor": actor, "target": foe}
    assert code(c, body) == "action_not_allowed_in_stance"
    assert code(c, {"type": "l5r.complex", "actor": actor, "description": "x"}) == (
        "action_not_allowed_in_stance"
    )
    c.act({"type": "l5r.speak", "actor": actor, "text": "¡Ja!"})


def test_c7_a_healthy_rank_with_a_penalty_counts_from_the_start() -> None:
    """C-7 / 004 Paso 1: the sheet's wound table is read at the start: a Healthy rank that
    carries a penalty lowers rolls and initiative before the first wound."""
    names = ("healthy", "nicked", "grazed", "hurt", "injured", "crippled", "down", "out")
    table = [
        {"name": name, "up_to": 10 * (i + 1), "penalty": 3 + 5 * i} for i, name in enumerate(names)
    ]
    c = Combat({"ana": sheet("Ana", wounds=table), "bruno": sheet("Bruno")})
    ana = c.p("ana")
    assert (ana["wounds"], ana["rank"], ana["penalty"]) == (0, "healthy", 3)
    assert (c.p("bruno")["rank"], c.p("bruno")["penalty"]) == ("healthy", 0)
