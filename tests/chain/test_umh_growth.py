"""umh 8.3.1 in the chain: a fighter who grows displaces whoever stands on his new squares,
until they are out of his area or reach the room's edge.

ana (0, 0) grows to occupy 2 squares around her; bruno (1, 0) is displaced east.
"""

from __future__ import annotations

import pytest

from tests.support.sheets import DEFAULT_SKILLS, JSON, supplementary
from tests.support.steps import act_as, register_with
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
GROW = {**supplementary("Crecer", pa=1), "grows": 2}


@pytest.mark.parametrize(
    ("terrain", "end"),
    [
        pytest.param(None, [3, 0], id="test_8_3_1_displaced_out_of_the_area"),
        pytest.param({"size": [3, 3]}, [2, 0], id="test_8_3_1_or_to_the_rooms_edge"),
    ],
)
async def test_8_3_1_growing_displaces_who_stands_there(
    referee: ChainReferee, terrain: JSON | None, end: list[int]
) -> None:
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, GROW])
    await register_with(community, "bruno", vel=5)
    body: JSON = {
        "room": "plaza-growth",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": [0, 0], "bruno": [1, 0]},
    }
    if terrain is not None:
        body["terrain"] = terrain
    cid = (await community.start(body))["id"]
    await act_as(community, cid, "ready", "ana")
    await act_as(community, cid, "ready", "bruno")
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", "Crecer", [])
    (resolved,) = [e for e in used["events"] if e["type"] == "action.resolved"]
    assert resolved["data"]["moved"]["bruno"]["square"] == end
    combat = await community.combat(cid)
    assert combat["participants"]["bruno"]["position"]["square"] == end
    assert combat["participants"]["ana"]["position"]["square"] == [0, 0]
