"""The RabbitMQ topology on the real broker: rooms partitioned, ordered, isolated."""

from __future__ import annotations

import asyncio
from collections import defaultdict

import aio_pika
import pytest
from prometheus_client import REGISTRY
from structlog.testing import capture_logs

from shared import delivery
from shared.bus import Bus, BusUnavailableError
from shared.messages import Envelope, new_id, utcnow
from tests.support.wait import eventually

pytestmark = pytest.mark.integration


def envelope(room: str, n: int, type_: str = "combat.act") -> Envelope:
    return Envelope(
        message_id=new_id("m"),
        type=type_,
        correlation_id=new_id("r"),
        room=room,
        tenant="t1",
        occurred_at=utcnow(),
        payload={"n": n},
    )


async def test_each_room_keeps_its_order_and_stays_in_one_partition(bus: Bus) -> None:
    seen: dict[str, list[int]] = defaultdict(list)

    async def handler(env: Envelope) -> None:
        seen[env.room].append(env.payload["n"])

    queues = await bus.consume_service("turns", handler)
    assert len(queues) == bus.partitions
    rooms = [f"room-{i}" for i in range(12)]
    for n in range(10):
        for room in rooms:
            await bus.send_command("turns", envelope(room, n))
    await eventually(lambda: sum(len(v) for v in seen.values()) == 120)
    assert all(seen[room] == list(range(10)) for room in rooms)


async def test_an_isolated_room_goes_only_to_its_own_queue(bus: Bus, rabbitmq_url: str) -> None:
    partitions: list[str] = []
    isolated: list[str] = []

    async def on_partition(env: Envelope) -> None:
        partitions.append(env.room)

    async def on_isolated(env: Envelope) -> None:
        isolated.append(env.room)

    await bus.isolate_room("turns", "busy-room")
    await bus.consume_service("turns", on_partition)
    other = Bus(
        rabbitmq_url,
        namespace=bus.names.ns,
        partitions=bus.partitions,
        delivery_limit=3,
        publish_timeout=5,
    )
    await other.connect()
    try:
        await other.consume_service("turns", on_isolated, rooms=["busy-room"])
        for n in range(5):
            await bus.send_command("turns", envelope("busy-room", n))
            await bus.send_command("turns", envelope("quiet-room", n))
        await eventually(lambda: len(partitions) == 5 and len(isolated) == 5)
        assert set(isolated) == {"busy-room"} and set(partitions) == {"quiet-room"}
    finally:
        await other.close()


async def test_an_unroutable_publish_raises_instead_of_vanishing(bus: Bus) -> None:
    channel = bus.consumer_channel()
    # An auto-delete exchange that never had a binding is never deleted: delete it ourselves.
    probe = await channel.declare_exchange(
        f"{bus.names.ns}.probe", aio_pika.ExchangeType.DIRECT, durable=False, auto_delete=True
    )
    try:
        with pytest.raises(BusUnavailableError):
            await bus.publish(f"{bus.names.ns}.probe", "nowhere", envelope("r", 0))
    finally:
        await bus.consumer_channel().exchange_delete(probe.name)


async def test_a_poison_message_is_dead_lettered_after_the_delivery_limit(bus: Bus) -> None:
    attempts: list[int] = []
    handled: list[int] = []

    async def handler(env: Envelope) -> None:
        if env.payload["n"] == 0:
            attempts.append(0)
            raise ValueError("this message always breaks its handler")
        handled.append(env.payload["n"])

    await bus.consume_service("turns", handler)
    await bus.send_command("turns", envelope("poison-room", 0))
    await bus.send_command("turns", envelope("poison-room", 1))
    dead: list[Envelope] = []
    queue = await bus.consumer_channel().declare_queue(
        bus.names.dead_queue("turns"), durable=True, arguments={"x-queue-type": "quorum"}
    )

    async def on_dead(message: aio_pika.abc.AbstractIncomingMessage) -> None:
        dead.append(Envelope.from_json(message.body))
        await message.ack()

    await bus.consume_queue(queue, on_dead)
    await eventually(lambda: len(dead) == 1 and handled == [1], within=20)
    assert dead[0].payload == {"n": 0}
    assert len(attempts) == bus.delivery_limit + 1


async def test_unparseable_bodies_go_straight_to_the_dead_letters(bus: Bus) -> None:
    await bus.consume_service("turns", lambda env: asyncio.sleep(0))
    await bus.publish_raw(bus.names.commands("turns"), "r", b"{not json", message_id="m_bad")
    queue = await bus.consumer_channel().declare_queue(
        bus.names.dead_queue("turns"), durable=True, arguments={"x-queue-type": "quorum"}
    )
    bodies: list[bytes] = []

    async def on_dead(message: aio_pika.abc.AbstractIncomingMessage) -> None:
        bodies.append(message.body)
        await message.ack()

    await bus.consume_queue(queue, on_dead)
    await eventually(lambda: bodies == [b"{not json"])


async def test_consumer_counts_show_each_partition_served(bus: Bus) -> None:
    names = [bus.names.partition("states", i) for i in range(bus.partitions)]
    assert set((await bus.consumer_counts(names)).values()) == {0}
    await bus.consume_service("states", lambda env: asyncio.sleep(0))
    assert set((await bus.consumer_counts(names)).values()) == {1}


async def test_a_stuck_handling_gives_its_message_back_and_the_partition_moves_on(
    bus: Bus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A handling that waits for good (here: an event nobody sets) is logged and its message
    redelivered, instead of holding its partition until the process stops."""
    monkeypatch.setattr(delivery, "STUCK_SECONDS", 0.5)
    handled: list[int] = []
    stuck: list[int] = []
    never = asyncio.Event()

    async def handler(env: Envelope) -> None:
        if env.payload["n"] == 0 and not stuck:
            stuck.append(0)
            await never.wait()
        handled.append(env.payload["n"])

    await bus.consume_service("turns", handler)
    with capture_logs() as logs:
        await bus.send_command("turns", envelope("stuck-room", 0))
        await bus.send_command("turns", envelope("stuck-room", 1))
        await eventually(lambda: handled == [0, 1], within=20)
    assert stuck == [0]
    found = [e for e in logs if e["event"] == "handler_stuck"]
    assert len(found) == 1 and found[0]["type"] == "combat.act"


async def test_publishes_are_counted_by_destination_and_deliveries_by_consumer(bus: Bus) -> None:
    """The counters the bench reads to tell the broker messages an action costs."""

    def count(name: str, labels: dict[str, str]) -> float:
        return REGISTRY.get_sample_value(name, labels) or 0.0

    handled: list[Envelope] = []

    async def handler(env: Envelope) -> None:
        handled.append(env)

    await bus.consume_service("resolution", handler)
    before = {
        "resolution": count("referee_published_total", {"destination": "resolution"}),
        "events": count("referee_published_total", {"destination": "events"}),
        "delivered": count("referee_deliveries_total", {"service": "resolution"}),
    }
    for n in range(3):
        await bus.send_command("resolution", envelope("room-counted", n))
    await bus.publish(bus.names.events(), "combat.started", envelope("room-counted", 9))
    await eventually(lambda: len(handled) == 3)
    assert count("referee_published_total", {"destination": "resolution"}) == (
        before["resolution"] + 3
    )
    assert count("referee_published_total", {"destination": "events"}) == before["events"] + 1
    assert count("referee_deliveries_total", {"service": "resolution"}) == before["delivered"] + 3
