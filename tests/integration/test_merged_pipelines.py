"""Pipelines asked for while one is in flight run as one, each caller getting what its own
pipeline returns (shared/scripts.py), on the real Redis."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError, ResponseError

from shared.scripts import Script, run_pipeline

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
def _not_on_a_cluster(redis: Redis) -> None:
    if isinstance(redis, RedisCluster):
        pytest.skip("a Redis Cluster's pipelines run alone (shared/scripts.py)")


class Counted:
    """Counts the pipelines the client executes."""

    def __init__(self, redis: Redis, monkeypatch: pytest.MonkeyPatch) -> None:
        self.executed = 0
        make = redis.pipeline

        def pipeline(*args: Any, **kwargs: Any) -> Pipeline:
            pipe = make(*args, **kwargs)
            execute = pipe.execute

            async def counted(*a: Any, **k: Any) -> list[Any]:
                self.executed += 1
                return await execute(*a, **k)

            pipe.execute = counted  # type: ignore[method-assign]
            return pipe

        monkeypatch.setattr(redis, "pipeline", pipeline)


async def test_concurrent_callers_get_their_own_replies_in_fewer_round_trips(
    redis: Redis, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = Counted(redis, monkeypatch)

    async def caller(n: int) -> list[Any]:
        def build(pipe: Pipeline) -> None:
            pipe.set(f"{namespace}:k{n}", n)
            pipe.incrby(f"{namespace}:k{n}", 100)
            pipe.get(f"{namespace}:k{n}")

        return await run_pipeline(redis, build, [])

    replies = await asyncio.gather(*(caller(n) for n in range(30)))
    assert replies == [[True, n + 100, str(n + 100).encode()] for n in range(30)]
    assert counted.executed < 30


async def test_a_callers_error_stays_its_own(redis: Redis, namespace: str) -> None:
    await redis.set(f"{namespace}:text", "not a number")

    def good(pipe: Pipeline) -> None:
        pipe.incr(f"{namespace}:n")

    def wrong_type(pipe: Pipeline) -> None:
        pipe.incr(f"{namespace}:text")

    def raises(pipe: Pipeline) -> None:
        pipe.incr(f"{namespace}:half-built")
        raise ValueError("no such build")

    outcomes = await asyncio.gather(
        run_pipeline(redis, good, []),
        run_pipeline(redis, wrong_type, []),
        run_pipeline(redis, raises, []),
        run_pipeline(redis, good, []),
        return_exceptions=True,
    )
    assert outcomes[0] == [1] and outcomes[3] == [2]
    assert isinstance(outcomes[1], ResponseError)
    assert isinstance(outcomes[2], ValueError)
    assert await redis.get(f"{namespace}:half-built") is None  # nothing of it ran


async def test_a_script_redis_does_not_know_is_loaded_for_a_merged_caller(
    redis: Redis, namespace: str
) -> None:
    script = Script(f"return redis.call('INCR', KEYS[1]) -- {secrets.token_hex(8)}")
    assert (await redis.script_exists(script.sha)) == [False]

    def build(pipe: Pipeline) -> None:
        script.queue(pipe, [f"{namespace}:s"], [])

    def plain(pipe: Pipeline) -> None:
        pipe.get(f"{namespace}:s")

    # The plain pipeline is in flight while the five wait: they run merged, meet NOSCRIPT.
    first, *replies = await asyncio.gather(
        run_pipeline(redis, plain, []), *(run_pipeline(redis, build, [script]) for _ in range(5))
    )
    assert first == [None]
    assert sorted(r[0] for r in replies) == [1, 2, 3, 4, 5]
    with pytest.raises(NoScriptError):
        unknown = Script(f"return 1 -- {secrets.token_hex(8)}")
        await run_pipeline(redis, lambda pipe: unknown.queue(pipe, [f"{namespace}:u"], []), [])
