"""umh 8.1.1.3.1: a defense that covers allies in its reach defends a target who did not
answer the hit himself (the ally raised it and paid for it in services/turns)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.resolution.umh.kit import Fight, attack, defense, result_of, sheet

BARRIER = defense("Barrera", "external", 100, covers_allies=True, reach=2)
OWN_WALL = defense("Muro", "external", 250)
PLAIN_WALL = defense("Pared", "external", 100)


def fight() -> Fight:
    return Fight(
        {
            "ana": sheet("Ana", attack(damage=300)),
            "bruno": sheet("Bruno", OWN_WALL),
            "carla": sheet("Carla", BARRIER, PLAIN_WALL),
        }
    )


def squares(carla: list[int]) -> dict[str, Any]:
    return {"ana": {"square": [0, 0]}, "bruno": {"square": [1, 0]}, "carla": {"square": carla}}


@pytest.mark.parametrize(
    ("reactions", "carla_at", "damage", "covered_by"),
    [
        pytest.param(
            {"bruno": {}, "carla": {"skill": "Barrera"}},
            [2, 0],
            200,
            "carla",
            id="umh-8.1.1.3.1-the-barrier-covers-him",
        ),
        pytest.param(
            {"bruno": {}, "carla": {"skill": "Barrera"}},
            [9, 0],
            300,
            None,
            id="umh-8.1.1.3.1-out-of-its-reach",
        ),
        pytest.param(
            {"bruno": {"skill": "Muro"}, "carla": {"skill": "Barrera"}},
            [2, 0],
            50,
            None,
            id="umh-8.1.1.3-his-own-defense-first",
        ),
        pytest.param(
            {"bruno": {}, "carla": {"skill": "Pared"}},
            [2, 0],
            300,
            None,
            id="umh-8.1.1.3.1-a-defense-that-does-not-cover-allies",
        ),
    ],
)
def test_umh_8_1_1_3_1_a_defense_covering_allies(
    reactions: dict[str, Any], carla_at: list[int], damage: int, covered_by: str | None
) -> None:
    resolved = fight().hit("Golpe", ["bruno"], reactions=reactions, positions=squares(carla_at))
    row = result_of(resolved, "bruno")
    assert row["damage"] == damage
    assert (row.get("reaction") or {}).get("covered_by") == covered_by
    assert [r["target"] for r in resolved["results"]] == ["bruno"]
