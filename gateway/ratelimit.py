"""Rate limits per API key: a token bucket in Redis (429 with ``Retry-After``).

Each key refills ``rate`` tokens a second up to ``burst``; a request takes one. A noisy
community exhausts its own keys' buckets and gets 429s, while the others keep theirs, so it
cannot slow them down by flooding the gateway.
"""

from __future__ import annotations

import math
import time

from redis.asyncio import Redis

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
return {allowed, wait_ms}
"""
)


class RateLimiter:
    def __init__(self, redis: Redis, *, rate: float, burst: int) -> None:
        self._redis = redis
        self.rate = rate
        self.burst = burst

    async def take(self, bucket_key: str) -> float | None:
        """None when the request may go on, else the seconds to wait before retrying."""
        now = int(time.time() * 1000)
        args = [self.rate, self.burst, now]
        ((allowed, wait_ms),) = await run_pipeline(
            self._redis, lambda pipe: _TAKE.queue(pipe, [bucket_key], args), [_TAKE]
        )
        if int(allowed):
            return None
        return max(1, math.ceil(int(wait_ms) / 1000))
