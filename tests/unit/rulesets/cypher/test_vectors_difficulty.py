"""docs/rules.md 5.2 T001-14 .. T001-19: distances, the long move, and every step modifier
(seed 001 DISTANCIA, COBERTURA, POSICIÓN, SORPRESA, ALCANCE, ILUMINACIÓN, AGUA, MOVIMIENTO)."""

from __future__ import annotations

from typing import Any

import pytest

from services.resolution.domain.cypher import attempt, resolve
from shared.dice.purpose import RollPurpose
from shared.errors import RuleViolation
from shared.rulesets.cypher import difficulty as dif
from shared.rulesets.cypher.actions import Circumstances, CypherMove
from shared.rulesets.cypher.sheet import Attack, CypherSheet
from tests.unit.turns.cypher.kit import Fixed, condition, pc

SWORD = Attack(name="Espada", damage=4, kind="melee", weapon="slashing")
SPEAR = Attack(name="Lanza", damage=4, kind="melee", weapon="piercing")
BOW = Attack(name="Arco", damage=4, kind="ranged", range="long", ranged_kind="bow")
GUN = Attack(name="Arpón", damage=4, kind="ranged", range="long", ranged_kind="firearm")


def sheet(**fields: Any) -> CypherSheet:
    return CypherSheet.model_validate(pc("Ana", **fields))


def at_3(attack: Attack, *, who: CypherSheet | None = None, literal: bool = False, **c: Any) -> int:
    steps = dif.attack_steps(who or sheet(), attack, Circumstances(**c), literal_low_light=literal)
    return dif.difficulty(3, steps)


def test_t001_14_long_move_is_a_speed_roll_at_4() -> None:
    """001 DISTANCIA (long move), B-21: difficulty 4 (TN 12); rough terrain +1: 5 (TN 15)."""
    conds = {"ana": condition(pc("Ana"))}
    plain = CypherMove(type="cypher.move", actor="ana", distance="long")
    rough = CypherMove(type="cypher.move", actor="ana", distance="long", terrain_steps=1)
    first = resolve.resolve_long_move(plain, conds, Fixed(12)).payload
    second = resolve.resolve_long_move(rough, conds, Fixed(12)).payload
    assert (first["difficulty"], first["target_number"], first["success"]) == (4, 12, True)
    assert (second["difficulty"], second["target_number"], second["success"]) == (5, 15, False)


@pytest.mark.parametrize(
    ("metres", "category"),
    [
        pytest.param(3, "immediate", id="T001-15-3m"),
        pytest.param(3.5, "short", id="T001-15-3.5m"),
        pytest.param(14, "short", id="T001-15-14m"),
        pytest.param(15, "long", id="T001-15-15m"),
        pytest.param(29, "long", id="T001-15-29m"),
        pytest.param(150, "beyond", id="T001-15-150m"),
    ],
)
def test_t001_15_range_categories_b16(metres: float, category: str) -> None:
    """001 DISTANCIA, B-16: immediate <= 3 m; short < 15 m; long < 30 m; beyond: a measure."""
    assert dif.range_category(metres) == category


@pytest.mark.parametrize(
    ("attack", "circumstances", "expected"),
    [
        pytest.param(SWORD, {"target_prone": True}, 2, id="T001-17-melee-vs-prone"),
        pytest.param(BOW, {"distance_m": 10, "target_prone": True}, 4, id="T001-17-ranged-prone"),
        pytest.param(SWORD, {"cover": "partial"}, 4, id="T001-17-partial-cover"),
        pytest.param(SWORD, {"surprise": "unaware"}, 1, id="T001-17-unaware"),
        pytest.param(SWORD, {"surprise": "on_guard"}, 2, id="T001-17-on-guard"),
        pytest.param(BOW, {"distance_m": 2}, 2, id="T001-17-point-blank"),
        pytest.param(BOW, {"distance_m": 20, "extreme_range": True}, 4, id="T001-17-extreme"),
        pytest.param(SWORD, {"target_elevated": True}, 4, id="T001-17-defender-elevated"),
        pytest.param(SWORD, {"attacker_elevated": True}, 2, id="T001-17-attacker-elevated"),
    ],
)
def test_t001_17_step_modifiers_b13_b14(
    attack: Attack, circumstances: dict[str, Any], expected: int
) -> None:
    """001 POSICIÓN, COBERTURA, SORPRESA, ALCANCE with a base difficulty of 3."""
    assert at_3(attack, **circumstances) == expected


