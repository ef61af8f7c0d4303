"""The readings of RULES.md 6.1 that a community may switch (UmhReadings, "config")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.resolution.domain.nature_rules import burn_amount, immunity_cut
from services.resolution.domain.readings import RECOMMENDED, UmhReadings
from tests.unit.resolution.kit import Fight, attack, result_of, sheet, support


def test_a_25_per_turn_ticks_setting() -> None:
    poison = attack(
        damage=0,
        effects=[{"kind": "indirect", "type": "envenenamiento", "amount": 10, "actions": 3}],
    )
    fight = Fight(
        {"ana": sheet("Ana", poison), "bruno": sheet("Bruno")}, UmhReadings(indirect_per_turn=True)
    )
    fight.hit("Golpe", ["bruno"])
    fight.declared()
    assert fight.vit("bruno") == 1000
    fight.turn("bruno")
    assert fight.vit("bruno") == 990


@pytest.mark.parametrize(
    ("readings", "expected"),
    [(RECOMMENDED, (100, 3)), (UmhReadings(burn_total_split=True), (33, 3))],
    ids=["A-28-per-action", "A-28-total-split-setting"],
)
def test_a_28_burn(readings: UmhReadings, expected: tuple[int, int]) -> None:
    assert burn_amount(Fraction(1000), readings) == expected


@pytest.mark.parametrize(
    ("readings", "expected"),
    [(RECOMMENDED, Fraction(1, 2)), (UmhReadings(immunity_four_plus="none"), Fraction(0))],
    ids=["A-37-four-natures-proportional", "A-37-four-natures-none"],
)
def test_a_37_four_natures(readings: UmhReadings, expected: Fraction) -> None:
    natures = ["fisica", "fuego", "agua", "luz"]
    assert immunity_cut(natures, ["fuego", "agua"], readings) == expected


def test_a_96_literal_intrusions_setting() -> None:
    stun = attack(damage=100, effects=[{"kind": "control", "type": "aturdimiento", "actions": 1}])
    bubble = support("Escudo", natures=["mental"], mental_shield=50)
    for readings, stunned in ((RECOMMENDED, True), (UmhReadings(intrusion_literal=True), False)):
        fight = Fight({"ana": sheet("Ana", stun), "bruno": sheet("Bruno", bubble)}, readings)
        fight.hit("Escudo", [], attacker="bruno")
        row = result_of(fight.hit("Golpe", ["bruno"]), "bruno")
        assert row["damage"] == 100  # physical damage does not touch the mental shield
        assert bool(fight.effects("bruno", "control")) is stunned
