"""Waiting in tests: until a condition holds or a timeout, never a bare sleep."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def eventually(condition: Callable[[], object], *, within: float = 10.0) -> None:
    """Poll ``condition`` every 20 ms until it is truthy; fail after ``within`` seconds."""
    async with asyncio.timeout(within):
        while not condition():  # noqa: ASYNC110 - the condition is plain state, not an event
            await asyncio.sleep(0.02)
