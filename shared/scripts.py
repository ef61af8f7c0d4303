"""Lua scripts run by SHA inside pipelines.

redis-py's pipelines check every script with ``SCRIPT EXISTS`` before each execution: one more
round trip per command handled. Here a script is sent as ``EVALSHA`` in the pipeline and,
after a ``NOSCRIPT`` (Redis restarted, or a script flush), loaded and the pipeline run again:
every caller builds pipelines whose commands are idempotent up to the script that failed.

Pipelines of one client asked for while one of its pipelines is in flight wait for it, then
run together as one pipeline, each caller getting its own slice of the replies (issue 15:
under load a process has many handlings at the same step, each paying redis-py's pipeline
machinery and a round trip for a few commands). A pipeline asked for on an idle client runs
at once, alone. What one caller's slice holds is exactly what its pipeline alone would have
returned; a caller whose build raises, or whose slice holds an error, gets that error and
the others their replies. Only commands that never block go through here. Not on a Redis
Cluster, whose pipelines are split by slot anyway.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import ClusterPipeline, RedisCluster
from redis.exceptions import NoScriptError

from shared.one_in_flight import OneInFlight, Taken


class Script:
    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()

    def queue(self, pipe: Pipeline, keys: Sequence[str], args: Sequence[Any]) -> None:
        if isinstance(pipe, ClusterPipeline):
            # redis-py refuses EVALSHA in a cluster pipeline; EVAL routes by its first key
            # (every script's keys share one hash tag: shared/keys.py).
            pipe.eval(self.source, len(keys), *keys, *args)
            return
        pipe.evalsha(self.sha, len(keys), *keys, *args)


Build = Callable[[Pipeline], None]

# The most callers' pipelines run as one (the rest wait for the next).
MERGED_AT_MOST = 64


async def run_pipeline(redis: Redis, build: Build, scripts: Sequence[Script]) -> list[Any]:
    """Run the pipeline ``build`` fills; reload ``scripts`` and run again after NOSCRIPT
    (merged with the pipelines of callers asked for meanwhile: module docstring)."""
    if isinstance(redis, RedisCluster):
        return await _run_alone(redis, build, scripts)
    lane: _Lane | None = getattr(redis, "_referee_lane", None)
    if lane is None or lane.loop is not asyncio.get_running_loop():
        lane = _Lane(redis)
        redis._referee_lane = lane  # type: ignore[attr-defined]
    return await lane.run((build, scripts))


Call = tuple[Build, Sequence[Script]]


class _Lane(OneInFlight[Call, list[Any]]):
    """One client's pipelines: at most one in flight, the rest merged behind it."""

    def __init__(self, redis: Redis) -> None:
        super().__init__(self._alone_call, self._merged, at_most=MERGED_AT_MOST)
        self._redis = redis
        self.loop = asyncio.get_running_loop()

    async def _alone_call(self, call: Call) -> list[Any]:
        return await _run_alone(self._redis, *call)

    async def _merged(self, taken: Taken[Call, list[Any]]) -> None:
        pipe = self._redis.pipeline(transaction=False)
        spans: list[tuple[int, int] | None] = []
        for (build, _), done in taken:
            start = len(pipe.command_stack)
            try:
                build(pipe)
            except Exception as exc:
                del pipe.command_stack[start:]
                if not done.done():  # its caller may have been cancelled meanwhile
                    done.set_exception(exc)
                spans.append(None)
                continue
            spans.append((start, len(pipe.command_stack)))
        results: list[Any] = await pipe.execute(raise_on_error=False) if pipe.command_stack else []
        for ((build, scripts), done), span in zip(taken, spans, strict=True):
            if span is None or done.done():
                continue
            part = results[span[0] : span[1]]
            if any(isinstance(r, NoScriptError) for r in part):
                try:
                    done.set_result(await _run_alone(self._redis, build, scripts))
                except Exception as exc:
                    if not done.done():
                        done.set_exception(exc)
                continue
            error = next((r for r in part if isinstance(r, Exception)), None)
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(part)


async def _run_alone(redis: Redis, build: Build, scripts: Sequence[Script]) -> list[Any]:
    for attempt in range(2):
        pipe = redis.pipeline(transaction=False)
        build(pipe)
        results: list[Any] = await pipe.execute(raise_on_error=False)
        if not any(isinstance(r, NoScriptError) for r in results):
            for result in results:
                if isinstance(result, Exception):
                    raise result
            return results
        if attempt == 0:
            for script in scripts:
                await redis.script_load(script.source)
    raise NoScriptError("scripts could not be loaded")
