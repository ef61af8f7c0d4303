"""Event streams under idle time, crowds and bad resume points (issue 12, defects 1, 4, 5).

An idle stream stays open (keep-alive comments) and still delivers; hundreds of idle
viewers share one reader of the community's stream, so they cost no Redis connection and
plain requests keep working with a small pool; every stream opens with its position, so a
client that has seen no event yet misses nothing when it reconnects; a malformed or
out-of-range resume point is 422, and one in the future gets ``stream.reset`` then live
events.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx
import pytest

from tests.e2e.referee import HttpCommunity, Referee, start_suite, stop_suite, wait_until
from tests.support.play import error_of, expect, unique
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]

KEEPALIVE = 2
POOL = 32
VIEWERS = 300


@pytest.fixture(scope="module")
async def streams_suite(
    rabbitmq_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Suite]:
    """Keep-alives every 2 s, a gateway Redis pool of 32 and no per-key limit in the way."""
    running = await start_suite(
        rabbitmq_url,
        redis_url,
        tmp_path_factory.mktemp("e2e-streams"),
        extra_env={
            "REFEREE_SSE_KEEPALIVE_SECONDS": str(KEEPALIVE),
            "REFEREE_REDIS_MAX_CONNECTIONS": str(POOL),
            "REFEREE_RATE_PER_SECOND": "100000",
            "REFEREE_RATE_BURST": "100000",
        },
    )
    try:
        yield running
    finally:
        await stop_suite(running)


@pytest.fixture(scope="module")
async def api(streams_suite: Suite) -> AsyncIterator[Referee]:
    referee = Referee(streams_suite)
    try:
        yield referee
    finally:
        await referee.aclose()


@dataclass
class Received:
    """What one stream delivered, as the wire has it (events and comments)."""

    events: list[tuple[str, str, dict[str, object]]] = field(default_factory=list)
    comments: list[float] = field(default_factory=list)
    retry: int | None = None

    def types(self) -> list[str]:
        return [event for _, event, _ in self.events]


async def watch(
    client: httpx.AsyncClient,
    received: Received,
    *,
    params: dict[str, str],
    headers: dict[str, str] | None = None,
    stop: str,
) -> None:
    """Read ``GET /v1/events`` into ``received`` until an event of type ``stop`` arrives."""
    async with client.stream(
        "GET",
        "/v1/events",
        params=params,
        headers=headers or {},
        timeout=httpx.Timeout(10.0, read=None),
    ) as response:
        expect(response, 200)
        fields: dict[str, str] = {}
        async for line in response.aiter_lines():
            if line.startswith(":"):
                received.comments.append(time.monotonic())
            elif line:
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
            elif fields:
                if "retry" in fields:
                    received.retry = int(fields["retry"])
                if "event" in fields:
                    data = json.loads(fields.get("data", "null"))
                    received.events.append((fields.get("id", ""), fields["event"], data))
                    if fields["event"] == stop:
                        return
                fields = {}
    raise AssertionError(f"the stream ended before {stop}: {received.types()}")


async def start_combat(community: HttpCommunity, room: str) -> str:
    ana, bruno = unique("ana"), unique("bruno")
    await community.register(ana)
    await community.register(bruno)
    return str((await community.start_challenge(ana, bruno, room=room))["id"])


async def test_an_idle_stream_stays_open_past_the_redis_timeout_then_delivers(
    api: Referee,
) -> None:
    community = await api.new_community()
    room = unique("quiet")
    received = Received()
    opened = time.monotonic()
    task = asyncio.create_task(
        watch(community.client, received, params={"room": room}, stop="combat.started")
    )
    try:

        async def idle_long_enough() -> bool | None:
            if task.done():
                task.result()  # the stream ended: raise what it raised
            idle = time.monotonic() - opened >= 9 and len(received.comments) >= 3
            return True if idle else None

        await wait_until(idle_long_enough, within=30, what="9 s of keep-alives", every=0.2)
        assert received.types() == ["stream.opened"]
        assert received.retry is not None and received.retry > 0
        await start_combat(community, room)
        async with asyncio.timeout(15):
            await task
    finally:
        task.cancel()
    assert received.types() == ["stream.opened", "combat.started"]


async def test_hundreds_of_idle_viewers_share_one_reader_and_requests_still_flow(
    api: Referee, streams_suite: Suite
) -> None:
    community = await api.new_community()
    room = unique("crowd")
    limits = httpx.Limits(max_connections=VIEWERS + 20, max_keepalive_connections=VIEWERS + 20)
    viewers = httpx.AsyncClient(
        base_url=streams_suite.base_url,
        headers={"Authorization": f"Bearer {community.api_key}"},
        limits=limits,
    )
    before = expect(await community.client.get("/metrics"), 200).text
    crowd = [Received() for _ in range(VIEWERS)]
    tasks = [
        asyncio.create_task(watch(viewers, got, params={"room": room}, stop="combat.started"))
        for got in crowd
    ]
    try:

        async def all_open() -> bool | None:
            for task in tasks:
                if task.done():
                    task.result()
            return True if all(got.events for got in crowd) else None

        await wait_until(all_open, within=60, what=f"{VIEWERS} streams opened", every=0.2)
        # Every viewer is open and idle: plain requests still get a Redis connection.
        for _ in range(20):
            expect(await community.client.get("/v1/settings"), 200)
        metrics = expect(await community.client.get("/metrics"), 200).text
        assert gauge(metrics, "referee_sse_viewers") >= VIEWERS
        # One more reader for this community, whatever the number of its viewers (another
        # community's reader may stop meanwhile: it lingers only a while after its viewers).
        readers = gauge(metrics, "referee_sse_readers") - gauge(before, "referee_sse_readers")
        assert readers <= 1
        await start_combat(community, room)
        async with asyncio.timeout(30):
            await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await viewers.aclose()
    assert all(got.types() == ["stream.opened", "combat.started"] for got in crowd)

    async def released() -> bool | None:
        now = expect(await community.client.get("/metrics"), 200).text
        gone = gauge(now, "referee_sse_viewers") <= gauge(before, "referee_sse_viewers")
        return True if gone else None

    await wait_until(released, within=20, what="the viewers to leave the fan-out", every=0.2)


def gauge(metrics: str, name: str) -> float:
    for line in metrics.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} not in /metrics")


async def test_a_client_that_saw_no_event_misses_nothing_when_it_reconnects(
    api: Referee,
) -> None:
    community = await api.new_community()
    room = unique("gap")
    first = Received()
    await watch(community.client, first, params={"room": room}, stop="stream.opened")
    position = first.events[0][0]
    assert position, "stream.opened carries the stream's position as its id"
    await start_combat(community, room)  # published while the client is away

    again = Received()
    async with asyncio.timeout(15):
        await watch(
            community.client,
            again,
            params={"room": room},
            headers={"Last-Event-ID": position},
            stop="combat.started",
        )
    assert again.types() == ["stream.opened", "combat.started"]


@pytest.mark.parametrize(
    "resume",
    ["99999999999999999999-0", "1-99999999999999999999", "abc", "1-", "-1-0"],
    ids=["ms-overflow", "seq-overflow", "text", "no-seq", "negative"],
)
async def test_a_malformed_or_out_of_range_resume_point_is_422(api: Referee, resume: str) -> None:
    community = await api.new_community()
    cid = await start_combat(community, unique("r"))
    client = community.client
    error_of(
        await client.get("/v1/events", headers={"Last-Event-ID": resume}), 422, "invalid_request"
    )
    error_of(await client.get("/v1/events", params={"since": resume}), 422, "invalid_request")
    error_of(
        await client.get(f"/v1/combats/{cid}/log", params={"after": resume}),
        422,
        "invalid_request",
    )


async def test_a_resume_point_in_the_future_gets_a_reset_then_live_events(api: Referee) -> None:
    community = await api.new_community()
    room = unique("future")
    future = f"{int(time.time() * 1000) + 10**9}-0"
    received = Received()
    task = asyncio.create_task(
        watch(
            community.client,
            received,
            params={"room": room},
            headers={"Last-Event-ID": future},
            stop="combat.started",
        )
    )
    try:

        async def reset() -> bool | None:
            if task.done():
                task.result()
            return True if received.events else None

        await wait_until(reset, within=10, what="the first event")
        resume_id, kind, data = received.events[0]
        assert kind == "stream.reset", received.types()
        assert isinstance(data, dict) and data["reason"] == "ahead" and data["requested"] == future
        assert resume_id != future
        await start_combat(community, room)
        async with asyncio.timeout(15):
            await task
    finally:
        task.cancel()
    assert received.types() == ["stream.reset", "combat.started"]


@pytest.fixture
async def own(
    rabbitmq_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Suite]:
    running = await start_suite(rabbitmq_url, redis_url, tmp_path_factory.mktemp("e2e-stop"))
    try:
        yield running
    finally:
        await stop_suite(running)


async def test_the_gateway_stops_on_sigterm_while_streams_are_open(own: Suite) -> None:
    """Open streams do not hold the gateway's shutdown (Ctrl-C under make run, a deploy)."""
    referee = Referee(own)
    try:
        community = await referee.new_community()
        received = Received()
        task = asyncio.create_task(
            watch(community.client, received, params={}, stop="never.arrives")
        )
        await wait_until(lambda: _opened(received), within=10, what="the stream to open", every=0.1)
        gateway = own.procs["gateway"]
        gateway.terminate()
        try:
            await asyncio.to_thread(gateway.wait, 15)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    finally:
        await referee.aclose()


async def _opened(received: Received) -> bool | None:
    return True if received.events else None
