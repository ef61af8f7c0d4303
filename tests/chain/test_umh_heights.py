"""umh 10.2.3 - 10.2.4 / A-39 (T000-10, T000-11, T000-12): closing in on a lower target puts
the attacker at the height his reach needs until the end of his turn; a later skill on
someone else works it out again from his own position. Driven through the chain."""

from __future__ import annotations

import pytest

from tests.support.play import error_of
from tests.support.sheets import JSON, offensive
from tests.support.steps import register_with
from tests.support.table import ChainCommunity, ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 60, "defense_seconds": 60}


def reaching(name: str, reach: int) -> JSON:
    return {**offensive(name), "reach": reach}


async def fight(
    referee: ChainReferee, height: str, defenders: dict[str, str]
) -> tuple[ChainCommunity, str]:
    """ana at ``height`` with a reach-1 and a reach-3 skill; the defenders at theirs."""
    community = await referee.new_community(timers=TIMERS)
    skills = [reaching("Puño", 1), reaching("Lanza", 3)]
    await register_with(community, "ana", vel=7, skills=skills, position=height)
    for who, where in defenders.items():
        await register_with(community, who, vel=5, position=where)
    if len(defenders) == 1:
        cid = (await community.start_challenge("ana", *defenders))["id"]
    else:  # umh 1.1.1.1: an opening attack on both, taken
        opened = await community.start_attack("ana", list(defenders), "Lanza")
        cid = opened["id"]
        for window in opened["pending_reactions"]:
            await community.react(cid, window["reactor"], window["action_id"], None)
    await community.wait_turn(cid, "ana", 1)
    return community, cid


async def height_of(community: ChainCommunity, cid: str, who: str) -> str:
    combat = await community.combat(cid)
    height: str = combat["participants"][who]["position"]["height"]
    return height


async def hit(community: ChainCommunity, cid: str, skill: str, target: str) -> None:
    used = await community.use_skill(cid, "ana", skill, [target])
    await community.react(cid, target, used["action_id"], None)
    await community.wait_combat(cid, lambda c: not c["pending_reactions"], what="resolved")


@pytest.mark.parametrize(
    ("home", "skill", "held"),
    [
        pytest.param("alzada", "Puño", "suelo", id="umh-10.2.3.1-T000-10-melee-from-alzada"),
        pytest.param("voladora", "Lanza", "alzada", id="umh-10.2.3.2-T000-11-reach-3"),
        pytest.param("suelo", "Puño", "suelo", id="umh-10.2.3-on-the-same-height-nobody-moves"),
    ],
)
async def test_10_2_3_closing_in_holds_until_the_turn_ends(
    referee: ChainReferee, home: str, skill: str, held: str
) -> None:
    community, cid = await fight(referee, home, {"bruno": "suelo"})
    await hit(community, cid, skill, "bruno")
    assert await height_of(community, cid, "ana") == held
    await community.pass_turn(cid, "ana")
    assert await height_of(community, cid, "ana") == home


async def test_10_2_4_1_a_later_attack_moves_him_again(referee: ChainReferee) -> None:
    """T000-12: ana (alzada) melees bruno (suelo): suelo; then carla (alzada): alzada."""
    community, cid = await fight(referee, "alzada", {"bruno": "suelo", "carla": "alzada"})
    await hit(community, cid, "Puño", "bruno")
    assert await height_of(community, cid, "ana") == "suelo"
    await hit(community, cid, "Lanza", "carla")
    assert await height_of(community, cid, "ana") == "alzada"
    await community.pass_turn(cid, "ana")
    assert await height_of(community, cid, "ana") == "alzada"


async def test_10_2_5_picking_up_a_fallen_weapon_puts_him_on_the_ground(
    referee: ChainReferee,
) -> None:
    """ana (voladora) was disarmed: equipping her sword from the ground puts her on the
    ground until her turn ends; bruno may not do it out of his turn."""
    community, cid = await fight(referee, "voladora", {"bruno": "suelo"})
    pick = {"type": "equip", "actor": "ana", "item": "Espada", "from_ground": True}
    answer = await community.act_ok(cid, pick)
    assert [e["type"] for e in answer["events"]] == ["item.equipped", "combatant.position_changed"]
    assert await height_of(community, cid, "ana") == "suelo"
    other = await community.act(cid, {**pick, "actor": "bruno"})
    assert error_of(other, 422, "not_your_turn")["rule"] == "umh 2.4.1"
    await community.pass_turn(cid, "ana")
    assert await height_of(community, cid, "ana") == "voladora"
