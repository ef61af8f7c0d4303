"""Stopping a gateway (docs/operations.md "Stopping and restarting"): SIGTERM ends the open
event streams at once, so the process exits after the requests under way instead of waiting
out ``timeout_graceful_shutdown`` for streams that never end by themselves."""

from __future__ import annotations

import asyncio
import signal
import time

import httpx
import pytest

from tests.e2e.referee import Referee
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]

VIEWERS = 5
GRACEFUL_SECONDS = 7  # REFEREE_REQUEST_TIMEOUT (5) + 2: what a stream used to hold a stop


async def test_sigterm_ends_the_open_streams_and_the_gateway_exits_promptly(
    own_suite: Suite,
) -> None:
    referee = Referee(own_suite)
    try:
        community = await referee.new_community()
        opened = asyncio.Event()
        ended: list[float] = []

        async def watch() -> None:
            headers = {"Authorization": f"Bearer {community.api_key}"}
            timeout = httpx.Timeout(10, read=None)
            async with httpx.AsyncClient(base_url=own_suite.base_url, timeout=timeout) as http:
                async with http.stream("GET", "/v1/events", headers=headers) as answer:
                    assert answer.status_code == 200
                    async for chunk in answer.aiter_text():
                        if "stream.opened" in chunk:
                            opened.set()
                ended.append(time.monotonic())

        watchers = [asyncio.create_task(watch()) for _ in range(VIEWERS)]
        await asyncio.wait_for(opened.wait(), 15)
        await asyncio.sleep(0.5)  # every viewer subscribed
        gateway = own_suite.procs["gateway"]
        asked = time.monotonic()
        gateway.send_signal(signal.SIGTERM)
        results = await asyncio.wait_for(asyncio.gather(*watchers, return_exceptions=True), 15)
        exit_code = await asyncio.to_thread(gateway.wait, 15)
        exited = time.monotonic() - asked
        assert all(r is None for r in results), results  # each stream ended, none broke
        assert len(ended) == VIEWERS
        assert max(ended) - asked < GRACEFUL_SECONDS - 2
        # uvicorn raises the signal again once it has shut down cleanly: killed by SIGTERM.
        assert exit_code in (0, -signal.SIGTERM), own_suite.tail("gateway")
        assert "Application shutdown complete" in own_suite.tail("gateway")
        assert exited < GRACEFUL_SECONDS, f"the gateway took {exited:.1f} s to stop"
    finally:
        await referee.aclose()
