"""The readings of docs/rules.md 6.1 that a community may switch ("config"), as services/resolution
applies them: each table flips the community setting that ``combat.started`` carries
(``settings.umh.readings``) and shows the other behaviour on the same hit."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from services.resolution.domain.umh.condition import CombatCondition
from services.resolution.domain.umh.nature_rules import immunity_cut
from services.resolution.domain.umh.readings import RECOMMENDED, UmhReadings
from shared.rulesets.umh.weapons import Wielded, combined_arma
from tests.unit.resolution.umh.kit import JSON, Fight, attack, defense, result_of, sheet, support

POISON = [{"kind": "indirect", "type": "envenenamiento", "amount": 10, "actions": 3}]


@pytest.mark.parametrize(
    ("readings", "ref", "damage"),
    [
        pytest.param({}, 0.5, 50, id="A-22-ref-under-1-kept-evasion-unmet"),
        pytest.param({"stat_below_one": "clamp"}, 0.5, 0, id="A-22-ref-under-1-clamped-to-1"),
        pytest.param({"stat_below_one": "clamp"}, 0, 50, id="A-22-ref-0-stays-0"),
    ],
)
def test_a_22_ref_below_one(readings: JSON, ref: float, damage: int) -> None:
    """umh 2.6.1.1 / 8.2.1.4: an evasion needing 1 REF, by a REF of 0.5: kept, it is unmet
    and half the damage lands; clamped to 1, it is met and nothing lands."""
    needs_one = attack(damage=100, ref_required=1)
    dodger = sheet("Bruno", defense("Esquiva", "evasion"), ref=ref)
    fight = Fight({"ana": sheet("Ana", needs_one), "bruno": dodger}, readings)
    resolved = fight.hit("Golpe", ["bruno"], reactions={"bruno": {"skill": "Esquiva"}})
    assert result_of(resolved, "bruno")["damage"] == damage


@pytest.mark.parametrize(
    ("readings", "combo_continues"),
    [
        pytest.param({}, False, id="A-22-vel-under-1-kept-cannot-close-in"),
        pytest.param({"stat_below_one": "clamp"}, True, id="A-22-vel-under-1-clamped-closes-in"),
    ],
)
def test_a_22_vel_below_one(readings: JSON, combo_continues: bool) -> None:
    """umh 8.1.1.1.4: the evader steps 1 square out of reach; an attacker of VEL 0.5 follows
    only if the combat reads that VEL as 1."""
    combo = attack("Ráfaga", damage=100, hits=3, reach=1)
    fight = Fight(
        {"ana": sheet("Ana", combo, vel=0.5), "bruno": sheet("Bruno", defense("Salto", "evasion"))},
        readings,
    )
    resolved = fight.hit(
        "Ráfaga",
        ["bruno"],
        hits=3,
        positions={"ana": {"square": [0, 0]}, "bruno": {"square": [1, 0]}},
        reactions={"bruno": {"skill": "Salto", "to": [2, 0]}},
    )
    assert resolved["combo_continues"] is combo_continues


@pytest.mark.parametrize(
    ("left", "combo_continues"),
    [
        pytest.param(0, False, id="umh-8.1.1.1.4-no-speed-left-the-combo-ends"),
        pytest.param(1, True, id="umh-8.1.1.1.4-one-square-left-he-follows"),
        pytest.param(None, True, id="umh-8.1.1.1.4-unknown-spent-sheet-vel"),
    ],
)
def test_umh_8_1_1_1_4_follows_with_the_speed_left(
    left: float | None, combo_continues: bool
) -> None:
    """umh 8.1.1.1.4 / 2.3.2.1: the evader steps 1 square out of reach; the attacker (VEL 6)
    follows only with the speed he has left this round, as services/turns reports it."""
    combo = attack("Ráfaga", damage=100, hits=3, reach=1)
    fight = Fight(
        {"ana": sheet("Ana", combo, vel=6), "bruno": sheet("Bruno", defense("Salto", "evasion"))}
    )
    extra: dict[str, Any] = {} if left is None else {"movement_left": {"ana": left, "bruno": 6}}
    resolved = fight.hit(
        "Ráfaga",
        ["bruno"],
        hits=3,
        positions={"ana": {"square": [0, 0]}, "bruno": {"square": [1, 0]}},
        reactions={"bruno": {"skill": "Salto", "to": [2, 0]}},
        **extra,
    )
    assert resolved["combo_continues"] is combo_continues


@pytest.mark.parametrize(
    ("readings", "after_each"),
    [
        pytest.param({}, (1000, 1000, 990), id="A-25-indirect-per-general-action"),
        pytest.param({"indirect_per_turn": True}, (1000, 990, 990), id="A-25-indirect-per-turn"),
    ],
)
def test_a_25_indirect_ticks(readings: JSON, after_each: tuple[int, int, int]) -> None:
    """umh 11.2.1 / 11.3.3: after the poisoning, a general action, bruno's turn, a general
    action: per action it ticks on the action of the next turn; per turn, at its start."""
    fight = Fight(
        {"ana": sheet("Ana", attack(damage=0, effects=POISON)), "bruno": sheet("Bruno")}, readings
    )
    fight.hit("Golpe", ["bruno"])
    fight.declared()
    seen = [fight.vit("bruno")]
    fight.turn("bruno")
    seen.append(fight.vit("bruno"))
    fight.declared()
    seen.append(fight.vit("bruno"))
    assert tuple(seen) == after_each


@pytest.mark.parametrize(
    ("readings", "per_action"),
    [
        pytest.param({}, 100, id="A-28-burn-10pc-per-action"),
        pytest.param({"burn_total_split": True}, 33, id="A-28-burn-10pc-split-over-3"),
    ],
)
def test_a_28_burn(readings: JSON, per_action: int) -> None:
    """umh 7.1.1.5: a 1000-damage fire skill met by an internal defense burns 10 %."""
    fire = attack(damage=1000, natures=["fuego"])
    blocker = sheet("Bruno", defense("Bloqueo", "internal", 100))
    fight = Fight({"ana": sheet("Ana", fire), "bruno": blocker}, readings)
    fight.hit("Golpe", ["bruno"], reactions={"bruno": {"skill": "Bloqueo"}})
    (burn,) = fight.effects("bruno", "indirect")
    assert (burn["type"], burn["amount"], burn["actions_left"]) == ("quemadura", per_action, 3)


@pytest.mark.parametrize(
    ("readings", "damage"),
    [
        pytest.param({}, 201, id="A-29-sonic-half-up-passes-rest-defended"),
        pytest.param({"sonic_literal": True}, 151, id="A-29-sonic-literal-half-up-only"),
    ],
)
def test_a_29_sonic_past_a_partial_defense(readings: JSON, damage: int) -> None:
    """umh 7.1.3.1 (T000-42): 301 sonic against an external 100 without "all angles": 151
    gets past; the recommended reading defends the other 150 (50 more land)."""
    sonic = attack(damage=301, natures=["sonora"])
    field = sheet("Bruno", defense("Campo", "external", 100))
    fight = Fight({"ana": sheet("Ana", sonic), "bruno": field}, readings)
    resolved = fight.hit("Golpe", ["bruno"], reactions={"bruno": {"skill": "Campo"}})
    assert result_of(resolved, "bruno")["damage"] == damage


@pytest.mark.parametrize(
    ("readings", "spent", "combo_continues"),
    [
        pytest.param({}, 1.0, True, id="A-61-chebyshev-diagonal-is-1"),
        pytest.param({"grid_metric": "manhattan"}, 2.0, False, id="A-61-manhattan-diagonal-is-2"),
    ],
)
def test_a_61_grid_metric(readings: JSON, spent: float, combo_continues: bool) -> None:
    """umh 8.2.1.1 / 8.1.1.1.4: a diagonal evasion step costs 1 or 2 squares of speed, and
    the attacker (VEL 1, reach 1) closes in only if the evader stays 1 square out."""
    combo = attack("Ráfaga", damage=100, hits=3, reach=1)
    fight = Fight(
        {"ana": sheet("Ana", combo, vel=1), "bruno": sheet("Bruno", defense("Salto", "evasion"))},
        readings,
    )
    resolved = fight.hit(
        "Ráfaga",
        ["bruno"],
        hits=3,
        positions={"ana": {"square": [0, 0]}, "bruno": {"square": [1, 0]}},
        reactions={"bruno": {"skill": "Salto", "to": [2, 1]}},
    )
    assert resolved["speed_spent"] == {"bruno": spent}
    assert resolved["combo_continues"] is combo_continues


@pytest.mark.parametrize(
    ("readings", "stunned"),
    [
        pytest.param({}, True, id="A-96-physical-stun-not-an-intrusion"),
        pytest.param({"intrusion_literal": True}, False, id="A-96-literal-every-effect-intrudes"),
    ],
)
def test_a_96_intrusions(readings: JSON, stunned: bool) -> None:
    """umh 9.7.2.2: a mental shield stops a physical stun only under the literal reading."""
    stun = attack(damage=100, effects=[{"kind": "control", "type": "aturdimiento", "actions": 1}])
    bubble = support("Escudo", natures=["mental"], mental_shield=50)
    fight = Fight({"ana": sheet("Ana", stun), "bruno": sheet("Bruno", bubble)}, readings)
    fight.hit("Escudo", [], attacker="bruno")
    row = result_of(fight.hit("Golpe", ["bruno"]), "bruno")
    assert row["damage"] == 100  # physical damage does not touch the mental shield
    assert bool(fight.effects("bruno", "control")) is stunned


@pytest.mark.parametrize(
    ("readings", "expected"),
    [(RECOMMENDED, Fraction(1, 2)), (UmhReadings(immunity_four_plus="none"), Fraction(0))],
    ids=["A-37-four-natures-proportional", "A-37-four-natures-none"],
)
def test_a_37_four_natures(readings: UmhReadings, expected: Fraction) -> None:
    """A-37's 4+ natures are not a community setting: the recommended value stays."""
    natures = ["fisica", "fuego", "agua", "luz"]
    assert immunity_cut(natures, ["fuego", "agua"], readings) == expected


