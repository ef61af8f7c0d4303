"""docs/rules.md 5.2 T001-01 .. T001-08, T001-12: damage, Armor, the cascade, the track, Effort's
cost and recovery rolls (seed 001 DAÑO, ARMADURA, INDICADOR, RECUPERAR)."""

from __future__ import annotations

from typing import Any

import pytest

from services.resolution.domain.cypher import harm, resolve
from shared.rulesets.cypher.damage import (
    ARMOR_CATEGORIES,
    apply_damage,
    armor_applied,
    effect_of,
    effort_cost,
    recover,
    total_armor,
    track_name,
    track_step,
)
from shared.rulesets.cypher.sheet import CypherSheet, Pools
from tests.unit.turns.cypher.kit import Fixed, condition, pc


def pools(m: int, s: int, i: int) -> Pools:
    return Pools(might=m, speed=s, intellect=i)


@pytest.mark.parametrize(
    ("before", "amount", "kind", "after", "track"),
    [
        pytest.param(pools(5, 4, 6), 8, "might", pools(0, 1, 6), "impaired", id="T001-01"),
        pytest.param(pools(0, 1, 6), 3, "might", pools(0, 0, 4), "debilitated", id="T001-02"),
        pytest.param(pools(0, 0, 4), 5, "might", pools(0, 0, 0), "dead", id="T001-03"),
        pytest.param(pools(10, 4, 2), 5, "intellect", pools(7, 4, 0), "impaired", id="T001-04"),
    ],
)
def test_cascade_and_track_b4_b5_b6(
    before: Pools, amount: int, kind: str, after: Pools, track: str
) -> None:
    """001 DAÑO (cascade), B-4: Might -> Speed -> Intellect (Intellect overflow to Might);
    B-5 / B-6: one step per pool at 0, three = dead."""
    got, _ = apply_damage(before, amount, kind)
    assert got == after
    assert track_name(track_step(got, 0)) == track


def test_t001_04_intellect_damage_ignores_armor_3() -> None:
    """001 DAÑO (type kept), ARMADURA (ignored): 5 Intellect damage vs Armor 3 stays 5."""
    cond = condition(pc("Ana", might=10, speed=4, intellect=2, armor=3))
    shown = harm.take_damage(cond, 5, "intellect", ignores_armor=False)
    assert shown["damage"] == 5 and cond.pools == pools(7, 4, 0)
    assert cond.track_name == "impaired"


@pytest.mark.parametrize(
    ("armor", "damage", "kind", "dealt"),
    [
        pytest.param(ARMOR_CATEGORIES["medium"], 5, "might", 3, id="T001-05-medium"),
        pytest.param(ARMOR_CATEGORIES["heavy"], 2, "might", 0, id="T001-05-heavy-no-damage"),
        pytest.param(total_armor(2, 1, 1), 6, "might", 2, id="T001-06-stacked-hit"),
        pytest.param(4, 4, "speed", 4, id="T001-07-speed-ignores-armor"),
    ],
)
def test_armor(armor: int, damage: int, kind: str, dealt: int) -> None:
    """001 ARMADURA: damage - Armor, never below 0 (B-17); Speed / Intellect damage ignore it."""
    assert armor_applied(damage, armor, kind, ignores_armor=False) == dealt


def test_t001_05_t001_06_armor_categories_and_stacking() -> None:
    """001 ARMADURA: light 1, medium 2, heavy 3; chain mail 2 + ice 1 = 3; + field 1 = 4."""
    assert ARMOR_CATEGORIES == {"light": 1, "medium": 2, "heavy": 3}
    assert total_armor(2, 1) == 3 and total_armor(2, 1, 1) == 4


def test_t001_08_recovery_roll_and_cap() -> None:
    """001 RECUPERAR: rank 2, d6 = 4: 6 points to split, at most 1 into Might at 9/10."""
    sheet = pc("Ana", might=10, speed=10, intellect=10, tier=2)
    cond = condition(sheet, pools=pools(9, 5, 10))
    done = resolve.resolve_recover(
        "ana", ["might", "speed"], False, CypherSheet.model_validate(sheet), {"ana": cond}, Fixed(4)
    )
    shown: dict[str, Any] = done.payload["recovery"]
    assert shown["points"] == 6 and shown["applied"] == {"might": 1, "speed": 5}
    assert done.conditions["ana"].pools == pools(10, 10, 10)
    assert recover(pools(9, 0, 0), pools(10, 10, 10), 6, ["might"]).applied["might"] == 1


def test_t001_12_impaired_effort_costs_more_and_ignores_effects() -> None:
    """001 INDICADOR (lesionado), B-7: Effort level 2 costs 2 extra points; a natural 20 is
    no major effect for him."""
    assert effort_cost(2, 0, impaired=True) - effort_cost(2, 0, impaired=False) == 2
    assert effect_of(20, impaired=True) is None and effect_of(20, impaired=False) == "major"
    assert effect_of(19, impaired=False) == "minor"


def test_b5_restoring_a_pool_moves_back_up_the_track() -> None:
    """B-5: the step is the number of pools at 0 plus special-damage steps."""
    cond = condition(pc("Ana"), pools=pools(0, 3, 3))
    assert cond.track_name == "impaired"
    cond.pools = pools(2, 3, 3)
    cond.refresh()
    assert cond.track_name == "unhurt"
    cond.special_steps = 3
    cond.refresh()
    assert cond.status == "dead"
