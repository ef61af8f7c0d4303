"""umh 6.1.1 over HTTP with the real services and timers: an area catches an ally, who
gets a defense window of his own; the window he leaves unanswered runs out and the hit
resolves on everyone it caught (the chain checks the rest: tests/chain/test_umh_areas.py).
"""

from __future__ import annotations

import pytest

from tests.e2e.referee import Referee
from tests.support.play import of_type, unique
from tests.support.sheets import DEFAULT_SKILLS, offensive
from tests.support.steps import act_as, register_with

pytestmark = [pytest.mark.e2e]

WAVE = {**offensive("Onda", damage=50), "reach": 5, "area": {"shape": "on_target", "size": 1}}


async def test_6_1_1_an_ally_caught_in_an_area_has_his_window_and_takes_the_hit(
    referee: Referee,
) -> None:
    community = await referee.new_community(
        timers={"preparation_seconds": 60, "turn_seconds": 30, "defense_seconds": 2}
    )
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, WAVE])
    await register_with(community, "bruno", vel=5)
    await register_with(community, "carla", vel=4)
    body = {
        "room": unique("areas"),
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": [0, 0], "bruno": [3, 0]},
        "terrain": {"size": [10, 10]},
    }
    cid = (await community.start(body))["id"]
    call = {"type": "join", "actor": "carla", "side": "attackers"}
    await community.act_ok(cid, {**call, "via": "llamada_de_auxilio", "square": [3, 1]})
    for who in ("ana", "bruno", "carla"):
        await act_as(community, cid, "ready", who)
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", "Onda", ["bruno"])
    asked = of_type(used["events"], "reaction.requested")
    assert sorted(e["data"]["reactor"] for e in asked) == ["bruno", "carla"]
    await community.react(cid, "bruno", used["action_id"], None)
    # carla does not answer: her window runs out (umh 2.4.2, A-24) and the hit resolves.
    resolved = await community.wait_event(
        cid, "action.resolved", lambda d: d["action_id"] == used["action_id"]
    )
    hurt = {row["target"] for row in resolved["data"]["results"] if row["damage"] > 0}
    assert hurt == {"bruno", "carla"}
