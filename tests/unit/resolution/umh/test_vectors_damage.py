"""docs/rules.md 5.1 vectors of the damage side (umh 7 - 9), through resolution.requested: the
table of single hits."""

from __future__ import annotations

import pytest

from tests.unit.resolution.umh.kit import (
    BLOCK,
    DODGE,
    FIELD,
    JSON,
    attack,
    blocker,
    defense,
    dodger,
    fielder,
    one_hit,
    sheet,
)

CASES = [
    pytest.param(
        attack(damage=20, ignore_defense_pct=10),
        blocker(100),
        {"skill": BLOCK},
        2,
        id="T000-06-umh-9.2.3.1-ignore-20",
    ),
    pytest.param(
        attack(damage=200, ignore_defense_pct=10),
        blocker(100),
        {"skill": BLOCK},
        100,
        id="T000-07-umh-9.2.3.2-ignore-200",
    ),
    pytest.param(
        attack(damage=200), blocker(100), {"skill": BLOCK}, 100, id="T000-08-umh-9.2.3.2-shortcut"
    ),
    pytest.param(
        attack(damage=200, ignore_defense_pct=10),
        blocker(190),
        {"skill": BLOCK},
        20,
        id="T000-09-umh-9.2.3.2-A-33-formula",
    ),
    pytest.param(
        attack(damage=400, natures=["luz"]),
        dodger(2),
        {"skill": DODGE},
        200,
        id="T000-38-umh-8.2.1.4-light-evasion-without-3-REF",
    ),
    pytest.param(
        attack(damage=1000, natures=["fuego"]),
        blocker(1000),
        {"skill": BLOCK},
        0,
        id="T000-39-umh-7.1.1.5-fire-blocked",
    ),
    pytest.param(
        attack(damage=300, natures=["psionica"]),
        sheet("Bruno"),
        {"resist": True},
        150,
        id="T000-41a-umh-7.1.2.3-psionic-resisted",
    ),
    pytest.param(
        attack(damage=300, natures=["psionica"]),
        blocker(100),
        {"skill": BLOCK},
        200,
        id="T000-41b-umh-7.1.2.4-psionic-internal",
    ),
    pytest.param(
        attack(damage=301, natures=["sonora"]),
        fielder(200),
        {"skill": FIELD},
        151,
        id="T000-42a-umh-7.1.3.1-A-29-sonic-def-200",
    ),
    pytest.param(
        attack(damage=301, natures=["sonora"]),
        fielder(100),
        {"skill": FIELD},
        201,
        id="T000-42b-umh-7.1.3.1-A-29-sonic-def-100",
    ),
    pytest.param(
        attack(damage=301, natures=["sonora"]),
        fielder(100, True),
        {"skill": FIELD},
        201,
        id="umh-7.1.3.1-sonic-all-angles-defended-whole",
    ),
    pytest.param(
        attack(damage=301, natures=["sonora"]),
        dodger(2),
        {"skill": DODGE},
        151,
        id="T000-42c-umh-7.1.3.1-sonic-evasion-REF-2",
    ),
    pytest.param(
        attack(damage=301, natures=["sonora"]),
        dodger(3),
        {"skill": DODGE},
        0,
        id="umh-7.1.3.1-sonic-evasion-REF-3",
    ),
    pytest.param(
        attack(damage=400, natures=["fuego_infernal"]),
        sheet("Bruno", immunities=["fuego"]),
        None,
        400,
        id="T000-44a-umh-7.1.1-hellfire-fire-immunity",
    ),
    pytest.param(
        attack(damage=400, natures=["fuego_infernal"]),
        fielder(100),
        {"skill": FIELD},
        300,
        id="T000-44c-umh-7.1.1-hellfire-external",
    ),
    pytest.param(
        attack(damage=500, natures=["luz"]),
        dodger(2, resistance=50, reductions={"general": 10}),
        {"skill": DODGE},
        180,
        id="T000-50-umh-8.2.1.4-A-98-evasion-fallback",
    ),
    pytest.param(
        attack(damage=300),
        sheet("Bruno", defense("Choque", "counter", 200)),
        {"skill": "Choque"},
        100,
        id="T000-51a-umh-8.2.4.2-counter-300-200",
    ),
    pytest.param(
        attack(damage=500),
        blocker(200, resistance=100, reductions={"general": 20}),
        {"skill": BLOCK},
        160,
        id="T000-52-umh-9.1.1-order",
    ),
    pytest.param(
        attack(damage=300, pierces_defense=True),
        blocker(200),
        {"skill": BLOCK},
        300,
        id="T000-53a-umh-9.2.2-pierce",
    ),
    pytest.param(
        attack(damage=150, pierces_defense=True),
        blocker(200),
        {"skill": BLOCK},
        0,
        id="T000-53b-umh-9.2.2-pierce-below",
    ),
    pytest.param(
        attack(damage=300, pierces_defense=True, ignore_defense_pct=10),
        blocker(200),
        {"skill": BLOCK},
        100,
        id="T000-53c-umh-9.2.2-A-34-pierce-10",
    ),
    pytest.param(
        attack(damage=400, natures=["fuego"]),
        sheet("Bruno", reductions={"fuego": 15, "general": 15}),
        None,
        300,
        id="T000-54-umh-9.4.3-A-36-cap",
    ),
    pytest.param(
        attack(damage=1000),
        sheet("Bruno", immunities=["fisica"]),
        None,
        0,
        id="T000-55a-umh-9.5.2-immune",
    ),
    pytest.param(
        attack(damage=1000, natures=["fisica", "fuego"]),
        sheet("Bruno", immunities=["fuego"]),
        None,
        500,
        id="T000-55b-umh-9.5.3-half",
    ),
    pytest.param(
        attack(damage=1000, natures=["fisica", "fuego"]),
        sheet("Bruno", immunities=["fuego", "fisica"]),
        None,
        0,
        id="T000-55c-umh-9.5.3-both",
    ),
    pytest.param(
        attack(damage=1000, natures=["fisica", "fuego", "agua"]),
        sheet("Bruno", immunities=["fuego", "fisica", "agua"]),
        None,
        0,
        id="T000-55d-umh-9.5.4-three-of-three",
    ),
    pytest.param(
        attack(damage=1000, natures=["fisica", "fuego", "agua"]),
        sheet("Bruno", immunities=["fuego", "agua"]),
        None,
        250,
        id="T000-55e-umh-9.5.4-two-of-three",
    ),
    pytest.param(
        attack(damage=1000, natures=["fisica", "fuego", "agua"]),
        sheet("Bruno", immunities=["agua"]),
        None,
        750,
        id="T000-55f-umh-9.5.4-one-of-three",
    ),
    pytest.param(
        attack(damage=300, ignores_hardness="carbonadium"),
        sheet("Bruno", resistance=100, hardness="adamantium"),
        None,
        200,
        id="T000-56a-umh-9.3.5-lower-hardness-not-ignored",
    ),
    pytest.param(
        attack(damage=300, ignores_hardness="adamantino"),
        sheet("Bruno", resistance=100, hardness="adamantium"),
        None,
        300,
        id="T000-56b-umh-9.3.5-A-84-higher-hardness-ignored",
    ),
    pytest.param(
        attack(damage=300),
        sheet("Bruno", resistance=100, hardness="adamantium"),
        None,
        200,
        id="T000-56c-umh-9.3.5-no-hardness-named",
    ),
]


@pytest.mark.parametrize(("skill", "target", "reaction", "expected"), CASES)
def test_damage_vectors(skill: JSON, target: JSON, reaction: JSON | None, expected: int) -> None:
    row, _ = one_hit(skill, target, reaction)
    assert row["damage"] == expected, row["steps"]
