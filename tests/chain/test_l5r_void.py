"""l5r's Void pool outlives a combat (seed 004 "Vacío", T004-03): what a combat spends is
kept by services/states, shown in the character's status, and the next combat starts with
it; one point comes back a day (a timer, not tested here for its 24 h)."""

from __future__ import annotations

from tests.support.play import expect, unique
from tests.support.sheets import samurai
from tests.support.steps import wait_status
from tests.support.table import ChainReferee


async def test_void_spent_in_one_combat_is_missing_in_the_next(referee: ChainReferee) -> None:
    community = await referee.new_community()
    ana, bruno = unique("ana"), unique("bruno")
    for cid in (ana, bruno):
        expect(await community.client.put(f"/v1/characters/{cid}", json=samurai(cid)), 200, 201)
    body = {
        "room": unique("dojo"),
        "ruleset": "l5r",
        "attacker": ana,
        "defenders": [bruno],
        "opening": {"kind": "challenge"},
    }
    first = await community.start(body)
    assert first["participants"][ana]["void_points"] == 2
    answer = await community.act_ok(
        first["id"], {"type": "l5r.void", "actor": ana, "use": "velocidad"}
    )
    assert answer["combat"]["participants"][ana]["void_points"] == 0
    await community.act_ok(first["id"], {"type": "annul", "actor": ana, "reason": "test"})
    status = await wait_status(
        community,
        ana,
        lambda s: s["ruleset_status"].get("l5r", {}).get("void_points") == 0,
        what="void 0",
    )
    assert (
        status["ruleset_status"]["l5r"]["void_max"] == 2
        and status["ruleset_status"]["l5r"]["void_regains_at"]
    )
    second = await community.start({**body, "room": unique("dojo")})
    assert second["participants"][ana]["void_points"] == 0
    assert second["participants"][bruno]["void_points"] == 2
