"""Broker footprint (issue 16, item 2): namespaces of the default size share one broker, and
``drop-namespace`` removes one namespace's queues, exchanges and keys, nothing else."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
from collections.abc import AsyncIterator

import aio_pika
import pytest
from redis.asyncio import Redis

from shared.bus import Bus
from shared.keys import Keys, Names
from shared.messages import SERVICES, Envelope
from shared.namespace import NamespaceInUseError, drop_broker, drop_namespace
from shared.ops import _isolate
from shared.redis_client import redis_client
from shared.settings import CommonSettings, ServiceSettings
from tests.integration.test_bus import envelope
from tests.support.infra import new_namespace
from tests.support.wait import eventually

pytestmark = pytest.mark.integration

DEFAULT_PARTITIONS: int = CommonSettings.model_fields["referee_partitions"].default
# A RabbitMQ whose node has the usual 1,024 open files holds about 300 quorum queues.
QUEUES_ON_A_DEFAULT_BROKER = 300


def queues_per_namespace(partitions: int) -> int:
    """Partitions and a dead-letter queue per service, and the gateway's recorder."""
    return len(SERVICES) * (partitions + 1) + 1


async def exists(url: str, queue: str) -> bool:
    connection = await aio_pika.connect(url)
    try:
        channel = await connection.channel()
        try:
            await channel.declare_queue(queue, passive=True)
        except aio_pika.exceptions.ChannelClosed:
            return False
        with contextlib.suppress(Exception):
            await channel.close()
        return True
    finally:
        await connection.close()


def broker_file_limit() -> int | None:
    """The local node's open-file limit, when its CLI can be asked (else None)."""
    command = shutil.which("rabbitmq-diagnostics", path="/usr/sbin:/usr/lib/rabbitmq/bin")
    if command is None:
        return None
    done = subprocess.run(
        [command, "status"],
        env={**os.environ, "HOME": "/var/lib/rabbitmq"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    match = re.search(r"File Descriptors.*?limit: (\d+)", done.stdout, re.S)
    return int(match.group(1)) if match else None


@pytest.fixture
async def five(rabbitmq_url: str) -> AsyncIterator[list[Bus]]:
    buses = [
        Bus(
            rabbitmq_url,
            namespace=new_namespace("five"),
            partitions=DEFAULT_PARTITIONS,
            delivery_limit=3,
            publish_timeout=5.0,
        )
        for _ in range(5)
    ]
    try:
        for bus in buses:
            await bus.connect()
            await bus.declare_topology()
        yield buses
    finally:
        for bus in buses:
            with contextlib.suppress(Exception):
                await bus.close()
            await drop_broker(rabbitmq_url, bus.names.ns, force=True)


async def test_five_namespaces_of_the_default_size_live_on_one_broker(
    five: list[Bus], rabbitmq_url: str
) -> None:
    limit = broker_file_limit()
    if limit is not None:  # what the shared broker here has: the usual 1,024 (less reserved)
        print(f"broker open-file limit: {limit}")
    assert 5 * queues_per_namespace(DEFAULT_PARTITIONS) <= QUEUES_ON_A_DEFAULT_BROKER // 3

    seen: dict[str, list[str]] = {bus.names.ns: [] for bus in five}
    for bus in five:

        async def handler(env: Envelope, ns: str = bus.names.ns) -> None:
            seen[ns].append(env.room)

        queues = await bus.consume_service("turns", handler)
        assert len(queues) == DEFAULT_PARTITIONS
    for bus in five:
        for n in range(3):
            await bus.send_command("turns", envelope(f"{bus.names.ns}-room", n))
    await eventually(lambda: all(len(rooms) == 3 for rooms in seen.values()))
    assert all(set(rooms) == {f"{ns}-room"} for ns, rooms in seen.items())


async def test_drop_namespace_removes_queues_exchanges_and_keys_of_that_namespace_only(
    rabbitmq_url: str, redis_url: str
) -> None:
    ns, neighbour = new_namespace("drop"), new_namespace("keep")
    redis = redis_client(redis_url)
    settings = ServiceSettings(referee_namespace=ns, rabbitmq_url=rabbitmq_url, redis_url=redis_url)
    kept = Bus(rabbitmq_url, namespace=neighbour, partitions=2, delivery_limit=3, publish_timeout=5)
    try:
        await _isolate(settings, "turns", "plaza", undo=False)  # declares the topology too
        await redis.set(f"{ns}:{{combat:c1}}:state:turns", "x")
        await redis.set(f"{neighbour}:{{combat:c1}}:state:turns", "y")
        await kept.connect()
        await kept.declare_topology()
        names = Names(ns)

        dry = await drop_namespace(rabbitmq_url, redis, ns, dry_run=True)
        assert names.room_queue("turns", "plaza") in dry.queues
        assert len(dry.queues) == queues_per_namespace(DEFAULT_PARTITIONS) + 1
        assert await exists(rabbitmq_url, names.partition("turns", 0))

        dropped = await drop_namespace(rabbitmq_url, redis, ns)

        assert dropped.queues == dry.queues
        assert dropped.keys >= 2  # the state and the record of isolated rooms
        for queue in dropped.queues:
            assert not await exists(rabbitmq_url, queue), queue
        assert (
            await redis.exists(f"{ns}:{{combat:c1}}:state:turns", Keys(ns).isolated_rooms("turns"))
            == 0
        )
        assert await exists(rabbitmq_url, Names(neighbour).partition("turns", 1))
        assert await redis.get(f"{neighbour}:{{combat:c1}}:state:turns") == b"y"
        channel = await kept.connection.channel()
        with pytest.raises(aio_pika.exceptions.ChannelClosed):
            await channel.declare_exchange(names.events(), passive=True)
    finally:
        await kept.close()
        await drop_namespace(rabbitmq_url, redis, neighbour, force=True)
        await drop_namespace(rabbitmq_url, redis, ns, force=True)
        await redis.aclose()


async def test_drop_namespace_refuses_while_its_queues_have_consumers(
    rabbitmq_url: str, redis: Redis, bus: Bus
) -> None:
    async def handler(env: Envelope) -> None:
        await asyncio.sleep(0)

    await bus.consume_service("states", handler)
    with pytest.raises(NamespaceInUseError, match="have consumers"):
        await drop_namespace(rabbitmq_url, redis, bus.names.ns)
    assert await exists(rabbitmq_url, bus.names.partition("states", 0))
