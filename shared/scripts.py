"""Lua scripts run by SHA inside pipelines.

redis-py's pipelines check every script with ``SCRIPT EXISTS`` before each execution: one more
round trip per command handled. Here a script is sent as ``EVALSHA`` in the pipeline and,
after a ``NOSCRIPT`` (Redis restarted, or a script flush), loaded and the pipeline run again:
every caller builds pipelines whose commands are idempotent up to the script that failed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import ClusterPipeline
from redis.exceptions import NoScriptError


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


async def run_pipeline(
    redis: Redis, build: Callable[[Pipeline], None], scripts: Sequence[Script]
) -> list[Any]:
    """Run the pipeline ``build`` fills; reload ``scripts`` and run again after NOSCRIPT."""
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
