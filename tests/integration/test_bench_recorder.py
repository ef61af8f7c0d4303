"""The bench's catch-up wait (bench/recorder.py) on a real Redis stream."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from redis.asyncio import Redis

from bench.recorder import catch_up_seconds

pytestmark = pytest.mark.integration


def at(ms: int) -> str:
    occurred = datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat()
    return json.dumps({"occurred_at": occurred})


async def test_the_last_commit_copied_before_an_older_one_is_caught_up(
    redis: Redis, namespace: str
) -> None:
    """Two services' commits copied out of their commit order: the stream's newest entry
    is the older commit, and the wait still sees the last one (it ran to its limit)."""
    key = f"{namespace}:{{tenant:t1}}:events"
    for ms in (1_000, 3_000, 2_000):
        await redis.xadd(key, {"e": at(ms)})
    assert await catch_up_seconds(redis, key, 3_000, limit=2) < 1
    assert await catch_up_seconds(redis, key, 4_000, limit=0.5) >= 0.5  # not there yet
