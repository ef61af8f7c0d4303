"""umh 7.1.1 Teletransportadora: a teleport moves its user without spending speed; up high,
he is back on the ground after one action there. Driven through the chain."""

from __future__ import annotations

from tests.support.play import error_of
from tests.support.sheets import JSON, offensive, supplementary
from tests.support.table import ChainCommunity, ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 60, "defense_seconds": 60}


def portal(name: str) -> JSON:
    return {**supplementary(name, pa=1), "natures": ["teletransportadora"]}


async def on_grid(referee: ChainReferee) -> tuple[ChainCommunity, str]:
    community = await referee.new_community(timers=TIMERS)
    skills = [portal("Portal"), portal("Salto dimensional"), supplementary("Concentración")]
    await community.register("ana", vel=2, skills=[*skills, offensive("Puño")])
    await community.register("bruno", vel=1, skills=[offensive("Puño")])
    body = {
        "room": "room-teleport",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": [0, 0], "bruno": [1, 0]},
    }
    cid = (await community.start(body))["id"]
    await community.wait_turn(cid, "ana", 1)
    return community, cid


def use(skill: str, **fields: object) -> JSON:
    return {"type": "skill", "actor": "ana", "skill": skill, "targets": [], **fields}


async def test_7_1_1_a_teleport_costs_no_speed(referee: ChainReferee) -> None:
    """Five squares away with VEL 2: there, with her 2 squares of speed left."""
    community, cid = await on_grid(referee)
    await community.act_ok(cid, use("Portal", to=[5, 5]))
    combat = await community.combat(cid)
    ana = combat["participants"]["ana"]
    assert ana["position"] == {"square": [5, 5], "height": "suelo"}
    assert ana["movement_left"] == 2


async def test_7_1_1_up_high_one_action_then_back_to_the_ground(referee: ChainReferee) -> None:
    community, cid = await on_grid(referee)
    await community.act_ok(cid, use("Portal", to=[3, 3], height="voladora"))
    combat = await community.combat(cid)
    assert combat["participants"]["ana"]["position"] == {"square": [3, 3], "height": "voladora"}
    await community.act_ok(cid, use("Concentración"))
    combat = await community.combat(cid)
    assert combat["participants"]["ana"]["position"] == {"square": [3, 3], "height": "suelo"}


async def test_7_1_1_only_a_teleport_names_a_destination(referee: ChainReferee) -> None:
    community, cid = await on_grid(referee)
    refused = await community.act(cid, use("Concentración", to=[3, 3]))
    assert error_of(refused, 422, "invalid_request")["rule"] == "umh 7.1.1 Teletransportadora"
    taken = await community.act(cid, use("Portal", to=[1, 0]))
    assert error_of(taken, 422, "invalid_target")["rule"] == "umh 11.6.1"
