"""Defensive variations that stop or redirect the action (umh 3.2, 8.1.1.1, 8.2)."""

from __future__ import annotations

from typing import Any

import pytest

from services.resolution.domain.umh.variations import anticipation_refund
from tests.unit.resolution.umh.kit import JSON, Fight, attack, defense, result_of, sheet, step


def fight_with(*skills: JSON, ana_pa: int = 3, **bruno: Any) -> Fight:
    return Fight(
        {
            "ana": sheet("Ana", attack(damage=300, pa=ana_pa)),
            "bruno": sheet("Bruno", *skills, **bruno),
        }
    )


@pytest.mark.parametrize(
    ("cost", "expected"),
    [
        pytest.param(c, e, id=f"T000-30-umh-3.2-A-18-cost-{c}")
        for c, e in ((1, 1), (2, 1), (3, 1), (4, 2), (5, 2))
    ],
)
def test_t000_30_refund(cost: int, expected: int) -> None:
    assert anticipation_refund(cost, reacted=False, first_hit=True) == expected


def test_anticipation_with_damage_cancels_and_refunds() -> None:
    fight = fight_with(defense("Adelanto", "anticipation", damage=50))
    resolved = fight.hit("Golpe", ["bruno"], reactions={"bruno": {"skill": "Adelanto"}})
    assert resolved["cancelled"] is True
    assert resolved["refunds"] == {"ana": 1}
    assert result_of(resolved, "ana")["damage"] == 50
    assert fight.vit("bruno") == 1000


def test_t000_31_reacting_to_the_anticipation_refunds_nothing() -> None:
    fight = Fight(
        {
            "ana": sheet("Ana", attack(damage=300, pa=3), defense("Bloqueo", "internal", 100)),
            "bruno": sheet("Bruno", defense("Adelanto", "anticipation", damage=50)),
        }
    )
    resolved = fight.hit(
        "Golpe",
        ["bruno"],
        reactions={"bruno": {"skill": "Adelanto"}},
        anticipation_answers={"bruno": {"skill": "Bloqueo"}},
    )
    assert resolved["cancelled"] is True
    assert resolved["refunds"] == {"ana": 0}
    assert result_of(resolved, "ana")["damage"] == 0


def test_anticipation_without_damage_lets_the_action_go_on() -> None:
    fight = Fight(
        {
            "ana": sheet("Ana", attack(damage=300), resistance=100),
            "bruno": sheet("Bruno", defense("Adelanto", "anticipation", damage=50)),
        }
    )
    resolved = fight.hit("Golpe", ["bruno"], reactions={"bruno": {"skill": "Adelanto"}})
    assert resolved["cancelled"] is False
    assert fight.vit("bruno") == 700


def test_annulment_cancels_the_combo() -> None:
    combo = attack("Ráfaga", damage=100, hits=3)
    fight = Fight(
        {"ana": sheet("Ana", combo), "bruno": sheet("Bruno", defense("Nada", "annulment"))}
    )
    resolved = fight.hit("Ráfaga", ["bruno"], hits=3, reactions={"bruno": {"skill": "Nada"}})
    assert (resolved["cancelled"], resolved["combo_continues"], resolved["refunds"]) == (
        True,
        False,
        {},
    )
    assert fight.vit("bruno") == 1000


def test_reflection_sends_the_skill_to_an_opponent_in_reach() -> None:
    fight = Fight(
        {
            "ana": sheet("Ana", attack(damage=300)),
            "bruno": sheet("Bruno", defense("Espejo", "reflection", reach=5)),
            "carla": sheet("Carla"),
        }
    )
    back = fight.hit("Golpe", ["bruno"], reactions={"bruno": {"skill": "Espejo"}})
    assert back["cancelled"] is True and fight.vit("ana") == 700
    assert step(result_of(back, "ana"), "reflected") is not None


def test_reflection_redirected() -> None:
    sheets = {
        "ana": sheet("Ana", attack(damage=300)),
        "bruno": sheet("Bruno", defense("Espejo", "reflection")),
        "carla": sheet("Carla"),
    }
    fight = Fight(sheets)
    fight.state["participants"]["carla"]["side"] = "attackers"
    resolved = fight.hit(
        "Golpe", ["bruno"], reactions={"bruno": {"skill": "Espejo", "redirect_to": "carla"}}
    )
    assert fight.vit("carla") == 700 and fight.vit("ana") == 1000
    assert resolved["cancelled"] is True


def test_evasion_moves_and_spends_speed_and_the_combo_may_end() -> None:
    combo = attack("Ráfaga", damage=100, hits=3, reach=1)
    fight = Fight(
        {"ana": sheet("Ana", combo, vel=1), "bruno": sheet("Bruno", defense("Salto", "evasion"))}
    )
    positions = {"ana": {"square": [0, 0]}, "bruno": {"square": [1, 0]}}
    resolved = fight.hit(
        "Ráfaga",
        ["bruno"],
        hits=3,
        positions=positions,
        reactions={"bruno": {"skill": "Salto", "to": [4, 1]}},
    )
    assert resolved["speed_spent"] == {"bruno": 3.0}
    assert resolved["moved"]["bruno"]["square"] == [4, 1]
    assert resolved["combo_continues"] is False  # umh 8.1.1.1.4: VEL 1 cannot close 3 squares
    assert fight.vit("bruno") == 1000


@pytest.mark.parametrize(
    ("melee", "answer", "ana_takes"),
    [
        pytest.param(False, {"skill": "Campo"}, 40, id="umh-8.2.4.4-ranged-counter-answered"),
        pytest.param(False, {}, 100, id="umh-8.2.4.4-ranged-counter-taken"),
        pytest.param(True, {"skill": "Campo"}, 100, id="umh-8.2.4.4-melee-counter-no-answer"),
    ],
)
def test_umh_8_2_4_4_the_attacker_answers_a_counters_surplus(
    melee: bool, answer: dict[str, Any], ana_takes: int
) -> None:
    """umh 8.2.4.3 / A-52: attack 200 against a counter of 300: 100 go back to ana; she may
    answer the surplus of a counter that is not melee with a defense (Campo, 60)."""
    fight = Fight(
        {
            "ana": sheet("Ana", attack(damage=200), defense("Campo", "external", 60)),
            "bruno": sheet("Bruno", defense("Réplica", "counter", 300, melee=melee)),
        }
    )
    fight.hit(
        "Golpe",
        ["bruno"],
        reactions={"bruno": {"skill": "Réplica"}},
        anticipation_answers={"bruno": answer},
    )
    assert fight.vit("ana") == 1000 - ana_takes
