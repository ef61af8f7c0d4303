"""Races and guesses on actions (issue 12, defects 6 and 7).

Two actions sent at once with the same ``If-Match``: one wins, the other gets 409
``version_mismatch`` (the precondition is checked before the rules, by the service that
commits). The outcome of an action id nobody sent is 404, not "pending" forever.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from tests.e2e.referee import HttpCommunity, Referee, start_suite, stop_suite, wait_until
from tests.support.play import error_of, expect, unique
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]

PAIRS = 10


async def fighting_pair(community: HttpCommunity) -> tuple[str, str, str, int]:
    ana, bruno = unique("ana"), unique("bruno")
    await community.register(ana, vel=6)
    await community.register(bruno, vel=5)
    cid = (await community.start_challenge(ana, bruno))["id"]
    combat = await community.wait_turn(cid, ana, 1)
    return cid, ana, bruno, int(combat["version"])


async def test_two_actions_with_one_if_match_give_one_success_and_one_version_mismatch(
    referee: Referee,
) -> None:
    async def prepared() -> tuple[HttpCommunity, str, str, int]:
        community = await referee.new_community()  # a key each: the pairs race, not the limiter
        cid, ana, _, version = await fighting_pair(community)
        return community, cid, ana, version

    combats = await asyncio.gather(*(prepared() for _ in range(PAIRS)))

    async def race(
        community: HttpCommunity, cid: str, ana: str, version: int
    ) -> list[tuple[int, str]]:
        headers = {"If-Match": str(version)}
        bodies = [
            {"type": "pass_turn", "actor": ana},
            {"type": "skill", "actor": ana, "skill": "Concentración"},
        ]
        answers = await asyncio.gather(*(community.act(cid, b, headers) for b in bodies))
        return [
            (a.status_code, a.json()["error"]["code"] if a.status_code >= 400 else "ok")
            for a in answers
        ]

    results = await asyncio.gather(*(race(*prepared_pair) for prepared_pair in combats))
    for outcome in results:
        assert sorted(outcome) == [(200, "ok"), (409, "version_mismatch")], results


async def test_an_unknown_action_id_is_404(referee: Referee) -> None:
    community = await referee.new_community()
    cid, ana, _, _ = await fighting_pair(community)
    nobody_sent = "a_" + uuid.uuid4().hex
    answer = await community.client.get(f"/v1/combats/{cid}/actions/{nobody_sent}")
    error_of(answer, 404, "not_found")
    # A known action answers with its outcome.
    passed = await community.pass_turn(cid, ana)
    known = await community.client.get(f"/v1/combats/{cid}/actions/{passed['action_id']}")
    assert expect(known, 200).json()["status"] == "completed"
    # An action of this combat is unknown on another combat of the community.
    other, *_ = await fighting_pair(community)
    elsewhere = await community.client.get(f"/v1/combats/{other}/actions/{passed['action_id']}")
    error_of(elsewhere, 404, "not_found")


@pytest.fixture
async def quick_202(
    rabbitmq_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Suite]:
    """A suite of its own (a test kills a service) that answers 202 after 1 s."""
    running = await start_suite(
        rabbitmq_url,
        redis_url,
        tmp_path_factory.mktemp("e2e-races"),
        extra_env={"REFEREE_REQUEST_TIMEOUT": "1"},
    )
    try:
        yield running
    finally:
        await stop_suite(running)


async def test_an_action_in_flight_is_pending_then_completed(quick_202: Suite) -> None:
    api = Referee(quick_202)
    try:
        community = await api.new_community()
        cid, ana, _, _ = await fighting_pair(community)
        # A hung turns (not a dead one: a service without consumers is refused with 503 at
        # once) keeps the command in flight past the gateway's wait.
        quick_202.freeze("turns")
        try:
            answer = expect(await community.act(cid, {"type": "pass_turn", "actor": ana}), 202)
            location = answer.headers["Location"]
            status = expect(await community.client.get(location), 200).json()["status"]
            assert status == "pending"
        finally:
            quick_202.thaw("turns")

        seen: list[str] = []

        async def completed() -> bool | None:
            status = expect(await community.client.get(location), 200).json()["status"]
            seen.append(status)
            return True if status == "completed" else None

        try:
            await wait_until(completed, within=45, what="the action to complete once turns goes on")
        except AssertionError as failed:
            # Seen once under `make test` on a 2-core machine, never alone: say what happened.
            log = expect(await community.client.get(f"/v1/combats/{cid}/log"), 200).json()
            types = [e["type"] for e in log["events"]][-8:]
            raise AssertionError(
                f"{failed}; statuses {seen[-3:]}; log ends {types}; turns pid alive: "
                f"{quick_202.procs['turns'].poll() is None}"
            ) from None
    finally:
        await api.aclose()
