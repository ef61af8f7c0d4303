"""Idle SSE viewers: spectators of the played combats, connected while a second load plays.

Each viewer opens ``GET /v1/events?combat=<id>`` (the combats in turn, so 1,000 viewers of
200 combats are 5 per combat) and reads its stream to the end without acting. The suite's
figure is the action latency of a load played with them connected, beside the same load
without them (the first load of the run).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx

from bench.api import bearer

CONNECT_WITHIN = 60.0


@dataclass
class Viewers:
    wanted: int
    connected: int = 0
    refused: int = 0
    bytes_read: int = 0
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def settle(self) -> None:
        if self.connected + self.refused >= self.wanted:
            self.ready.set()


async def _watch(client: httpx.AsyncClient, key: str, combat_id: str, seen: Viewers) -> None:
    try:
        async with client.stream(
            "GET", "/v1/events", params={"combat": combat_id}, headers=bearer(key)
        ) as answer:
            if answer.status_code != 200:
                seen.refused += 1
                seen.settle()
                return
            seen.connected += 1
            seen.settle()
            async for chunk in answer.aiter_bytes():
                seen.bytes_read += len(chunk)
    except httpx.HTTPError:
        seen.refused += 1
        seen.settle()


@contextlib.asynccontextmanager
async def watching(
    base_url: str, key: str, combat_ids: list[str], count: int
) -> AsyncIterator[Viewers]:
    """``count`` viewers connected (or refused) before the body runs, closed after it."""
    seen = Viewers(count)
    limits = httpx.Limits(max_connections=count, max_keepalive_connections=0)
    timeout = httpx.Timeout(30, read=None)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=timeout) as client:
        tasks = [
            asyncio.create_task(_watch(client, key, combat_ids[i % len(combat_ids)], seen))
            for i in range(count)
        ]
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seen.ready.wait(), CONNECT_WITHIN)
            yield seen
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
