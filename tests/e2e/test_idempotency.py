"""docs/api.md "Idempotency, versions and slow answers": Idempotency-Key and If-Match."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from tests.e2e.referee import Referee
from tests.support.play import challenge_body, error_of, expect, of_type, unique

pytestmark = [pytest.mark.e2e]


async def test_idempotency_key_replays_the_first_answer_and_applies_nothing_twice(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    room = unique("room")
    body = challenge_body("ana", "bruno", room=room)
    start_key = {"Idempotency-Key": f"start-{uuid.uuid4()}"}

    # Starting a combat twice with the same key: the same combat, once.
    first = expect(await community.client.post("/v1/combats", json=body, headers=start_key), 201)
    again = expect(await community.client.post("/v1/combats", json=body, headers=start_key), 201)
    assert "idempotent-replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    cid = first.json()["id"]
    listed = expect(await community.client.get("/v1/combats", params={"room": room}), 200)
    assert [c["id"] for c in listed.json()["combats"]] == [cid]

    # An action twice with the same key: one action.declared, PA spent once.
    await community.wait_turn(cid, "ana", 1)
    act_key = {"Idempotency-Key": f"act-{uuid.uuid4()}"}
    skill = {"type": "skill", "actor": "ana", "skill": "Concentración", "targets": []}
    done = expect(await community.act(cid, skill, act_key), 200)
    replayed = expect(await community.act(cid, skill, act_key), 200)
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.json() == done.json()
    action_id = done.json()["action_id"]
    events = await community.events_of(cid)
    declared = of_type(events, "action.declared")
    assert [e["data"]["action_id"] for e in declared] == [action_id]
    combat = await community.combat(cid)
    assert combat["participants"]["ana"]["pa"] == 10 - 4

    # The same key with another body: refused, and nothing happens.
    reused = await community.act(cid, {"type": "pass_turn", "actor": "ana"}, act_key)
    error_of(reused, 422, "idempotency_key_reused")
    unchanged = await community.combat(cid)
    assert unchanged["version"] == combat["version"]
    assert unchanged["turn"]["actor"] == "ana"
    assert len(await community.events_of(cid)) == len(events)

    # Keys are scoped to the community: another one's same key and body is a new request.
    other = await referee.new_community()
    await other.register("ana", vel=6)
    await other.register("bruno", vel=5)
    theirs = expect(await other.client.post("/v1/combats", json=body, headers=start_key), 201)
    assert "idempotent-replayed" not in theirs.headers
    assert theirs.json()["id"] != cid


async def test_concurrent_requests_with_one_idempotency_key_start_one_combat(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    room = unique("room")
    body = challenge_body("ana", "bruno", room=room)
    key = {"Idempotency-Key": f"burst-{uuid.uuid4()}"}

    answers = await asyncio.gather(
        *(community.client.post("/v1/combats", json=body, headers=key) for _ in range(6))
    )
    statuses = sorted(a.status_code for a in answers)
    assert set(statuses) <= {201, 409}, [a.text for a in answers]
    fresh = [a for a in answers if a.status_code == 201 and "idempotent-replayed" not in a.headers]
    assert len(fresh) == 1, [dict(a.headers) for a in answers]
    for busy in (a for a in answers if a.status_code == 409):
        error_of(busy, 409, "request_in_progress")
    ids = {a.json()["id"] for a in answers if a.status_code == 201}
    assert ids == {fresh[0].json()["id"]}
    listed = expect(await community.client.get("/v1/combats", params={"room": room}), 200)
    assert [c["id"] for c in listed.json()["combats"]] == list(ids)


async def test_if_match_with_an_old_version_is_refused_and_changes_nothing(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    current = await community.wait_turn(cid, "ana", 1)
    version = current["version"]
    log = await community.events_of(cid)
    pass_turn = {"type": "pass_turn", "actor": "ana"}

    stale = await community.act(cid, pass_turn, {"If-Match": str(version - 1)})
    error = error_of(stale, 409, "version_mismatch")
    assert error["details"] == {"expected": version - 1, "actual": version}
    unchanged = await community.combat(cid)
    assert unchanged["version"] == version
    assert unchanged["turn"] == current["turn"]
    assert await community.events_of(cid) == log

    accepted = expect(await community.act(cid, pass_turn, {"If-Match": str(version)}), 200)
    moved = accepted.json()["combat"]
    assert moved["version"] > version
    assert moved["turn"]["actor"] == "bruno"
    assert len(await community.events_of(cid)) > len(log)

    # The version it had is now old too.
    late = await community.act(
        cid, {"type": "pass_turn", "actor": "bruno"}, {"If-Match": str(version)}
    )
    assert error_of(late, 409, "version_mismatch")["details"]["actual"] == moved["version"]
