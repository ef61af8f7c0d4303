"""Issue 16, item 5, the gateway's side: a command for a service without consumers is
refused with 503 and ``Retry-After``; request ids; ``/metrics`` behind its token."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
import structlog
from starlette.types import Message, Receive, Scope, Send

from gateway import availability as availability_module
from gateway.availability import Availability, service_state
from gateway.errors import ApiError
from gateway.request_ids import RequestIdMiddleware, request_id
from gateway.routes.ops import metrics
from shared.keys import Names


class FakeBus:
    def __init__(self, counts: dict[str, int], connected: bool = True) -> None:
        self.names = Names("ns")
        self.partitions = 2
        self.is_connected = connected
        self.counts = counts
        self.asked = 0

    async def consumer_counts(self, queue_names: list[str]) -> dict[str, int]:
        self.asked += 1
        return {name: self.counts.get(name, 0) for name in queue_names}


@pytest.mark.parametrize(
    ("counts", "state"),
    [
        pytest.param({"a": 1, "b": 2}, "ok", id="every-partition-consumed-is-ok"),
        pytest.param({"a": 1, "b": 0}, "no consumer on 1 of 2 queues", id="one-idle-partition"),
        pytest.param({"a": 0, "b": 0}, "no consumer on 2 of 2 queues", id="service-down"),
    ],
)
def test_service_state(counts: dict[str, int], state: str) -> None:
    assert service_state(counts) == state


async def test_a_command_for_a_service_without_consumers_gets_503_with_retry_after() -> None:
    bus = FakeBus({"ns.turns.p000": 1, "ns.turns.p001": 1})
    availability = Availability(bus)  # type: ignore[arg-type]
    await availability.require("turns")
    with pytest.raises(ApiError) as refused:
        await availability.require("states")
    assert refused.value.status == 503
    assert refused.value.headers == {"Retry-After": "5"}
    assert refused.value.details["service"] == "states"


async def test_consumer_counts_are_cached_for_a_second() -> None:
    now = [100.0]
    bus = FakeBus({})
    availability = Availability(bus, clock=lambda: now[0])  # type: ignore[arg-type]
    await availability.state("turns")
    await availability.state("turns")
    assert bus.asked == 1
    now[0] += 1.5
    await availability.state("turns")
    assert bus.asked == 2


async def test_a_disconnected_bus_makes_every_command_wait_for_retry() -> None:
    availability = Availability(FakeBus({}, connected=False))  # type: ignore[arg-type]
    assert (await availability.state("turns")).startswith("unknown")
    with pytest.raises(ApiError):
        await availability.require("turns")


class SlowBus(FakeBus):
    """A broker that answers the passive declares only when ``release`` is set."""

    def __init__(self, counts: dict[str, int]) -> None:
        super().__init__(counts)
        self.release = asyncio.Event()
        self.cancelled = 0

    async def consumer_counts(self, queue_names: list[str]) -> dict[str, int]:
        self.asked += 1
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        return {name: self.counts.get(name, 0) for name in queue_names}


async def test_one_read_in_flight_whoever_asks_and_a_late_one_is_never_cancelled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """200 commands at once ask once; giving up on a slow broker does not cancel the
    passive declares (a cancelled one made RabbitMQ close the gateway's connection)."""
    monkeypatch.setattr(availability_module, "WAIT_SECONDS", 0.05)
    bus = SlowBus({"ns.turns.p000": 1, "ns.turns.p001": 1})
    availability = Availability(bus)  # type: ignore[arg-type]
    states = await asyncio.gather(*(availability.state("turns") for _ in range(200)))
    assert bus.asked == 1
    assert set(states) == {"unknown: the consumer counts are late"}
    assert bus.cancelled == 0
    bus.release.set()
    await asyncio.sleep(0.01)
    assert await availability.state("turns") == "ok"
    assert bus.asked == 1 and bus.cancelled == 0


async def test_a_late_read_refuses_the_command_and_is_taken_when_it_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(availability_module, "WAIT_SECONDS", 0.05)
    now = [100.0]
    bus = SlowBus({"ns.turns.p000": 1, "ns.turns.p001": 1})
    bus.release.set()
    availability = Availability(bus, clock=lambda: now[0])  # type: ignore[arg-type]
    assert await availability.state("turns") == "ok"
    bus.release.clear()
    now[0] += 1.5
    with pytest.raises(ApiError) as refused:
        await availability.require("turns")
    assert refused.value.status == 503
    bus.release.set()
    await asyncio.sleep(0.01)
    assert await availability.state("turns") == "ok"
    assert bus.asked == 2 and bus.cancelled == 0


@pytest.mark.parametrize(
    ("offered", "kept"),
    [
        pytest.param("abc-123_def.456", True, id="a-proxy-id-goes-on"),
        pytest.param("short", False, id="too-short-is-replaced"),
        pytest.param("x" * 65, False, id="too-long-is-replaced"),
        pytest.param("has spaces in it", False, id="not-a-token-is-replaced"),
        pytest.param(None, False, id="none-gets-a-fresh-one"),
    ],
)
def test_request_id(offered: str | None, kept: bool) -> None:
    rid = request_id(offered)
    assert (rid == offered) is kept
    if not kept:
        assert len(rid) == 32


async def test_every_log_line_of_a_request_carries_its_id() -> None:
    seen: list[dict[str, Any]] = []
    sent: list[Message] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(structlog.contextvars.get_contextvars())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    async def send(message: Message) -> None:
        sent.append(message)

    scope = {"type": "http", "headers": [(b"x-request-id", b"from-the-proxy-1")]}
    await RequestIdMiddleware(app)(scope, receive, send)
    assert (b"x-request-id", b"from-the-proxy-1") in sent[0]["headers"]
    assert seen[0]["request_id"] == "from-the-proxy-1"
    assert "request_id" not in structlog.contextvars.get_contextvars()


def gateway_with(token: str, env: str = "test") -> Any:
    return SimpleNamespace(settings=SimpleNamespace(referee_metrics_token=token, referee_env=env))


@pytest.mark.parametrize(
    ("token", "env", "authorization", "status"),
    [
        pytest.param("", "test", None, 200, id="no-token-development-open"),
        pytest.param("", "production", None, 404, id="no-token-production-not-served"),
        pytest.param("s3cret", "production", "Bearer s3cret", 200, id="right-token"),
        pytest.param("s3cret", "test", "Bearer wrong", 401, id="wrong-token"),
        pytest.param("s3cret", "test", None, 401, id="missing-token"),
    ],
)
async def test_metrics_behind_a_token(
    token: str, env: str, authorization: str | None, status: int
) -> None:
    try:
        answer = await metrics(gateway_with(token, env), authorization)
    except ApiError as exc:
        assert exc.status == status
    else:
        assert status == 200 and answer.status_code == 200
