"""umh 11.6.1 - 11.6.1.2 in the chain: a push stops at obstacles, the room's edge and
other fighters, and companions share a collision.

ana (0, 0) pushes bruno (1, 0) three squares east with a skill whose collision deals 100.
The combat's terrain (``POST /v1/combats`` ``terrain``: the room's size and its obstacles)
stops him; a fighter in his way takes half (a quarter with companions on his square).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import error_of
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive
from tests.support.steps import act_as, register_with
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
SHOVE = {**offensive("Empujón", damage=10), "push": 3, "collision_damage": 100}


def start_body(terrain: JSON | None) -> JSON:
    body: JSON = {
        "room": "plaza-pushes",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": [0, 0], "bruno": [1, 0]},
    }
    if terrain is not None:
        body["terrain"] = terrain
    return body


async def shove(
    referee: ChainReferee, terrain: JSON | None, carla: dict[str, Any] | None = None
) -> JSON:
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, SHOVE])
    await register_with(community, "bruno", vel=5)
    cid = (await community.start(start_body(terrain)))["id"]
    ready = ["ana", "bruno"]
    if carla is not None:
        await register_with(community, "carla", vel=4, **carla)
        call = {"type": "join", "actor": "carla", "side": "defenders"}
        await community.act_ok(cid, {**call, "via": "llamada_de_auxilio", "square": [3, 0]})
        ready.append("carla")
    for who in ready:
        await act_as(community, cid, "ready", who)
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", "Empujón", ["bruno"])
    answer = await community.react(cid, "bruno", used["action_id"], None)
    (resolved,) = [e for e in answer["events"] if e["type"] == "action.resolved"]
    data: JSON = resolved["data"]
    return data


def collisions(resolved: JSON) -> dict[str, int]:
    return {
        row["target"]: step["damage"]
        for row in resolved["results"]
        for step in row["steps"]
        if step.get("step") == "collision"
    }


@pytest.mark.parametrize(
    ("terrain", "end", "hit"),
    [
        pytest.param(None, [4, 0], {}, id="test_11_6_1_no_terrain_no_wall"),
        pytest.param({"size": [3, 3]}, [2, 0], {"bruno": 100}, id="test_11_6_1_room_edge"),
        pytest.param({"obstacles": [[3, 0]]}, [2, 0], {"bruno": 100}, id="test_11_6_1_obstacle"),
        pytest.param(
            {"size": [10, 10], "obstacles": [[4, 1]]},
            [4, 0],
            {},
            id="test_11_6_1_an_obstacle_off_the_path",
        ),
    ],
)
async def test_11_6_1_a_push_stops_at_the_wall(
    referee: ChainReferee, terrain: JSON | None, end: list[int], hit: dict[str, int]
) -> None:
    resolved = await shove(referee, terrain)
    assert resolved["moved"]["bruno"]["square"] == end
    assert collisions(resolved) == hit


@pytest.mark.parametrize(
    ("companions", "carla_takes"),
    [
        pytest.param(0, 50, id="test_11_6_1_1_the_one_hit_takes_half"),
        pytest.param(2, 25, id="test_11_6_1_2_with_companions_a_quarter"),
    ],
)
async def test_11_6_1_2_a_push_into_a_fighter(
    referee: ChainReferee, companions: int, carla_takes: int
) -> None:
    resolved = await shove(referee, {"size": [10, 10]}, carla={"companions": companions})
    assert resolved["moved"]["bruno"]["square"] == [2, 0]
    assert collisions(resolved) == {"bruno": 100, "carla": carla_takes}


async def test_11_6_1_terrain_is_validated(referee: ChainReferee) -> None:
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6)
    await register_with(community, "bruno", vel=5)
    answer = await community.client.post(
        "/v1/combats", json=start_body({"size": [3, 3], "obstacles": [[1, 0]]})
    )
    error_of(answer, 422, "invalid_request")
    answer = await community.client.post("/v1/combats", json=start_body({"size": [1, 1]}))
    error_of(answer, 422, "invalid_request")
