"""Rate limits per API key on the real Redis: a token bucket per key."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from gateway.ratelimit import RateLimiter
from shared.keys import Keys

pytestmark = pytest.mark.integration


async def test_a_key_gets_its_burst_then_waits(redis: Redis, namespace: str) -> None:
    limiter = RateLimiter(redis, rate=1.0, burst=3)
    bucket = Keys(namespace).rate_bucket("k_noisy")
    answers = [await limiter.take(bucket) for _ in range(4)]
    assert answers[:3] == [None, None, None]
    assert answers[3] == 1  # one token a second: retry after 1 s


async def test_one_key_exhausted_leaves_another_untouched(redis: Redis, namespace: str) -> None:
    limiter = RateLimiter(redis, rate=1.0, burst=2)
    keys = Keys(namespace)
    for _ in range(5):
        await limiter.take(keys.rate_bucket("k_noisy"))
    assert await limiter.take(keys.rate_bucket("k_noisy")) is not None
    assert await limiter.take(keys.rate_bucket("k_quiet")) is None
