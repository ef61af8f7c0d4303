"""Rate limits per API key: a token bucket in Redis (429 with ``Retry-After``).

Each key refills ``rate`` tokens a second up to ``burst``; a request takes one. A noisy
community exhausts its own keys' buckets and gets 429s, while the others keep theirs, so it
cannot slow them down by flooding the gateway.

Every answer to a key, and every 429, tells where its bucket stands with the IETF
``RateLimit-Policy`` and ``RateLimit`` headers (draft-ietf-httpapi-ratelimit-headers, as
structured fields): the policy ``"key";q=<burst>;w=<seconds to refill it>`` and the state
``"key";r=<requests left>;t=<seconds until the bucket is full again>``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from shared.scripts import Script, run_pipeline

_TAKE = Script(
    """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local allowed = 0
local wait_ms = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait_ms = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return {allowed, wait_ms, tostring(tokens)}
"""
)


@dataclass(frozen=True)
class Quota:
    """Where one bucket stands after a request (what the ``RateLimit`` headers say)."""

    policy: str  # the policy's name in the headers
    burst: int
    rate: float
    tokens: float
    wait: float | None  # seconds before a retry may pass; None when this request passed

    def headers(self) -> dict[str, str]:
        """``RateLimit-Policy`` and ``RateLimit`` for this state of the bucket."""
        window = max(1, math.ceil(self.burst / self.rate))
        left = max(0, math.floor(self.tokens))
        full = max(0, math.ceil((self.burst - self.tokens) / self.rate))
        reset = full if self.wait is None else max(int(self.wait), full)
        return {
            "RateLimit-Policy": f'"{self.policy}";q={self.burst};w={window}',
            "RateLimit": f'"{self.policy}";r={left};t={reset}',
        }


class RateLimiter:
    def __init__(self, redis: Redis, *, rate: float, burst: int) -> None:
        self._redis = redis
        self.rate = rate
        self.burst = burst

    async def take(self, bucket_key: str) -> float | None:
        """None when the request may go on, else the seconds to wait before retrying."""
        return (await self.quota(bucket_key)).wait

    async def quota(self, bucket_key: str, policy: str = "key") -> Quota:
        """Take one token of ``bucket_key``: the bucket's state, with the wait if refused."""
        now = int(time.time() * 1000)
        args = [self.rate, self.burst, now]
        ((allowed, wait_ms, tokens),) = await run_pipeline(
            self._redis, lambda pipe: _TAKE.queue(pipe, [bucket_key], args), [_TAKE]
        )
        wait = None if int(allowed) else max(1, math.ceil(int(wait_ms) / 1000))
        left = float(tokens.decode() if isinstance(tokens, bytes) else tokens)
        return Quota(policy, self.burst, self.rate, left, wait)


class RateLimitHeaders:
    """Puts the key's ``RateLimit`` headers (``request.state.rate_limit``, set when the key was
    admitted) on its answer, whatever route or error produced it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state: dict[str, Any] = scope.setdefault("state", {})

        async def with_headers(message: Message) -> None:
            found = state.get("rate_limit")
            if message["type"] == "http.response.start" and found:
                headers = MutableHeaders(scope=message)
                for name, value in found.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, with_headers)
