"""services/states' gates before a combat starts or someone joins (``states.check``), and
what they hand to the next combat (umh 4.1.7)."""

from __future__ import annotations

import pytest

from shared.keys import Keys
from shared.redis_client import redis_client
from tests.e2e.referee import Referee
from tests.support.play import challenge_body, error_of, unique
from tests.support.sheets import DEFAULT_SKILLS, offensive
from tests.support.steps import act_as, history_of, register_with, wait_result, wait_status

pytestmark = [pytest.mark.e2e]


async def test_a_character_in_a_combat_cannot_be_put_in_another(referee: Referee) -> None:
    community = await referee.new_community()
    for character in ("ana", "bruno", "carla"):
        await community.register(character)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)

    answer = await community.client.post(
        "/v1/combats", json=challenge_body("carla", "bruno", room=unique("room"))
    )
    body = error_of(answer, 422, "already_in_combat")
    assert body["details"]["character"] == "bruno"
    listed = (await community.client.get("/v1/combats")).json()["combats"]
    assert [c["id"] for c in listed] == [cid]  # nothing was started


async def test_4_1_7_and_4_2_5_what_a_combat_leaves_reaches_the_next_start(
    referee: Referee,
) -> None:
    """Through the real services: bruno ends a pact at 140/300 (umh 4.1.7, seed 000 l.138),
    the gates hand that to his next start; ana keeps the item she stole from bruno, of her
    own rank (4.2.5, l.146)."""
    community = await referee.new_community(
        timers={"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
    )
    tajo = {**offensive("Tajo", damage=160), "reach": 10, "steals_items": True}
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, tajo])
    await register_with(community, "bruno", vel=5, vit=300)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await act_as(community, cid, "ready", "ana")
    await act_as(community, cid, "ready", "bruno")
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", "Tajo", ["bruno"])
    await community.react(cid, "bruno", used["action_id"], None)
    steal = {"type": "steal", "actor": "ana", "skill": "Tajo", "target": "bruno", "item": "Daga"}
    await community.act_ok(cid, steal)
    await act_as(community, cid, "pact", "ana")
    await act_as(community, cid, "pact", "bruno")
    assert (await wait_result(community, cid))["reason"] == "pact"

    status = await wait_status(community, "bruno", lambda s: bool(s["carried"]), what="carried")
    assert (status["carried"]["vit"], status["carried"]["vit_max"]) == (140, 300)
    await wait_status(community, "ana", lambda s: s["in_combat"] is None, what="out")
    (theft,) = [e for e in await history_of(community, "ana") if e["change"] == "theft"]
    assert (theft["item"], theft["kept"], theft["rule"]) == ("Daga", True, "umh 4.2.5")

    started = await community.start_challenge("bruno", "ana")
    combat = await community.wait_combat(
        started["id"],
        lambda c: c["participants"]["bruno"].get("vit") is not None,
        what="resolution's condition",
    )
    assert (combat["participants"]["bruno"]["vit"], combat["participants"]["ana"]["vit"]) == (
        140,
        300,
    )


async def test_a_join_the_gates_refuse_leaves_no_action_to_poll(
    referee: Referee, redis_url: str
) -> None:
    """A refused action was never sent: the gateway keeps no record of it (a poll would
    otherwise find it "pending" for a day)."""
    community = await referee.new_community()
    for character in ("ana", "bruno", "carla", "dani"):
        await community.register(character)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.start_challenge("carla", "dani")
    join = {"type": "join", "actor": "carla", "side": "attackers", "via": "llamada_de_auxilio"}
    answer = await community.client.post(f"/v1/combats/{cid}/actions", json=join)
    assert error_of(answer, 422, "already_in_combat")["details"]["character"] == "carla"

    keys = Keys(referee.suite.namespace)
    pattern = keys.action_sent(community.id, "*")
    redis = redis_client(redis_url)
    try:
        assert [k async for k in redis.scan_iter(match=pattern)] == []
        await act_as(community, cid, "disconnect", "ana")  # an action sent is recorded
        assert len([k async for k in redis.scan_iter(match=pattern)]) == 1
    finally:
        await redis.aclose()
