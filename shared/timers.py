"""Timers in a Redis sorted set scored by due time, claimed with a lease.

A poller claims due timers by moving their score to ``now + lease`` (``ZADD XX``), publishes a
``timer.fired`` command for each (through the bus, like any command) and, once the broker
confirmed it, acks the timer with a compare-and-delete (the score must still be its lease,
so a timer re-armed meanwhile survives). A poller that dies between claim and ack lets the
lease run out, and another poller fires the timer again: the fired message id is derived
from the timer id and its due time, so the service's processed-message record drops the
repeat. Timers never use Redis expiry notifications (LIBRARIES.md).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from shared.logging import get_logger

log = get_logger(__name__)

_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
local lease = tonumber(ARGV[1]) + tonumber(ARGV[2])
for _, id in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', lease, id)
  table.insert(out, id)
  table.insert(out, redis.call('HGET', KEYS[2], id) or '')
end
return {tostring(lease), out}
"""

_ACK = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  return 1
end
return 0
"""

_ARM = """
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
"""

_ARM_MISSING = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
"""

_CANCEL = """
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""


@dataclass(frozen=True)
class Claimed:
    timer_id: str
    lease_ms: int
    payload: dict[str, Any]


def now_ms() -> int:
    return int(time.time() * 1000)


class TimerStore:
    """One service's timers: ``due`` (sorted set) and ``payload`` (hash) in one hash slot."""

    def __init__(self, redis: Redis, *, due_key: str, payload_key: str) -> None:
        self._redis = redis
        self._keys = [due_key, payload_key]
        self._claim = redis.register_script(_CLAIM)
        self._ack = redis.register_script(_ACK)
        self._arm = redis.register_script(_ARM)
        self._arm_missing = redis.register_script(_ARM_MISSING)
        self._cancel = redis.register_script(_CANCEL)

    async def arm(self, timer_id: str, due_ms: int, payload: dict[str, Any]) -> None:
        await self._arm(keys=self._keys, args=[timer_id, due_ms, json.dumps(payload)])

    async def arm_if_missing(self, timer_id: str, due_ms: int, payload: dict[str, Any]) -> bool:
        """The reconciler's re-arm: never moves a timer that is armed or leased."""
        done = await self._arm_missing(
            keys=self._keys, args=[timer_id, due_ms, json.dumps(payload)]
        )
        return bool(done)

    async def cancel(self, timer_id: str) -> None:
        await self._cancel(keys=self._keys, args=[timer_id])

    async def claim(self, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]:
        lease_raw, flat = await self._claim(keys=self._keys, args=[now, lease_ms, limit])
        lease = int(lease_raw)
        claimed: list[Claimed] = []
        for i in range(0, len(flat), 2):
            timer_id = flat[i].decode() if isinstance(flat[i], bytes) else str(flat[i])
            raw = flat[i + 1]
            payload = json.loads(raw) if raw else {}
            claimed.append(Claimed(timer_id, lease, payload))
        return claimed

    async def ack(self, claimed: Claimed) -> bool:
        done = await self._ack(keys=self._keys, args=[claimed.timer_id, claimed.lease_ms])
        return bool(done)

    async def due_of(self, timer_id: str) -> float | None:
        score = await self._redis.zscore(self._keys[0], timer_id)
        return None if score is None else float(score)

    async def count(self) -> int:
        return int(await self._redis.zcard(self._keys[0]))


FireFn = Callable[[Claimed], Awaitable[None]]


class TimerPoller:
    """Claims due timers every ``poll_ms`` and fires each through ``fire``, then acks."""

    def __init__(
        self,
        store: TimerStore,
        fire: FireFn,
        *,
        poll_ms: int,
        lease_ms: int,
        batch: int = 200,
    ) -> None:
        self._store = store
        self._fire = fire
        self._poll = poll_ms / 1000
        self._lease_ms = lease_ms
        self._batch = batch
        self.fired = 0

    async def run_once(self) -> int:
        claimed = await self._store.claim(now_ms(), self._lease_ms, self._batch)
        if not claimed:
            return 0

        async def fire_and_ack(item: Claimed) -> None:
            try:
                await self._fire(item)
            except Exception:
                # Leave the lease to run out: the timer fires again after it.
                log.warning("timer_fire_failed", timer_id=item.timer_id, exc_info=True)
                return
            await self._store.ack(item)
            self.fired += 1

        await asyncio.gather(*(fire_and_ack(c) for c in claimed))
        return len(claimed)

    async def run_forever(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        while not stop.is_set():
            try:
                n = await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("timer_poll_failed", exc_info=True)
                await asyncio.sleep(max(self._poll, 0.5))
                continue
            if n < self._batch:
                await asyncio.sleep(self._poll)
