"""Failed authentication, throttled per client address (docs/hostile-input.md).

Each address has a bucket of ``burst`` failures that refills ``rate`` a second. A wrong
admin token or a wrong community key takes one; while the bucket is empty, every credential
the address presents (a right one too) gets 429 with ``Retry-After`` before it is even
looked at, so guessing keys costs the guesser, not the store. A missing ``Authorization``
header guesses nothing and is not counted.

The bucket is read in the same round trip as the key lookup (:meth:`queue_peek`), so an
honest request pays no extra trip to Redis; only a failure writes.
"""

from __future__ import annotations

import math
import time
from typing import Any

from fastapi import Request
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from gateway.errors import ApiError
from gateway.ratelimit import Quota, RateLimiter
from shared.keys import Keys


def client_address(request: Request) -> str:
    """The client's address (uvicorn takes it from ``X-Forwarded-For`` of a trusted proxy)."""
    return request.client.host if request.client else "unknown"


class AuthThrottle:
    def __init__(self, redis: Redis, keys: Keys, *, rate: float, burst: int) -> None:
        self._redis = redis
        self._keys = keys
        self._bucket = RateLimiter(redis, rate=rate, burst=burst)
        self.rate = rate
        self.burst = burst

    def queue_peek(self, pipe: Pipeline, address: str) -> None:
        pipe.hmget(self._keys.auth_failures(address), ["tokens", "at"])

    def wait_of(self, state: list[Any]) -> float | None:
        """Seconds before ``address`` may try again (from a :meth:`queue_peek` reply)."""
        tokens_raw, at_raw = state
        if tokens_raw is None or at_raw is None:
            return None
        now = time.time() * 1000
        tokens = min(
            self.burst, float(tokens_raw) + max(0.0, now - float(at_raw)) * self.rate / 1000
        )
        if tokens >= 1:
            return None
        return max(1, math.ceil((1 - tokens) / self.rate))

    async def check(self, address: str) -> None:
        """Raise 429 while ``address`` may not present credentials."""
        async with self._redis.pipeline(transaction=False) as pipe:
            self.queue_peek(pipe, address)
            (state,) = await pipe.execute()
        self.raise_if_blocked(state)

    def raise_if_blocked(self, state: list[Any]) -> None:
        self._raise_for(self.wait_of(state))

    def _raise_for(self, wait: float | None) -> None:
        if wait is not None:
            quota = Quota("auth", self.burst, self.rate, 0.0, wait)
            raise ApiError(
                "rate_limited",
                headers={"Retry-After": str(int(wait)), **quota.headers()},
                details={"retry_after_seconds": wait, "reason": "authentication_failures"},
            )

    async def failed(self, address: str) -> None:
        """Count one failure of ``address``: 429 instead of 401 once its bucket is empty.

        The count is atomic, so failures sent all at once are counted too (they may all have
        passed :meth:`check` before the first one was counted).
        """
        self._raise_for(await self._bucket.take(self._keys.auth_failures(address)))
