"""Issue 16: one trace from a gateway request, across RabbitMQ, into the service that handles
its command, with that service's Redis calls in it.

The real gateway app (in process, over httpx's ASGI transport) and the three real services
(their runtimes consuming their partitions, as ``shared/service_main.py`` wires them) talk
over the real broker and store; tracing is on with the SDK's in-memory exporter.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind
from redis.asyncio import Redis

from gateway.app import create_app
from services.resolution.handlers import spec as resolution_spec
from services.states.handlers import spec as states_spec
from services.turns.handlers import spec as turns_spec
from shared import tracing
from shared.bus import Bus
from shared.keys import Keys
from shared.runtime import RedisServiceRuntime
from shared.settings import GatewaySettings
from tests.integration.conftest import PARTITIONS
from tests.support.play import challenge_body, expect
from tests.support.sheets import umh_sheet
from tests.support.wait import eventually

pytestmark = pytest.mark.integration

ADMIN = "tracing-admin-token-0123456789abcdef"


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    started = tracing.start("test", exporter=exporter)
    assert started is not None
    try:
        yield exporter
    finally:
        started.close()


@pytest.fixture
async def services(
    spans: InMemorySpanExporter, rabbitmq_url: str, redis: Redis, namespace: str
) -> AsyncIterator[None]:
    """turns, resolution and states, each on a bus of its own, consuming their partitions."""
    keys = Keys(namespace)
    buses: list[Bus] = []
    try:
        for make_spec in (turns_spec, resolution_spec, states_spec):
            bus = Bus(
                rabbitmq_url,
                namespace=namespace,
                partitions=PARTITIONS,
                delivery_limit=3,
                publish_timeout=5.0,
            )
            buses.append(bus)
            await bus.connect()
            await bus.declare_topology()
            runtime = RedisServiceRuntime(
                make_spec(keys), redis=redis, bus=bus, keys=keys, retention_seconds=60
            )
            await bus.consume_service(runtime.spec.name, runtime.handle)
        yield
    finally:
        for bus in buses:
            await bus.close()


@pytest.fixture
async def gateway(
    services: None, bus: Bus, rabbitmq_url: str, redis_url: str, namespace: str
) -> AsyncIterator[httpx.AsyncClient]:
    """The gateway app with its lifespan (the ``bus`` fixture removes the namespace's queues
    and exchanges afterwards)."""
    settings = GatewaySettings(
        referee_namespace=namespace,
        rabbitmq_url=rabbitmq_url,
        redis_url=redis_url,
        referee_partitions=PARTITIONS,
        referee_delivery_limit=3,  # as the bus fixture declared the queues
        referee_admin_token=ADMIN,
    )
    app = create_app(settings)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://gw") as client,
    ):
        yield client


def is_redis(span: ReadableSpan) -> bool:
    """A span of the redis-py instrumentation (on a cluster it names no ``db.system``)."""
    scope = span.instrumentation_scope
    return scope is not None and scope.name == "opentelemetry.instrumentation.redis"


def ancestors(span: ReadableSpan, by_id: dict[int, ReadableSpan]) -> list[ReadableSpan]:
    chain: list[ReadableSpan] = []
    while span.parent is not None and span.parent.span_id in by_id:
        span = by_id[span.parent.span_id]
        chain.append(span)
    return chain


async def test_a_requests_trace_goes_on_in_the_service_and_covers_its_redis_calls(
    gateway: httpx.AsyncClient, spans: InMemorySpanExporter, namespace: str
) -> None:
    admin = {"Authorization": f"Bearer {ADMIN}"}
    created = expect(
        await gateway.post("/v1/admin/communities", json={"name": "Traced"}, headers=admin), 201
    ).json()
    gateway.headers["Authorization"] = f"Bearer {created['api_key']}"
    for name in ("ana", "bruno"):
        sheet = umh_sheet(name.capitalize(), vel=6)
        expect(await gateway.put(f"/v1/characters/{name}", json=sheet), 201)
    spans.clear()

    expect(await gateway.post("/v1/combats", json=challenge_body("ana", "bruno")), 201)

    def request_span() -> ReadableSpan | None:
        return next(
            (
                s
                for s in spans.get_finished_spans()
                if s.kind is SpanKind.SERVER
                and (s.attributes or {}).get("http.route") == "/v1/combats"
            ),
            None,
        )

    await eventually(lambda: request_span() is not None)
    request = request_span()
    assert request is not None and request.context is not None
    trace_id = request.context.trace_id
    commands = f"{namespace}.turns.commands"

    def handled() -> list[ReadableSpan]:
        """The Redis calls made while turns handled a message of this trace."""
        found = [s for s in spans.get_finished_spans() if s.context is not None]
        by_id = {s.context.span_id: s for s in found if s.context is not None}
        return [
            s
            for s in found
            if s.context is not None
            and s.context.trace_id == trace_id
            and is_redis(s)
            and any(
                a.kind is SpanKind.CONSUMER and a.name.startswith(commands)
                for a in ancestors(s, by_id)
            )
        ]

    await eventually(lambda: len(handled()) > 0)
    by_id = {s.context.span_id: s for s in spans.get_finished_spans() if s.context is not None}
    chain = ancestors(handled()[0], by_id)
    # turns' Redis call <- its consumer span <- the gateway's publish <- the HTTP request.
    assert [a.kind for a in chain] == [SpanKind.CONSUMER, SpanKind.PRODUCER, SpanKind.SERVER]
    assert chain[1].name.startswith(commands) and chain[-1] is request
