"""Webhooks (docs/webhooks.md) against a real HTTP receiver that fails on purpose: Standard
Webhooks signatures checked with the ``standardwebhooks`` package, retries with backoff,
failed deliveries listed and sent again by hand, the schedule surviving a gateway crash, and
URLs the gateway refuses to call."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from standardwebhooks.webhooks import Webhook

from tests.e2e.referee import HttpCommunity, Referee, start_suite, stop_suite, wait_until
from tests.support.play import error_of, expect, unique
from tests.support.receiver import Delivered, Receiver, receiving
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]

JSON = dict[str, Any]
# Seconds of retries: attempts at 0, 0.3, 0.9, 2.1 s, then every 2 s until 20 s, then failed
# (long enough for a gateway to come back from a crash on a busy machine).
RETRY_FOR = 20.0


@pytest.fixture(scope="module")
async def hooks_suite(
    rabbitmq_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Suite]:
    """Webhooks may call loopback (the receiver), attempts time out after 2 s, retries come
    fast and stop after RETRY_FOR seconds."""
    running = await start_suite(
        rabbitmq_url,
        redis_url,
        tmp_path_factory.mktemp("e2e-webhooks"),
        extra_env={
            "REFEREE_WEBHOOK_ALLOW_PRIVATE": "true",
            "REFEREE_WEBHOOK_TIMEOUT_SECONDS": "2",
            "REFEREE_WEBHOOK_RETRY_BASE_SECONDS": "0.3",
            "REFEREE_WEBHOOK_RETRY_CAP_SECONDS": "2",
            "REFEREE_WEBHOOK_RETRY_FOR_SECONDS": str(RETRY_FOR),
            "REFEREE_WEBHOOK_POLL_SECONDS": "0.05",
        },
    )
    try:
        yield running
    finally:
        await stop_suite(running)


@pytest.fixture(scope="module")
async def api(hooks_suite: Suite) -> AsyncIterator[Referee]:
    referee = Referee(hooks_suite)
    try:
        yield referee
    finally:
        await referee.aclose()


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    async with receiving() as running:
        yield running


async def register(community: HttpCommunity, url: str, **body: Any) -> JSON:
    answer = await community.client.post("/v1/webhooks", json={"url": url, **body})
    created: JSON = expect(answer, 201).json()
    assert answer.headers["location"] == f"/v1/webhooks/{created['id']}"
    assert created["secret"].startswith("whsec_")
    return created


async def fight(community: HttpCommunity, room: str) -> str:
    ana, bruno = unique("ana"), unique("bruno")
    await community.register(ana)
    await community.register(bruno)
    return str((await community.start_challenge(ana, bruno, room=room))["id"])


async def until_answered(receiver: Receiver, path: str, answer: str, within: float = 15) -> None:
    async def probe() -> bool | None:
        return True if any(d.answered == answer for d in receiver.at(path)) else None

    await wait_until(probe, within=within, what=lambda: f"{answer} at {path}: {receiver.at(path)}")


async def deliveries(community: HttpCommunity, hook: str, **params: str) -> list[JSON]:
    answer = await community.client.get(f"/v1/webhooks/{hook}/deliveries", params=params)
    found: list[JSON] = expect(answer, 200).json()["deliveries"]
    return found


def verified(secret: str, delivered: Delivered) -> JSON:
    """The payload, once its Standard Webhooks signature checks (raises otherwise)."""
    payload: JSON = Webhook(secret).verify(delivered.body, delivered.headers)
    return payload


async def test_a_delivery_is_signed_and_retried_until_the_receiver_takes_it(
    api: Referee, receiver: Receiver
) -> None:
    community = await api.new_community()
    path, room = f"/{unique('hook')}", unique("room")
    receiver.plan(path, "fail", "fail")
    hook = await register(
        community, receiver.url(path), event_types=["combat.started"], rooms=[room]
    )
    await fight(community, unique("elsewhere"))  # another room: never delivered
    cid = await fight(community, room)
    await until_answered(receiver, path, "ok")

    got = receiver.at(path)
    # (on a busy machine an attempt may also time out: it is then tried once more)
    assert [d.answered for d in got][:3] == ["fail", "fail", "ok"]
    payloads = [verified(hook["secret"], d) for d in got]
    assert len({d.headers["webhook-id"] for d in got}) == 1  # one delivery, three attempts
    assert len({d.body for d in got}) == 1
    assert all(d.headers["content-type"] == "application/json" for d in got)
    (started,) = [e for e in await community.events_of(cid) if e["type"] == "combat.started"]
    assert payloads[0] == {k: v for k, v in started.items() if k != "log_id"}
    assert payloads[0]["text"].endswith(".")  # told in the community's language, as the log
    with pytest.raises(Exception, match="signature"):
        Webhook("whsec_" + "A" * 44).verify(got[0].body, got[0].headers)

    (listed,) = await deliveries(community, hook["id"], status="delivered")
    assert listed["id"] == got[0].headers["webhook-id"]
    assert listed["event_type"] == "combat.started" and listed["event_id"] == started["id"]
    codes = [a["status_code"] for a in listed["attempts"]]
    assert codes[:2] == [500, 500] and codes[-1] == 200 and set(codes[2:-1]) <= {None}
    assert listed["next_attempt_at"] is None
    detail = await community.client.get(f"/v1/webhooks/{hook['id']}/deliveries/{listed['id']}")
    assert expect(detail, 200).json()["body"] == got[0].body.decode()


async def test_a_receiver_that_times_out_is_tried_again(api: Referee, receiver: Receiver) -> None:
    community = await api.new_community()
    path, room = f"/{unique('hook')}", unique("room")
    receiver.slow_seconds = 5  # past the 2 s an attempt may take
    receiver.plan(path, "slow")
    hook = await register(community, receiver.url(path), event_types=["combat.started"])
    await fight(community, room)
    await until_answered(receiver, path, "ok")
    (listed,) = await deliveries(community, hook["id"])
    first, *_, last = listed["attempts"]
    assert first["status_code"] is None and "timed out" in first["error"]
    assert last["status_code"] == 200 and listed["status"] == "delivered"


async def test_a_delivery_that_keeps_failing_is_listed_and_sent_again_by_hand(
    api: Referee, receiver: Receiver
) -> None:
    community = await api.new_community()
    path = f"/{unique('hook')}"
    receiver.plan(path, then="fail")
    hook = await register(community, receiver.url(path), event_types=["combat.started"])
    await fight(community, unique("room"))

    async def failed() -> list[JSON] | None:
        return await deliveries(community, hook["id"], status="failed") or None

    (gave_up,) = await wait_until(failed, within=RETRY_FOR + 10, what="a failed delivery")
    assert gave_up["status"] == "failed" and gave_up["next_attempt_at"] is None
    tries = len(gave_up["attempts"])
    assert tries >= 8 and all(a["status_code"] == 500 for a in gave_up["attempts"])
    assert await deliveries(community, hook["id"], status="pending") == []

    receiver.plan(path, then="ok")
    retried = await community.client.post(
        f"/v1/webhooks/{hook['id']}/deliveries/{gave_up['id']}/retry"
    )
    assert expect(retried, 202).json()["status"] == "pending"
    await until_answered(receiver, path, "ok")

    async def delivered() -> list[JSON] | None:
        return await deliveries(community, hook["id"], status="delivered") or None

    (done,) = await wait_until(delivered, within=10, what="the delivery sent by hand")
    assert len(done["attempts"]) == tries + 1 and done["attempts"][-1]["status_code"] == 200
    assert await deliveries(community, hook["id"], status="failed") == []
    bodies = {d.body for d in receiver.at(path)}
    assert len(bodies) == 1  # the same body, signed again at each attempt


async def test_webhooks_are_listed_read_and_deleted_by_moderators_only(
    api: Referee, receiver: Receiver
) -> None:
    community = await api.new_community()
    path = f"/{unique('hook')}"
    once = {"Idempotency-Key": unique("register")}
    body = {"url": receiver.url(path), "description": "bot"}
    first = await community.client.post("/v1/webhooks", json=body, headers=once)
    hook = expect(first, 201).json()
    again = await community.client.post("/v1/webhooks", json=body, headers=once)
    assert expect(again, 201).json() == hook  # a retried registration is the same webhook
    assert again.headers["location"] == f"/v1/webhooks/{hook['id']}"
    assert hook["event_types"] == ["*"] and hook["rooms"] is None
    listed = expect(await community.client.get("/v1/webhooks"), 200).json()["webhooks"]
    assert [h["id"] for h in listed] == [hook["id"]]
    assert "secret" not in listed[0]
    read = expect(await community.client.get(f"/v1/webhooks/{hook['id']}"), 200).json()
    assert read == listed[0]

    frontend = api.client(await community.key("frontend"))
    error_of(await frontend.get("/v1/webhooks"), 403, "forbidden")
    error_of(await frontend.post("/v1/webhooks", json={"url": hook["url"]}), 403, "forbidden")
    other = await api.new_community()
    error_of(await other.client.get(f"/v1/webhooks/{hook['id']}"), 404, "not_found")

    expect(await community.client.delete(f"/v1/webhooks/{hook['id']}"), 204)
    error_of(await community.client.get(f"/v1/webhooks/{hook['id']}"), 404, "not_found")
    gone = await community.client.get(f"/v1/webhooks/{hook['id']}/deliveries")
    error_of(gone, 404, "not_found")
    await fight(community, unique("room"))  # nothing is sent to a deleted webhook
    await asyncio.sleep(0)  # (the next test's deliveries go to other paths)
    assert receiver.at(path) == []


@pytest.mark.parametrize(
    "url",
    [
        "ftp://bot.example.org/hook",
        "http://user:secret@bot.example.org/hook",
        "bot.example.org/hook",
        "http://127.0.0.1:9/hook",
        "http://10.1.2.3/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/hook",
        "http://localhost:9/hook",
    ],
    ids=["ftp", "credentials", "no-scheme", "loopback", "private", "metadata", "ipv6", "name"],
)
async def test_the_gateway_refuses_urls_it_must_not_call(referee: Referee, url: str) -> None:
    """On a suite that does not allow private addresses (the default)."""
    community = await referee.new_community()
    answer = await community.client.post("/v1/webhooks", json={"url": url})
    error_of(answer, 422, "webhook_url_forbidden")


async def test_deliveries_survive_a_gateway_crash(
    api: Referee, hooks_suite: Suite, receiver: Receiver
) -> None:
    """The schedule is in Redis: a delivery still failing when the gateway dies is delivered
    by the gateway that comes back. A kill that lands while an attempt holds the delivery's
    lease (the attempt's timeout, 2 s here, plus 20 s: gateway/app.py) leaves it to the lease
    to run out first, so the wait allows for it (it once timed out after 15 s, one run in
    four)."""
    community = await api.new_community()
    path = f"/{unique('hook')}"
    receiver.plan(path, then="fail")
    await register(community, receiver.url(path), event_types=["combat.started"])
    await fight(community, unique("room"))
    await until_answered(receiver, path, "fail")
    hooks_suite.kill("gateway")
    receiver.plan(path, then="ok")
    hooks_suite.restart("gateway")
    await asyncio.to_thread(hooks_suite.wait_ready)
    await until_answered(receiver, path, "ok", within=2 + 20 + 10)
