"""cypher rules of issue 17 through the gateway and the three services' handlers (seed 001):
each table is named by the seed heading it checks."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import error_of, start_in
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


async def to_turn_of(community: Any, cid: str, who: str) -> None:
    """Pass turns until it is ``who``'s."""
    for _ in range(4):
        actor = (await community.combat(cid))["turn"]["actor"]
        if actor == who:
            return
        await community.act_ok(cid, {"type": "pass_turn", "actor": actor})
    raise AssertionError(f"never {who}'s turn")


ORC_ATTACK = {"type": "cypher.attack", "actor": "orco", "target": "ana", "attack": "Garra"}


@pytest.mark.parametrize(
    ("speed", "asked", "levels", "cost", "difficulty"),
    [
        pytest.param(8, 0, 0, 0, 2, id="no Effort: the NPC's level 2"),
        pytest.param(8, 1, 1, 3, 1, id="1 level: 3 Speed, one step easier"),
        pytest.param(2, 1, 0, 0, 2, id="Speed 2 cannot pay 3: no Effort"),
    ],
)
async def test_001_atacar_effort_on_the_defense_roll(
    referee: ChainReferee, speed: int, asked: int, levels: int, cost: int, difficulty: int
) -> None:
    """001 ATACAR with B-7: a PC's Speed defense roll against an NPC takes the Effort he
    declared (``cypher.defend``), paid from Speed when he rolls; it is spent then."""
    community, cid = await cypher_combat(referee, speed=speed)
    if asked:
        said = await community.act_ok(cid, {"type": "cypher.defend", "actor": "ana", "effort": 1})
        assert "defense_effort.declared" in [e["type"] for e in said["events"]]
    await to_turn_of(community, cid, "orco")
    shown = resolved(await community.act_ok(cid, ORC_ATTACK))
    assert shown["defense_roll"] is True and shown["difficulty"] == difficulty
    assert shown["effort_levels"] == levels
    if asked:
        effort = shown["defense_effort"]
        assert (effort["levels"], effort["cost"], effort["rolled"]) == (levels, cost, True)
    ana = (await community.combat(cid))["participants"]["ana"]
    hit = 0 if shown["defended"] else 4  # the Garra's 4, Armor 1: 3 off Might
    assert ana["pools"]["speed"] == speed - cost
    assert ana["pools"]["might"] == 8 - (hit - 1 if hit else 0)
    await to_turn_of(community, cid, "orco")
    again = resolved(await community.act_ok(cid, ORC_ATTACK))
    assert again["effort_levels"] == 0 and "defense_effort" not in again


async def test_001_atacar_effort_refused_above_the_sheet_and_for_npcs(
    referee: ChainReferee,
) -> None:
    """B-7: Effort up to the sheet's ``effort`` (1 here); an NPC rolls no defense."""
    community, cid = await cypher_combat(referee)
    too_much = await community.act(cid, {"type": "cypher.defend", "actor": "ana", "effort": 2})
    error_of(too_much, 422, "effort_too_high")
    npc = await community.act(cid, {"type": "cypher.defend", "actor": "orco", "effort": 1})
    error_of(npc, 422, "effort_too_high")


DARK_ATTACK = {
    "type": "cypher.attack",
    "actor": "ana",
    "target": "orco",
    "attack": "Espada",
    "circumstances": {"lighting": "darkness"},
}


@pytest.mark.parametrize(
    ("intrusion", "rolled"),
    [
        pytest.param(False, False, id="no intrusion: a miss, no roll"),
        pytest.param(True, True, id="GM intrusion: rolled"),
    ],
)
async def test_001_iluminacion_oscuridad_gm_intrusion(
    referee: ChainReferee, intrusion: bool, rolled: bool
) -> None:
    """001 ILUMINACIÓN (oscuridad), B-12: an attack on a target he cannot place misses with
    no roll "salvo que el jugador gaste 1 PX ... o el DJ lleve a cabo una intromisión": the
    moderator's ``cypher.intrusion`` lets his next such attack be rolled, once."""
    community, cid = await cypher_combat(referee)
    if intrusion:
        body = {"type": "cypher.intrusion", "actor": "ana", "reason": "a glint of steel"}
        said = await community.act_ok(cid, body)
        assert "gm.intrusion" in [e["type"] for e in said["events"]]
    await to_turn_of(community, cid, "ana")
    shown = resolved(await community.act_ok(cid, DARK_ATTACK))
    assert (shown["roll"] is not None) is rolled
    if rolled:
        assert "gm_intrusion" in [s["step"] for s in shown["steps"]]
        await to_turn_of(community, cid, "ana")
        again = resolved(await community.act_ok(cid, DARK_ATTACK))
        assert again["automatic"] == "darkness_not_located"
    else:
        assert shown["automatic"] == "darkness_not_located"
