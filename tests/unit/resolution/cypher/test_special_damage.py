"""001 DAÑO ESPECIAL and who rolls an attack: poison (a Might defense roll, B-24), paralysis,
dazed, stunned from an attack's ``special``; NPC attacks met by the PC's defense roll."""

from __future__ import annotations

from typing import Any

import pytest

from services.resolution.domain.cypher import resolve
from shared.rulesets.cypher.actions import CypherAttack
from shared.rulesets.cypher.sheet import CypherSheet
from tests.unit.turns.cypher.kit import Fixed, condition, npc, pc

DART: dict[str, Any] = {
    "name": "Dardo",
    "damage": 1,
    "kind": "ranged",
    "range": "short",
    "ranged_kind": "blowgun",
    "special": {"poison": {"level": 3, "damage": 2, "paralysis": True}, "dazed_rounds": 1},
}


def attack_of(actor: str, target: str, name: str, **fields: Any) -> CypherAttack:
    body = {"type": "cypher.attack", "actor": actor, "target": target, "attack": name, **fields}
    return CypherAttack.model_validate(body)


def fight(sheets: dict[str, dict[str, Any]], action: CypherAttack, *faces: int) -> resolve.Resolved:
    parsed = {c: CypherSheet.model_validate(s) for c, s in sheets.items()}
    conds = {
        c: condition(s, "attackers" if c == action.actor else "defenders")
        for c, s in sheets.items()
    }
    return resolve.resolve_attack(action, parsed, conds, Fixed(*faces))


def test_poison_failed_might_defense_damages_and_paralyses_b24() -> None:
    """A hit (d20 9 vs TN 3 for a tier-1 PC), then the poison: Might defense 5 < TN 9."""
    sheets = {"ana": pc("Ana", attacks=[DART]), "bruno": pc("Bruno", armor=1)}
    done = fight(sheets, attack_of("ana", "bruno", "Dardo", circumstances={"distance_m": 5}), 9, 5)
    result = done.payload["results"][0]
    poison = next(e for e in result["special"] if e["effect"] == "poison")
    assert poison["defense"]["target_number"] == 9 and not poison["defense"]["success"]
    bruno = done.conditions["bruno"]
    assert bruno.paralyzed and bruno.dazed_turns == 1
    assert bruno.pool("might") == 10 - 0 - 1  # Armor 1 stops the dart's 1, and 1 of the poison's 2
    assert [who for _, who in done.rolls] == ["ana", "bruno"]


def test_poison_resisted_has_no_effect() -> None:
    sheets = {"ana": pc("Ana", attacks=[DART]), "bruno": pc("Bruno")}
    done = fight(sheets, attack_of("ana", "bruno", "Dardo", circumstances={"distance_m": 5}), 9, 15)
    bruno = done.conditions["bruno"]
    assert not bruno.paralyzed and bruno.pool("might") == 9


def test_an_npc_attack_is_the_pcs_speed_defense_roll() -> None:
    """The PC rolls at the NPC's level (3: TN 9): 9 defends, 8 is hit (fixed damage 3)."""
    sheets = {"orco": npc("Orco", level=3), "ana": pc("Ana")}
    defended = fight(sheets, attack_of("orco", "ana", "Garra"), 9)
    hit = fight(sheets, attack_of("orco", "ana", "Garra"), 8)
    assert defended.payload["defense_roll"] and not defended.payload["success"]
    assert hit.payload["success"] and hit.conditions["ana"].pool("might") == 7


def test_cover_helps_the_defending_pc_b13_b14() -> None:
    """Steps in the defender's favour lower his defense difficulty: 3 - 1 = 2 (TN 6)."""
    sheets = {"orco": npc("Orco", level=3), "ana": pc("Ana")}
    done = fight(sheets, attack_of("orco", "ana", "Garra", circumstances={"cover": "partial"}), 6)
    assert done.payload["difficulty"] == 2 and not done.payload["success"]


def test_darkness_not_located_misses_with_no_roll_b12() -> None:
    sheets = {"ana": pc("Ana"), "bruno": pc("Bruno")}
    done = fight(
        sheets, attack_of("ana", "bruno", "Espada", circumstances={"lighting": "darkness"})
    )
    assert done.payload["automatic"] == "darkness_not_located" and done.rolls == []
    assert done.payload["success"] is False


def test_npc_health_and_death() -> None:
    """001 ARMADURA before health; health 0 is dead."""
    sheets = {"ana": pc("Ana"), "orco": npc("Orco", health=3, armor=1)}
    done = fight(sheets, attack_of("ana", "orco", "Espada"), 20)
    result = done.payload["results"][0]
    assert (result["raw"], result["armor"], result["damage"]) == (4, 1, 3)
    assert result["health_after"] == 0 and done.conditions["orco"].status == "dead"


@pytest.mark.parametrize(
    ("intellect", "face", "effect"),
    [
        pytest.param(10, 18, None, id="18: none"),
        pytest.param(10, 19, "minor", id="19: minor effect"),
        pytest.param(10, 20, "major", id="20: major effect"),
        pytest.param(0, 20, None, id="impaired: ignores a major effect"),
        pytest.param(0, 19, None, id="impaired: ignores a minor effect"),
    ],
)
def test_001_indicador_lesionado_ignores_minor_and_major_effects(
    intellect: int, face: int, effect: str | None
) -> None:
    """001 INDICADOR (lesionado): "Los personajes lesionados ignoran los resultados de efecto
    menor o mayor en sus tiradas", the one consequence the seed names (B-7): an impaired
    attacker's 19 / 20 is no effect; otherwise it is recorded on the roll."""
    now = {"might": 10, "speed": 10, "intellect": intellect}
    sheets = {"ana": pc("Ana", current=now), "bruno": pc("Bruno")}
    done = fight(sheets, attack_of("ana", "bruno", "Espada"), face)
    assert done.payload["roll"] == face and done.payload["effect"] == effect
