"""The commit script on the real Redis: atomic, versioned, deduplicated, one hash slot."""

from __future__ import annotations

import json

import pytest
from redis.asyncio import Redis

from shared.keys import Keys
from shared.outbox import LOCK_MS
from shared.outbox_entry import CancelTimer
from shared.redis_streams import entries, text
from shared.store import AggregateStore, Commit, CommitStatus

pytestmark = pytest.mark.integration


def commit(version: int, message_id: str, **kw: object) -> Commit:
    base: dict[str, object] = {
        "expected_version": version,
        "state": {"n": version + 1},
        "message_id": message_id,
        "now_ms": 1_000,
        "outbox": [CancelTimer(f"t{version}")],
        "log": [json.dumps({"event": version})],
        "view": {"seen": version},
    }
    base.update(kw)
    return Commit(**base)  # type: ignore[arg-type]


async def test_commit_writes_state_record_outbox_log_and_view_together(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    store = AggregateStore(redis, dirty_key=keys.outbox_dirty("turns"))
    result = await store.commit(agg, commit(0, "m1"))
    assert result.status is CommitStatus.OK
    assert (result.state_version, result.aggregate_version) == (1, 1)
    loaded = await store.load(agg)
    assert loaded.version == 1 and loaded.data == {"n": 1}
    assert await store.is_processed(agg, "m1")
    assert await redis.xlen(agg.outbox) == 1
    assert await redis.xlen(agg.log) == 1
    assert json.loads(await redis.get(agg.view) or "null") == {"seen": 0}
    assert await redis.zscore(keys.outbox_dirty("turns"), agg.outbox) is not None


async def test_a_stale_version_commits_nothing(redis: Redis, namespace: str) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    store = AggregateStore(redis, dirty_key=keys.outbox_dirty("turns"))
    await store.commit(agg, commit(0, "m1"))
    result = await store.commit(agg, commit(0, "m2"))
    assert result.status is CommitStatus.CONFLICT
    assert not await store.is_processed(agg, "m2")
    assert await redis.xlen(agg.outbox) == 1


async def test_a_processed_message_is_never_applied_twice(redis: Redis, namespace: str) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    store = AggregateStore(redis, dirty_key=keys.outbox_dirty("turns"))
    await store.commit(agg, commit(0, "m1"))
    again = await store.commit(agg, commit(1, "m1"))
    assert again.status is CommitStatus.DUPLICATE
    assert (await store.load(agg)).version == 1
    assert await redis.xlen(agg.log) == 1


async def test_if_match_compares_the_shared_aggregate_version(redis: Redis, namespace: str) -> None:
    keys = Keys(namespace)
    turns, resolution = keys.combat("turns", "c1"), keys.combat("resolution", "c1")
    store = AggregateStore(redis, dirty_key=keys.outbox_dirty("turns"))
    await store.commit(turns, commit(0, "m1"))
    await store.commit(resolution, commit(0, "r1"))  # another service: version 2
    stale = await store.commit(turns, commit(1, "m2", if_match=1))
    assert stale.status is CommitStatus.PRECONDITION
    assert stale.aggregate_version == 2
    fresh = await store.commit(turns, commit(1, "m3", if_match=2))
    assert fresh.status is CommitStatus.OK and fresh.aggregate_version == 3


async def test_an_ended_aggregate_expires_with_its_ttl(redis: Redis, namespace: str) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    store = AggregateStore(redis, dirty_key=keys.outbox_dirty("turns"))
    await store.commit(agg, commit(0, "m1", ttl_seconds=600))
    await redis.zadd(agg.processed, {"m0": 1})  # the former record of an older version
    await store.commit(agg, commit(1, "m2", ttl_seconds=600))
    for key in (agg.state, agg.seen, agg.processed, agg.outbox, agg.version, agg.log, agg.view):
        assert 0 < await redis.ttl(key) <= 600


def test_every_key_of_an_aggregate_shares_one_hash_tag() -> None:
    agg = Keys("ns").combat("turns", "c_1")
    keys = [agg.state, agg.seen, agg.processed, agg.outbox, agg.version, agg.log, agg.view]
    keys.append(agg.queued)
    tags = {k[k.index("{") + 1 : k.index("}")] for k in keys}
    assert tags == {"combat:c_1"}


async def test_a_commit_into_an_empty_outbox_claims_its_entries_under_the_lock(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    store = AggregateStore(redis, dirty_key=keys.outbox_dirty("turns"))
    first = await store.commit(agg, commit(0, "m1"))
    assert first.claim is not None and first.claim.outbox == agg.outbox
    assert [i for i, _ in entries(await redis.xrange(agg.outbox))] == list(first.claim.entry_ids)
    assert text(await redis.get(agg.lock) or b"") == first.claim.token
    assert 0 < await redis.pttl(agg.lock) <= LOCK_MS
    # An older entry waits: the next commit leaves its entries to a flush, in order.
    second = await store.commit(agg, commit(1, "m2"))
    assert second.status is CommitStatus.OK and second.claim is None


async def test_nothing_is_claimed_without_entries_or_while_a_flusher_holds_the_outbox(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    store = AggregateStore(redis, dirty_key=keys.outbox_dirty("turns"))
    assert (await store.commit(agg, commit(0, "m1", outbox=[]))).claim is None
    await redis.set(agg.lock, "someone-else", px=5000)
    assert (await store.commit(agg, commit(1, "m2"))).claim is None
    assert text(await redis.get(agg.lock) or b"") == "someone-else"


async def test_an_ended_aggregate_expires_without_stretching_the_outbox_lock(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    store = AggregateStore(redis, dirty_key=keys.outbox_dirty("turns"))
    await store.commit(agg, commit(0, "m1", ttl_seconds=3600))
    assert 0 < await redis.pttl(agg.lock) <= LOCK_MS