def test_a_78_a_80_reach_the_combat_but_no_hit_combines_weapons_yet() -> None:
    """A-78 / A-80 are kept with the combat's readings, ready for the two-weapon ARMA of
    umh 12 (shared/rulesets/umh/weapons.py); no hit combines two weapons yet, so they change
    nothing in a resolution today."""
    fight = Fight(
        {"ana": sheet("Ana"), "bruno": sheet("Bruno")},
        {"ambidextrous_four_plus": [0.9, 0.3], "unique_weapon_alone": True},
    )
    readings = CombatCondition.from_dict(fight.state).readings
    assert readings.ambidextrous_four_plus == (0.9, 0.3) and readings.unique_weapon_alone
    far_apart = (Wielded(6, 100, "short"), Wielded(1, 100, "short"))
    assert combined_arma(*far_apart, four_plus=RECOMMENDED.ambidextrous_four_plus) is None
    assert combined_arma(*far_apart, four_plus=readings.ambidextrous_four_plus) == 120
    unique = (Wielded(2, 80, "short", unique=True), Wielded(3, 100, "short"))
    assert combined_arma(*unique, unique_used=True) == 106
    assert combined_arma(*unique, unique_used=True, unique_alone=readings.unique_weapon_alone) == 56


def test_a_running_combat_keeps_the_readings_it_started_with() -> None:
    """The readings live in the combat's state: a later message of the combat applies them
    (the ruleset has none of its own), and a state kept before them reads RECOMMENDED."""
    fight = Fight({"ana": sheet("Ana"), "bruno": sheet("Bruno")}, {"indirect_per_turn": True})
    assert fight.state["readings"]["indirect_per_turn"] is True
    fight.turn("bruno")
    assert CombatCondition.from_dict(fight.state).readings.indirect_per_turn is True
    old: dict[str, Any] = {k: v for k, v in fight.state.items() if k != "readings"}
    assert CombatCondition.from_dict(old).readings == RECOMMENDED
    again = CombatCondition.from_dict(fight.state)
    assert CombatCondition.from_dict(again.to_dict()) == again