def test_t001_17_full_cover_cannot_be_attacked() -> None:
    """001 COBERTURA (full): E_TARGET_FULL_COVER, unless the attack goes through cover."""
    with pytest.raises(RuleViolation) as refused:
        at_3(SWORD, cover="full")
    assert refused.value.code == "target_full_cover"
    through = SWORD.model_copy(update={"pierces_cover": True})
    assert at_3(through, cover="full") == 3


TRAINED = sheet(skills=[{"name": "low_light", "level": "trained"}])
SPECIALIZED = sheet(skills=[{"name": "combatir con poca luz", "level": "specialized"}])


@pytest.mark.parametrize(
    ("who", "circumstances", "expected"),
    [
        pytest.param(None, {"lighting": "dim"}, 4, id="T001-18-dim-untrained"),
        pytest.param(TRAINED, {"lighting": "dim"}, 3, id="T001-18-dim-trained"),
        pytest.param(None, {"lighting": "very_dim"}, 4, id="T001-18-very-dim-imm-untrained"),
        pytest.param(TRAINED, {"lighting": "very_dim"}, 3, id="T001-18-very-dim-imm-trained"),
        pytest.param(SPECIALIZED, {"lighting": "very_dim"}, 3, id="T001-18-very-dim-imm-spec"),
        pytest.param(None, {"lighting": "very_dim", "distance_m": 10}, 5, id="T001-18-vd-short"),
        pytest.param(
            TRAINED, {"lighting": "very_dim", "distance_m": 10}, 4, id="T001-18-vd-short-trained"
        ),
        pytest.param(
            SPECIALIZED, {"lighting": "very_dim", "distance_m": 10}, 3, id="T001-18-vd-short-spec"
        ),
        pytest.param(
            None, {"lighting": "darkness", "located_by_senses": True}, 7, id="T001-18-dark"
        ),
        pytest.param(
            TRAINED,
            {"lighting": "darkness", "located_by_senses": True},
            6,
            id="T001-18-dark-trained",
        ),
        pytest.param(
            SPECIALIZED,
            {"lighting": "darkness", "located_by_senses": True},
            5,
            id="T001-18-dark-spec",
        ),
        pytest.param(
            None, {"lighting": "darkness", "xp_spent": True}, 7, id="T001-18-dark-1xp-B12"
        ),
    ],
)
def test_t001_18_lighting_b12_b23(
    who: CypherSheet | None, circumstances: dict[str, Any], expected: int
) -> None:
    """001 ILUMINACIÓN: a bow (so that short range is in reach) or a sword at immediate range."""
    attack = BOW if circumstances.get("distance_m", 1) > 3 else SWORD
    assert at_3(attack, who=who, **circumstances) == expected


def test_t001_18_very_dim_specialized_literal_reading_b23() -> None:
    """B-23 (config literal): very dim at immediate, specialized: 3 + 1 - 2 = 2."""
    assert at_3(SWORD, who=SPECIALIZED, literal=True, lighting="very_dim") == 2


def test_t001_18_darkness_not_located_misses_with_no_roll_b12() -> None:
    """001 ILUMINACIÓN (oscuridad): not located and no XP spent: an automatic miss."""
    assert dif.automatic_miss(Circumstances(lighting="darkness"))
    assert not dif.automatic_miss(Circumstances(lighting="darkness", xp_spent=True))


AQUATIC = sheet(aquatic=True)
RIDER = sheet(skills=[{"name": "riding"}])


