"""cypher rules of issue 17 through the gateway and the three services' handlers (seed 001):
each table is named by the seed heading it checks."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import start_in
from tests.support.sheets import npc, pc
from tests.support.steps import register_sheet
from tests.support.table import ChainReferee

JSON = dict[str, Any]


def resolved(answer: JSON) -> JSON:
    data: JSON = next(e["data"] for e in answer["events"] if e["type"] == "action.resolved")
    return data


async def cypher_combat(referee: ChainReferee, **ana: Any) -> tuple[Any, str]:
    community = await referee.new_community()
    await register_sheet(community, "ana", pc("Ana", **ana))
    await register_sheet(community, "orco", npc("Orco"))
    combat = await start_in(community, "cypher", "ana", ["orco"])
    return community, combat["id"]


@pytest.mark.parametrize(
    ("armor", "poison_damage", "dealt"),
    [(0, 3, 3), (1, 3, 2), (3, 3, 0), (4, 3, 0)],
)
async def test_001_armadura_reduces_poison_damage(
    referee: ChainReferee, armor: int, poison_damage: int, dealt: int
) -> None:
    """001 DAÑO ESPECIAL (veneno) + ARMADURA: a poison's damage is Might damage, and Armor
    reduces every damage but Speed, Intellect and environmental damage. A level-10 poison
    (target number 30) is never resisted."""
    community, cid = await cypher_combat(referee, armor=armor)
    body = {
        "type": "cypher.inflict",
        "actor": "orco",
        "target": "ana",
        "poison_level": 10,
        "poison_damage": poison_damage,
    }
    result = resolved(await community.act_ok(cid, body))["results"][0]
    poison = next(e for e in result["special"] if e["effect"] == "poison")
    assert poison["defense"]["success"] is False
    assert (poison["damage"]["armor"], poison["damage"]["damage"]) == (armor, dealt)
    ana = (await community.combat(cid))["participants"]["ana"]
    assert ana["pools"]["might"] == 8 - dealt
