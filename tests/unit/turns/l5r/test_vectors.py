"""docs/rules.md 5.3: every test vector of document 004 (T004-01 .. T004-28) on the pure rules,
with scripted dice where a roll matters. Flows through a whole combat: test_combat.py."""

from __future__ import annotations

from typing import Any

import pytest

from services.resolution.domain.l5r.request import AttackDice, StrikeRequest
from services.resolution.domain.l5r.strike import attack_roll, knocked_down, strike
from services.states.domain.l5r.record import L5rRecord
from services.states.domain.l5r.void import DAY_MS, regained, void_now
from services.turns.domain.l5r import rules
from services.turns.domain.l5r.complex import forced_raise
from services.turns.domain.l5r.fighter import FullDefense
from shared.dice.purpose import RollPurpose
from shared.errors import RuleViolation
from shared.rulesets.l5r.actions import CombatRaises

ATTACK = RollPurpose.ATTACK


class Faces:
    """A stream that shows the faces it is given, in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, sides: int) -> int:
        return self.faces.pop(0)


def code_of(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value.code


def declared(**raises: Any) -> CombatRaises:
    return CombatRaises.model_validate(raises)


FA = rules.FreeRaise("full_attack", 2, rules.FULL_ATTACK_OWN)


@pytest.mark.parametrize(
    ("void", "skill", "expected"),
    [
        pytest.param(3, 2, 3, id="T004-01 void 3 skill 2: max 3"),
        pytest.param(2, 4, 4, id="T004-01 void 2 skill 4: max 4"),
    ],
)
def test_t004_01_raise_max(void: int, skill: int, expected: int) -> None:
    assert rules.raise_max(void, skill) == expected


def test_t004_01_five_raises_over_max_four_are_refused() -> None:
    assert code_of(rules.check_paid_raises, 5, 4, skilled=True) == "too_many_raises"


def test_t004_01_free_raises_from_full_attack_do_not_count() -> None:
    plan = rules.plan_raises(declared(damage=6), [FA], forced=0)
    assert plan.paid == 4 and plan.damage_raises == 6
    rules.check_paid_raises(plan.paid, 4, skilled=True)


def test_t004_02_unskilled_tens_do_not_explode_and_raises_are_refused() -> None:
    rolled, total = attack_roll(
        AttackDice(rolled=3, kept=3, explode=False), Faces(10, 4, 2), ATTACK
    )
    assert rolled.dice == [[10], [4], [2]] and total == 16
    skilled, _ = attack_roll(AttackDice(rolled=1, kept=1, explode=True), Faces(10, 3), ATTACK)
    assert skilled.dice == [[10, 3]]
    assert code_of(rules.check_paid_raises, 1, 3, skilled=False) == "unskilled_no_raises"


@pytest.mark.parametrize(
    ("void", "ring", "days", "expected"),
    [
        pytest.param(1, 3, 1, 2, id="T004-03 ring 3 at 1, a day: 2"),
        pytest.param(2, 3, 5, 3, id="T004-03 capped at the ring"),
    ],
)
def test_t004_03_void_pool_regains_one_a_day(
    void: int, ring: int, days: int, expected: int
) -> None:
    assert regained(void, ring, days) == expected
    record = L5rRecord(void_points=void, void_max=ring, void_at_ms=0)
    assert void_now(record, days * DAY_MS) == expected


def test_t004_04_void_costs() -> None:
    assert rules.VOID_COSTS == {
        "mejora_die": 1,
        "mejora_rank": 1,
        "mejora_raise": 1,
        "alentar": 2,
        "cambiar_iniciativa": 1,
        "golpe_final": 3,
        "golpe_final_dead": 5,
        "incremento_no": 1,
        "obtener_accion": 2,
        "persistencia": 1,
        "reduccion_heridas": 1,
        "velocidad": 2,
    }


def test_t004_05_one_void_use_per_roll() -> None:
    """T004-05 as docs/rules.md has it: the reading with ``persistencia_more_points`` off."""
    uses = ["mejora_die", "persistencia"]
    code = code_of(rules.check_void_on_roll, uses, persistencia_more_points=False)
    assert code == "one_void_use_per_roll"
    rules.check_void_on_roll(["mejora_die"])  # Alentar's point rides apart (test_combat)


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        pytest.param({"boost": 10}, 30, id="T004-06 TN 20 + Incremento del NO: 30"),
        pytest.param({"boost": 10, "full_defense": 18}, 48, id="T004-06 with Full Defense 18: 48"),
    ],
)
def test_t004_06_incremento_del_no(kwargs: dict[str, int], expected: int) -> None:
    assert rules.tn_to_be_hit(20, **kwargs)[-1]["tn"] == expected


@pytest.mark.parametrize(
    ("wounds", "expected"),
    [
        pytest.param(27, 17, id="T004-07 27 wounds: 17"),
        pytest.param(8, 0, id="T004-07 8 wounds: 0 (floored)"),
    ],
)
def test_t004_07_wound_reduction(wounds: int, expected: int) -> None:
    assert rules.reduce_wounds(wounds) == expected


def test_t004_08_golpe_final_costs() -> None:
    assert rules.golpe_final_cost("down") == 3 and rules.golpe_final_cost("out") == 3
    assert rules.golpe_final_cost("dead") == 5
    assert code_of(rules.check_void, 4, rules.golpe_final_cost("dead"), "golpe_final") == (
        "not_enough_void"
    )
    assert code_of(rules.golpe_final_cost, "hurt") == "not_fallen"


def test_t004_09_alentar_cap() -> None:
    rules.check_alentar(1, 2)
    assert code_of(rules.check_alentar, 2, 2) == "alentar_cap"


def test_t004_11_initiative_and_velocidad() -> None:
    assert str(rules.initiative_spec(2, 3, velocidad=False)) == "5k3"
    assert str(rules.initiative_spec(2, 3, velocidad=True)) == "6k4"


def test_t004_12_wound_penalty_on_initiative() -> None:
    assert rules.effective_initiative(30, 10) == 20
    assert rules.effective_initiative(5, 10) == 0


def test_t004_13_curso_de_combate() -> None:
    assert rules.apply_tide(25, 7) == (32, None)
    assert rules.apply_tide(25, 7, against=30) == (25, 23)
    die = rules.tide_roll(Faces(10, 10))
    assert die.dice == [[10]] and die.total == 10  # not rerollable


def test_t004_14_full_attack_free_raises() -> None:
    own = rules.plan_raises(declared(damage=0), [FA], forced=0)
    assert own.tn_lowered == 2 and own.paid == 0  # TN or damage only
    feint_bought = rules.plan_raises(declared(feint=True), [FA], forced=0)
    assert feint_bought.paid == 1  # Full Attack's raises cannot buy a feint
    enemy = rules.FreeRaise("enemy_full_attack", 3, rules.ANY)
    any_use = rules.plan_raises(declared(knockdown=True), [enemy], forced=0)
    assert any_use.paid == 0
    assert code_of(rules.check_allowed, "full_attack", "ranged") == "action_not_allowed_in_stance"


def test_t004_15_full_defense_covers_insight_rank_opponents() -> None:
    fd = FullDefense(bonus=17, opponents=[], lost=False)
    covered = [rules.full_defense_covers(fd, who, 2) for who in ("a", "b", "c", "a")]
    assert covered == [True, True, False, True]
    tns = [rules.tn_to_be_hit(25, full_defense=17 if c else 0)[-1]["tn"] for c in covered[:3]]
    assert tns == [42, 42, 25]
    fd.lost = True
    assert not rules.full_defense_covers(fd, "a", 2)


def test_t004_16_move_and_run() -> None:
    assert rules.move_limit(3, "move", "attack") == (9.0, 4.5)
    assert rules.move_limit(3, "run", "attack")[0] == 27.0
    assert rules.move_limit(3, "move", "full_defense")[1] == 4.5


def test_t004_17_concentration() -> None:
    rounds = 0
    for _ in range(3):
        rounds = rules.concentration_rounds(rounds, 2)
    assert rounds == 2
    plan = rules.plan_raises(
        declared(damage=0), [rules.FreeRaise("concentration", 2, rules.DAMAGE_ONLY)], forced=0
    )
    assert plan.damage_raises == 2 and plan.tn_lowered == 0


@pytest.mark.parametrize(
    ("total", "down"),
    [
        pytest.param(26, True, id="T004-18 26 > 25: knocked down"),
        pytest.param(25, False, id="T004-18 25: not (strictly greater)"),
    ],
)
def test_t004_18_knockdown(total: int, down: bool) -> None:
    assert knocked_down(total, 3, 2) is down


@pytest.mark.parametrize(
    ("location", "raises"),
    [
        pytest.param("torso", 1, id="T004-19 torso 1"),
        pytest.param("arm", 2, id="T004-19 arm 2"),
        pytest.param("leg", 2, id="T004-19 leg 2"),
        pytest.param("head", 3, id="T004-19 head 3"),
    ],
)
def test_t004_19_called_shot(location: str, raises: int) -> None:
    assert rules.effect_cost(declared(called_shot=location)) == raises


@pytest.mark.parametrize(
    ("raises", "bonus"),
    [
        pytest.param(1, (1, 0), id="T004-20 1 raise +1k0"),
        pytest.param(2, (1, 1), id="T004-20 2 raises +1k1"),
        pytest.param(3, (2, 1), id="T004-20 3 raises +2k1 (C-24)"),
    ],
)
def test_t004_20_damage_raises(raises: int, bonus: tuple[int, int]) -> None:
    assert rules.damage_bonus(raises) == bonus


def test_t004_21_protect_keeps_the_most_raises() -> None:
    first = rules.protect_bonus(0, 3)
    assert first == 15 and rules.protect_bonus(first, 1) == 15


def request(**raises: Any) -> dict[str, Any]:
    return {
        "action_id": "a_1",
        "attacker": "ana",
        "target": "bruno",
        "tn": 15,
        "roll": {"rolled": 2, "kept": 2, "explode": True, "penalty": 0},
        "raises": {"damage_raises": 0, **raises},
        "damage": {"rolled": 1, "kept": 1},
        "target_state": {
            "wounds": 0,
            "earth": 2,
            "insight": 1,
            "strength": 2,
            "weapon_rank": 1,
            "wound_table": [
                {"name": "healthy", "up_to": 10, "penalty": 0},
                {"name": "out", "up_to": 20, "penalty": 40},
            ],
        },
    }


@pytest.mark.parametrize(
    ("faces", "hits"),
    [
        pytest.param((9, 9, 4, 5), 2, id="T004-22 4 raises, success: 2 hits"),
        pytest.param((2, 3), 0, id="T004-22 failure: 0 hits"),
    ],
)
def test_t004_22_extra_attack(faces: tuple[int, ...], hits: int) -> None:
    struck = strike(StrikeRequest.model_validate(request(extra_attack=True)), Faces(*faces))
    assert struck.payload["hits"] == hits
    assert struck.payload["damage"] == list(faces[2 : 2 + hits])


def test_t004_23_feint_deals_no_damage() -> None:
    struck = strike(StrikeRequest.model_validate(request(feint=True)), Faces(9, 9))
    assert struck.payload["success"] and struck.payload["feint"]
    assert struck.payload["wounds_dealt"] == 0 and len(struck.rolls) == 1


def test_t004_24_forced_raises() -> None:
    assert forced_raise(1.0, 3) == 1 and forced_raise(0.0, 3) == 0
    assert code_of(forced_raise, 5.0, 3) == "complex_after_full_move"


def test_t004_26_raise_value() -> None:
    plan = rules.plan_raises(declared(lower_tn=2), [], forced=0)
    assert 20 + rules.RAISE_TN * plan.paid == 30


@pytest.mark.parametrize(
    ("stance", "action", "allowed"),
    [
        pytest.param("full_defense", "complex", False, id="T004-27 complex in Full Defense"),
        pytest.param("full_defense", "melee", False, id="T004-27 melee in Full Defense"),
        pytest.param("attack", "speak", True, id="T004-27 speak in Attack"),
        pytest.param("full_attack", "speak", True, id="T004-27 speak in Full Attack"),
        pytest.param("full_defense", "speak", True, id="T004-27 speak in Full Defense"),
        pytest.param("full_attack", "special", False, id="T004-27 special in Full Attack"),
        pytest.param("full_attack", "melee", True, id="C-30 melee in Full Attack"),
        pytest.param("full_attack", "ride", False, id="T004-27 ride in Full Attack"),
    ],
)
def test_t004_27_stance_matrix(stance: str, action: str, allowed: bool) -> None:
    if allowed:
        rules.check_allowed(stance, action)
    else:
        assert code_of(rules.check_allowed, stance, action) == "action_not_allowed_in_stance"


def test_t004_28_riding_stances() -> None:
    assert not rules.mounted_stance_allowed("full_attack", 0, 0, 3)
    assert rules.mounted_stance_allowed("full_attack", 0, 1, 3)  # a technique
    assert rules.mounted_stance_allowed("attack", 0, 0, 3)