@pytest.mark.parametrize(
    ("attack", "who", "circumstances", "expected"),
    [
        pytest.param(SWORD, None, {"water": "deep"}, 4, id="T001-19-chest-deep"),
        pytest.param(SWORD, None, {"water": "submerged"}, 5, id="T001-19-underwater-slashing"),
        pytest.param(SPEAR, None, {"water": "submerged"}, 4, id="T001-19-underwater-piercing"),
        pytest.param(GUN, None, {"water": "submerged", "distance_m": 10}, 4, id="T001-19-ranged"),
        pytest.param(SWORD, None, {"target_moving_fast": True}, 4, id="T001-19-fast-target"),
        pytest.param(SWORD, None, {"attacker_mounted": True}, 4, id="T001-19-vehicle-untrained"),
        pytest.param(SWORD, RIDER, {"attacker_mounted": True}, 3, id="T001-19-vehicle-rider"),
        pytest.param(SWORD, None, {"off_balance": True}, 4, id="T001-19-off-balance"),
        pytest.param(SWORD, AQUATIC, {"water": "deep"}, 3, id="T001-19-aquatic-deep-water"),
        pytest.param(SWORD, None, {"water": "shallow"}, 3, id="AGUA-somera-no-modifier"),
    ],
)
def test_t001_19_water_and_movement(
    attack: Attack, who: CypherSheet | None, circumstances: dict[str, Any], expected: int
) -> None:
    """001 AGUA, MOVIMIENTO with a base difficulty of 3."""
    assert at_3(attack, who=who, **circumstances) == expected


@pytest.mark.parametrize(
    ("attack", "circumstances", "code"),
    [
        pytest.param(
            BOW,
            {"water": "submerged", "distance_m": 10},
            "attack_impossible_underwater",
            id="T001-19-underwater-bow",
        ),
        pytest.param(
            GUN,
            {"water": "submerged", "distance_m": 20},
            "out_of_range",
            id="T001-19-long-becomes-short",
        ),
        pytest.param(SWORD, {"distance_m": 4}, "out_of_range", id="ALCANCE-melee-B19"),
        pytest.param(BOW, {"distance_m": 150}, "out_of_range", id="DISTANCIA-beyond"),
    ],
)
def test_refused_attacks(attack: Attack, circumstances: dict[str, Any], code: str) -> None:
    """001 AGUA (ranged submerged), ALCANCE: refused before the roll."""
    with pytest.raises(RuleViolation) as refused:
        at_3(attack, **circumstances)
    assert refused.value.code == code


def test_melee_intellect_is_refused() -> None:
    """001 ATACAR (melee stat): Might or Speed; Intellect is E_INVALID_STAT_FOR_ATTACK."""
    assert dif.attack_stat(SWORD, None) == "might" and dif.attack_stat(BOW, None) == "speed"
    with pytest.raises(RuleViolation) as refused:
        dif.attack_stat(SWORD, "intellect")
    assert refused.value.code == "invalid_stat_for_attack"


@pytest.mark.parametrize(
    ("base", "steps", "effort", "expected"),
    [
        pytest.param(1, [dif.Step("x", -3, "")], 0, 0, id="B-14-floored-at-0"),
        pytest.param(9, [dif.Step("x", 4, "")], 0, 10, id="B-14-capped-at-10"),
        pytest.param(4, [], 2, 2, id="B-7-effort-lowers"),
    ],
)
def test_b14_stacking(base: int, steps: list[dif.Step], effort: int, expected: int) -> None:
    assert dif.difficulty(base, steps, effort=effort) == expected


@pytest.mark.parametrize(
    ("face", "difficulty", "success"),
    [
        pytest.param(9, 3, True, id="B-1-meets-TN-9"),
        pytest.param(8, 3, False, id="B-1-below-TN-9"),
    ],
)
def test_b1_target_number_is_three_times_difficulty(
    face: int, difficulty: int, success: bool
) -> None:
    shown, _ = attempt.check(
        difficulty, [], Fixed(face), RollPurpose.ACTION, dazed=False, effort=0, is_impaired=False
    )
    assert shown["target_number"] == 9 and shown["success"] is success


def test_difficulty_0_is_an_automatic_success_with_no_roll() -> None:
    """001 ACCIÓN (difficulty): most actions are difficulty 0, an automatic success."""
    shown, rolled = attempt.check(
        0, [], Fixed(), RollPurpose.ACTION, dazed=False, effort=0, is_impaired=False
    )
    assert shown["success"] and rolled is None and shown["automatic"] == "difficulty_0"
