"""umh 1.1.5: a skill in doubt is applied the way least favourable to its user until a
moderator rules ("ante la duda no se puede"): refused while disputed. Driven through the
chain."""

from __future__ import annotations

from tests.support.play import error_of
from tests.support.sheets import JSON, defensive, offensive
from tests.support.table import ChainCommunity, ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 60, "defense_seconds": 60}


async def fighting(referee: ChainReferee, puño: JSON) -> tuple[ChainCommunity, str]:
    community = await referee.new_community(timers=TIMERS)
    await community.register("ana", vel=7, skills=[puño, offensive("Patada")])
    await community.register("bruno", vel=5, skills=[defensive("Bloqueo")])
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    return community, cid


def use(skill: str) -> JSON:
    return {"type": "skill", "actor": "ana", "skill": skill, "targets": ["bruno"]}


async def test_1_1_5_a_disputed_skill_is_refused_until_ruled(referee: ChainReferee) -> None:
    """The moderator disputes Puño mid-combat: refused (ability_disputed); ruled: usable."""
    community, cid = await fighting(referee, offensive("Puño"))
    body = {"type": "dispute", "actor": "ana", "skill": "Puño"}
    answer = await community.act_ok(cid, body)
    assert [e["type"] for e in answer["events"]] == ["skill.disputed"]
    refused = await community.act(cid, use("Puño"))
    assert error_of(refused, 422, "ability_disputed")["rule"] == "umh 1.1.5"
    await community.act_ok(cid, {**body, "disputed": False})
    await community.act_ok(cid, use("Puño"))


async def test_1_1_5_a_sheet_brings_it_disputed(referee: ChainReferee) -> None:
    community, cid = await fighting(referee, {**offensive("Puño"), "disputed": True})
    refused = await community.act(cid, use("Puño"))
    assert error_of(refused, 422, "ability_disputed")["rule"] == "umh 1.1.5"
    await community.act_ok(cid, use("Patada"))


async def test_1_1_5_only_a_moderator_disputes(referee: ChainReferee) -> None:
    community, cid = await fighting(referee, offensive("Puño"))
    frontend = community.referee.client(await community.key("frontend"))
    answer = await frontend.post(
        f"/v1/combats/{cid}/actions", json={"type": "dispute", "actor": "ana", "skill": "Puño"}
    )
    assert error_of(answer, 403, "forbidden")["details"]["needs"] == "moderator"
