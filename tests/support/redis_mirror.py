"""The chain's commits written to the real Redis as well, to measure what a combat keeps there.

:class:`MirroredStore` is the in-memory store of the chain (``tests/support/memory.py``: the
chain and its gateway read from it) that also runs every commit through the real commit
script (:class:`shared.store.AggregateStore`) in a namespace of the test's own, and carries
the outbox entries out as the relay does (deleting them, releasing the lock), publishing
them nowhere: the chain's in-memory bus already delivered them. Both stores must agree on
every commit's status and versions, so the keys in Redis are those a running service leaves.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from redis.asyncio import Redis

from shared.keys import Aggregate, Keys
from shared.outbox import OutboxRelay
from shared.outbox_entry import TimerOp
from shared.runtime.ports import Store
from shared.store import AggregateStore, Commit, CommitResult, Loaded
from tests.support.memory import MemoryData, MemoryStore


class _Nowhere:
    """A publisher and timer set that take everything and keep nothing."""

    async def publish_raw(
        self,
        exchange: str,
        routing_key: str,
        body: bytes,
        *,
        message_id: str,
        correlation_id: str | None = None,
        type_: str | None = None,
        mandatory: bool = True,
    ) -> None:
        return None

    async def apply(self, ops: Sequence[TimerOp]) -> None:
        return None


class MirroredStore:
    """One service's store: the chain's in-memory one, every commit also made on Redis."""

    def __init__(self, memory: MemoryStore, redis: Redis, keys: Keys, service: str) -> None:
        self._memory = memory
        dirty = keys.outbox_dirty(service)
        self.real = AggregateStore(redis, dirty_key=dirty, active_key=keys.active_combats(service))
        nowhere = _Nowhere()
        self._relay = OutboxRelay(redis, nowhere, nowhere, dirty_key=dirty)

    async def load(self, agg: Aggregate) -> Loaded:
        return await self._memory.load(agg)

    async def load_unless_processed(self, agg: Aggregate, message_id: str) -> Loaded | None:
        return await self._memory.load_unless_processed(agg, message_id)

    async def commit(
        self, agg: Aggregate, commit: Commit, *, active: bool | None = None
    ) -> CommitResult:
        result = await self._memory.commit(agg, commit, active=active)
        mirrored = await self.real.commit(agg, commit, active=active)
        assert (mirrored.status, mirrored.state_version, mirrored.aggregate_version) == (
            result.status,
            result.state_version,
            result.aggregate_version,
        ), f"Redis committed {mirrored} where the chain committed {result}"
        if mirrored.claim is not None:
            await self._relay.carry_claimed(mirrored.claim, commit.outbox)
        elif commit.outbox:
            await self._relay.flush(agg.outbox)
        return result

    async def settle(self, agg: Aggregate, message_id: str) -> None:
        await self._memory.settle(agg, message_id)
        await self.real.settle(agg, message_id)

    async def read_view(self, agg: Aggregate) -> dict[str, Any] | None:
        return await self._memory.read_view(agg)

    async def last_logged(self, agg: Aggregate, count: int) -> list[tuple[str, str]]:
        return await self._memory.last_logged(agg, count)

    async def active_tags(self) -> AsyncIterator[str]:
        async for tag in self._memory.active_tags():
            yield tag

    async def forget_active(self, tag: str) -> None:
        await self._memory.forget_active(tag)
        await self.real.forget_active(tag)


def mirrored(redis: Redis, namespace: str) -> Callable[[MemoryData, str], Store]:
    """The ``stores`` of a :class:`tests.support.chain.Chain` that mirrors to ``redis``."""
    keys = Keys(namespace)

    def make(data: MemoryData, service: str) -> Store:
        return MirroredStore(MemoryStore(data, service), redis, keys, service)

    return make
