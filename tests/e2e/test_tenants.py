"""docs/api.md "Authentication and keys": a key of community A never sees or changes B's data.

Another community's ids answer 404, not 403, so that a key cannot even learn they exist.
"""

from __future__ import annotations

import pytest

from tests.e2e.referee import Referee, read_sse
from tests.support.play import Sse, error_of, expect, unique
from tests.support.sheets import JSON

pytestmark = [pytest.mark.e2e]


async def test_another_communitys_key_gets_404_and_never_sees_its_events(
    referee: Referee,
) -> None:
    alpha = await referee.new_community()
    beta = await referee.new_community()
    room = unique("plaza")  # both communities fight in a room of the same name
    await alpha.register("ana", vel=6)
    await alpha.register("bruno", vel=5)
    combat = await alpha.start_challenge("ana", "bruno", room=room)
    cid = combat["id"]
    await alpha.wait_turn(cid, "ana", 1)
    passed = await alpha.pass_turn(cid, "ana")
    action_id = passed["action_id"]
    before = await alpha.combat(cid)

    # beta's moderator key: every id of alpha's is unknown to it, on every endpoint that
    # takes an id (docs/api.md and docs/api.md).
    spy = beta.client
    for path in (
        f"/v1/combats/{cid}",
        f"/v1/combats/{cid}/log",
        f"/v1/combats/{cid}/dice",
        f"/v1/combats/{cid}/actions/{action_id}",
        "/v1/characters/ana",
        "/v1/characters/ana/status",
        "/v1/characters/ana/history",
    ):
        error_of(await spy.get(path), 404, "not_found")
    alpha_key = expect(await alpha.client.post("/v1/keys", json={"scope": "frontend"}), 201)
    error_of(await spy.delete(f"/v1/keys/{alpha_key.json()['key_id']}"), 404, "not_found")
    reason = {"reason": "spying"}
    posts: tuple[tuple[str, JSON], ...] = (
        (f"/v1/combats/{cid}/post_combat", {"actor": "ana", "target": "bruno", "cell": True}),
        (f"/v1/combats/{cid}/requirements", {"character": "ana", "kind": "general"}),
        ("/v1/characters/ana/status/adjust", {"kind": "immunity", "lift": True, **reason}),
        ("/v1/characters/ana/commands", {"type": "cypher.rest"}),
    )
    for path, post in posts:
        error_of(await spy.post(path, json=post), 404, "not_found")
    for body in (
        {"type": "pass_turn", "actor": "bruno"},
        {"type": "skill", "actor": "bruno", "skill": "Puño", "targets": ["ana"]},
    ):
        error_of(await beta.act(cid, body), 404, "not_found")
    error_of(
        await beta.act(cid, {"type": "pass_turn", "actor": "bruno"}, {"If-Match": "1"}),
        404,
        "not_found",
    )
    after = await alpha.combat(cid)
    assert after["version"] == before["version"]
    assert after["turn"]["actor"] == "bruno"

    # beta's lists do not hold alpha's combat, whatever the filter.
    for params in ({}, {"room": room}, {"room": room, "active": "true"}, {"active": "true"}):
        listed = expect(await spy.get("/v1/combats", params=params), 200).json()["combats"]
        assert cid not in [c["id"] for c in listed], params

    # Same character ids in beta are beta's own characters: alpha's are untouched.
    await beta.register("ana", vel=9, vit=50)
    await beta.register("bruno", vel=5)
    assert expect(await alpha.client.get("/v1/characters/ana"), 200).json()["stats"]["vit"] == 1000
    assert expect(await spy.get("/v1/characters/ana"), 200).json()["stats"]["vit"] == 50

    # beta's stream, read from its very beginning, up to beta's own combat in the same room:
    # nothing of alpha's, although alpha's events were published first.
    own = await beta.start_challenge("ana", "bruno", room=room)

    def reached_own_start(received: list[Sse]) -> bool:
        return any(
            sse.event == "combat.started" and sse.data["combat_id"] == own["id"] for sse in received
        )

    for params in ({}, {"room": room}):
        received = await read_sse(
            spy, params=params, last_event_id="0-0", until=reached_own_start, within=10
        )
        assert {sse.data["combat_id"] for sse in received} == {own["id"]}, params
        assert action_id not in {sse.data["correlation_id"] for sse in received}

    # alpha's own stream does hold its combat (so the check above is not vacuous).
    def reached_pass(received: list[Sse]) -> bool:
        return any(sse.data["correlation_id"] == action_id for sse in received)

    mine = await read_sse(
        alpha.client, params={"room": room}, last_event_id="0-0", until=reached_pass, within=10
    )
    assert {sse.data["combat_id"] for sse in mine} == {cid}
