"""The processed-message record on the real Redis: 16 bytes a message, kept for the retention,
and the former record (a sorted set of message ids) still read after an upgrade."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from shared.keys import Keys
from shared.store import PROCESSED_RETENTION_MS, RECORD_BYTES, AggregateStore, CommitStatus
from tests.integration.test_store import commit

pytestmark = pytest.mark.integration


def store_of(redis: Redis, keys: Keys) -> AggregateStore:
    return AggregateStore(redis, dirty_key=keys.outbox_dirty("turns"))


async def test_every_message_of_a_long_combat_stays_a_duplicate_at_16_bytes_each(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    store = store_of(redis, keys)
    for n in range(300):
        ok = await store.commit(agg, commit(n, f"m_{n:032x}", outbox=[]))
        assert ok.status is CommitStatus.OK
    assert await redis.strlen(agg.seen) == 300 * RECORD_BYTES
    for n in (0, 150, 299):
        assert await store.load_unless_processed(agg, f"m_{n:032x}") is None
        again = await store.commit(agg, commit(300, f"m_{n:032x}", outbox=[]))
        assert again.status is CommitStatus.DUPLICATE
    assert await store.load_unless_processed(agg, "m_never") is not None


async def test_a_message_is_forgotten_after_the_retention_and_not_before(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    store = store_of(redis, keys)
    start = 1_000_000
    await store.commit(agg, commit(0, "m1", outbox=[], now_ms=start))
    await store.commit(agg, commit(1, "m2", outbox=[], now_ms=start + PROCESSED_RETENTION_MS))
    assert await store.is_processed(agg, "m1")  # exactly the retention old: still kept
    later = start + PROCESSED_RETENTION_MS + 1_000
    await store.commit(agg, commit(2, "m3", outbox=[], now_ms=later))
    assert not await store.is_processed(agg, "m1")
    assert await store.is_processed(agg, "m2") and await store.is_processed(agg, "m3")
    assert await redis.strlen(agg.seen) == 2 * RECORD_BYTES


async def test_a_message_processed_before_the_upgrade_is_still_a_duplicate(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    store = store_of(redis, keys)
    await store.commit(agg, commit(0, "m1", outbox=[]))
    await redis.zadd(agg.processed, {"m_before": 1_000})  # what an older version recorded
    assert await store.load_unless_processed(agg, "m_before") is None
    again = await store.commit(agg, commit(1, "m_before", outbox=[]))
    assert again.status is CommitStatus.DUPLICATE
    assert (await store.load(agg)).version == 1
