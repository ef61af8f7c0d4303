"""Redis Cluster (issue 16, item 3): a ``redis+cluster://`` URL gets a cluster-aware client,
and a script queued in a cluster pipeline is sent as EVAL (redis-py refuses EVALSHA there)."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from shared.keys import Keys
from shared.redis_client import is_cluster, plain_url, redis_client
from shared.timers import DEFAULT_SHARDS


@pytest.mark.parametrize(
    ("url", "cluster", "plain"),
    [
        ("redis://127.0.0.1:6379/0", False, "redis://127.0.0.1:6379/0"),
        ("rediss://cache:6380/0", False, "rediss://cache:6380/0"),
        ("redis+cluster://127.0.0.1:7100/0", True, "redis://127.0.0.1:7100/0"),
        ("rediss+cluster://:pw@node-a:7100/0", True, "rediss://:pw@node-a:7100/0"),
    ],
)
def test_a_cluster_url(url: str, cluster: bool, plain: str) -> None:
    assert is_cluster(url) is cluster
    assert plain_url(url) == plain


async def test_the_client_follows_the_url() -> None:
    plain = redis_client("redis://127.0.0.1:1/0")
    cluster = redis_client("redis+cluster://127.0.0.1:1/0")
    try:
        assert type(plain) is Redis
        assert isinstance(cluster, RedisCluster)  # nothing connects before the first command
    finally:
        await plain.aclose()
        await cluster.aclose()


def slot_tag(key: str) -> str:
    return key[key.index("{") + 1 : key.index("}")]


@pytest.mark.parametrize(
    "keys",
    [
        pytest.param(["state", "processed", "outbox", "version", "log"], id="a-combat-commit"),
    ],
)
def test_an_aggregates_keys_share_one_hash_tag(keys: list[str]) -> None:
    aggregate = Keys("ns").combat("turns", "c1")
    assert {slot_tag(getattr(aggregate, k)) for k in keys} == {"combat:c1"}


def test_each_timer_shard_has_one_hash_tag_of_its_own() -> None:
    shards = Keys("ns").timer_shards("turns", 3)
    assert [{slot_tag(k) for k in shard.all} for shard in shards] == [
        {"timers:turns"},  # the name of the former one-set layout: its timers still fire
        {"timers:turns:1"},
        {"timers:turns:2"},
    ]


def test_the_timer_shards_of_a_service_fall_on_several_cluster_slots() -> None:
    shards = Keys("ns").timer_shards("turns", DEFAULT_SHARDS)
    assert len({key_slot(shard.due.encode()) for shard in shards}) == DEFAULT_SHARDS
