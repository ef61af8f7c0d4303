"""A replica started while Redis is still loading its data after a restart waits for it
instead of dying on its first command (the chaos suite's Redis restarts found it)."""

from __future__ import annotations

from typing import Any, cast

from redis.asyncio import Redis
from redis.exceptions import BusyLoadingError
from redis.exceptions import TimeoutError as RedisTimeoutError

from shared.service_main import until_redis_ready


class LoadingRedis:
    """Answers ``LOADING`` (and a timeout) before it answers."""

    def __init__(self, failures: list[Exception]) -> None:
        self.failures = failures
        self.calls = 0

    async def exists(self, *keys: Any) -> int:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return 0


async def test_a_replica_waits_while_redis_loads() -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    redis = LoadingRedis([BusyLoadingError("LOADING"), RedisTimeoutError(), BusyLoadingError()])
    failed = await until_redis_ready(cast(Redis, redis), every=0.5, sleep=sleep)
    assert (failed, redis.calls, slept) == (3, 4, [0.5, 0.5, 0.5])


async def test_a_ready_redis_is_not_waited_for() -> None:
    async def sleep(seconds: float) -> None:
        raise AssertionError("no wait")

    assert await until_redis_ready(cast(Redis, LoadingRedis([])), sleep=sleep) == 0
