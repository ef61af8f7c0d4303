"""Removing a whole namespace from the broker and the store (``shared.ops drop-namespace``).

Every name of a namespace derives from it (shared/keys.py), so its queues and exchanges can
be listed without the management plugin: the partition queues of each service are counted
by passive declares from ``p000`` up to the first missing one (the count need not be known),
the isolated rooms are the ones ``shared.ops isolate`` recorded in Redis (plus any given),
and the keys are every key under ``<namespace>:``. A reply queue of a gateway is exclusive
and goes with its connection. Nothing outside the namespace is touched.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field

import aio_pika
from aio_pika.abc import AbstractConnection
from aiormq.abc import AbstractChannel
from redis.asyncio import Redis

from shared.keys import Keys, Names
from shared.messages import SERVICES
from shared.redis_streams import text

# Partition queues are probed up to this index (REFEREE_PARTITIONS is at most 1024).
MAX_PARTITIONS = 1024


@dataclass
class Dropped:
    """What a drop removed (and, with ``dry_run``, what it would remove)."""

    queues: list[str] = field(default_factory=list)
    exchanges: list[str] = field(default_factory=list)
    keys: int = 0
    busy: dict[str, int] = field(default_factory=dict)  # queue -> consumers, when refused


class NamespaceInUseError(Exception):
    """A queue of the namespace still has consumers: something runs in it."""


@asynccontextmanager
async def _channel(connection: AbstractConnection) -> AsyncIterator[AbstractChannel]:
    channel = await connection.channel(publisher_confirms=False)
    try:
        yield await channel.get_underlay_channel()
    finally:
        with suppress(Exception):
            await channel.close()


async def _consumers(connection: AbstractConnection, queue: str) -> int | None:
    """The queue's consumer count, or None when it does not exist."""
    try:
        async with _channel(connection) as underlay:
            ok = await underlay.queue_declare(queue, passive=True)
    except aio_pika.exceptions.ChannelClosed:
        return None
    return int(ok.consumer_count or 0)


async def isolated_rooms(redis: Redis, ns: str) -> dict[str, list[str]]:
    """The rooms ``shared.ops isolate`` gave a queue of their own, per service."""
    keys = Keys(ns)
    rooms: dict[str, list[str]] = {}
    for service in SERVICES:
        members = await redis.smembers(keys.isolated_rooms(service))
        rooms[service] = sorted(text(m) for m in members)
    return rooms


async def namespace_queues(
    connection: AbstractConnection, ns: str, rooms: Mapping[str, Iterable[str]]
) -> dict[str, int]:
    """Every existing queue of the namespace with its consumer count."""
    names = Names(ns)
    candidates = [names.gateway_recorder()]
    for service in SERVICES:
        candidates.append(names.dead_queue(service))
        candidates += [names.room_queue(service, room) for room in rooms.get(service, ())]
    found: dict[str, int] = {}
    for queue in candidates:
        count = await _consumers(connection, queue)
        if count is not None:
            found[queue] = count
    for service in SERVICES:
        for index in range(MAX_PARTITIONS):
            queue = names.partition(service, index)
            count = await _consumers(connection, queue)
            if count is None:
                break
            found[queue] = count
    return found


def namespace_exchanges(ns: str) -> list[str]:
    names = Names(ns)
    exchanges = [names.events(), names.dead_letters()]
    for service in SERVICES:
        exchanges += [names.commands(service), names.commands_hash(service)]
    return exchanges


async def drop_keys(redis: Redis, ns: str) -> int:
    """Delete every Redis key under ``<ns>:`` (and nothing else)."""
    deleted = 0
    batch: list[bytes] = []
    async for key in redis.scan_iter(match=f"{ns}:*", count=1000):
        batch.append(key)
        if len(batch) >= 500:
            deleted += await redis.delete(*batch)
            batch.clear()
    if batch:
        deleted += await redis.delete(*batch)
    return deleted


async def drop_broker(
    rabbitmq_url: str,
    ns: str,
    *,
    rooms: Mapping[str, Iterable[str]] | None = None,
    extra_queues: Iterable[str] = (),
    force: bool = False,
    dry_run: bool = False,
) -> Dropped:
    """Delete the namespace's queues and exchanges; refuses while a queue has consumers
    unless ``force`` (raises :class:`NamespaceInUseError`)."""
    dropped = Dropped()
    connection = await aio_pika.connect(rabbitmq_url, timeout=10)
    try:
        queues = await namespace_queues(connection, ns, rooms or {})
        for queue in extra_queues:
            count = await _consumers(connection, queue)
            if count is not None:
                queues[queue] = count
        busy = {queue: count for queue, count in queues.items() if count}
        if busy and not force:
            dropped.busy = busy
            raise NamespaceInUseError(
                f"{len(busy)} queue(s) of {ns!r} have consumers (e.g. {min(busy)}): stop the "
                "processes of the namespace first, or pass --force"
            )
        dropped.queues = sorted(queues)
        dropped.exchanges = namespace_exchanges(ns)
        if dry_run:
            return dropped
        for queue in dropped.queues:
            async with _channel(connection) as underlay:
                await underlay.queue_delete(queue)
        for exchange in dropped.exchanges:
            with suppress(aio_pika.exceptions.ChannelClosed):
                async with _channel(connection) as underlay:
                    await underlay.exchange_delete(exchange)
    finally:
        await connection.close()
    return dropped


async def drop_namespace(
    rabbitmq_url: str,
    redis: Redis,
    ns: str,
    *,
    rooms: Mapping[str, Iterable[str]] | None = None,
    force: bool = False,
    dry_run: bool = False,
) -> Dropped:
    """Queues, exchanges, then keys (the record of isolated rooms is read before it goes)."""
    known = await isolated_rooms(redis, ns)
    for service, extra in (rooms or {}).items():
        known[service] = sorted({*known.get(service, []), *extra})
    dropped = await drop_broker(rabbitmq_url, ns, rooms=known, force=force, dry_run=dry_run)
    if not dry_run:
        dropped.keys = await drop_keys(redis, ns)
    return dropped
