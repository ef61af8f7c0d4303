"""Timers in a Redis sorted set scored by due time, claimed with a lease.

A poller claims due timers by moving their score to ``now + lease`` (``ZADD XX``), publishes a
``timer.fired`` command for each (through the bus, like any command) and, once the broker
confirmed it, acks the timer with a compare-and-delete (the score must still be its lease,
so a timer re-armed meanwhile survives). A poller that dies between claim and ack lets the
lease run out, and another poller fires the timer again: the fired message id is derived
from the timer id and its due time, so the service's processed-message record drops the
repeat. Timers never use Redis expiry notifications (docs/CONTRIBUTING.md).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from shared.logging import get_logger
from shared.outbox_entry import ArmTimer, TimerOp
from shared.scripts import Script, run_pipeline

log = get_logger(__name__)

# Fired timers are remembered for an hour, so the reconciler does not re-arm a timer that
# fired and whose ``timer.fired`` command still waits in its partition.
FIRED_KEEP_MS = 3_600_000

_CLAIM = Script(
    """
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
)

_ACK = Script(
    """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', tonumber(ARGV[3]) - tonumber(ARGV[4]))
  return 1
end
return 0
"""
)

_ARM = Script(
    """
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
"""
)

_ARM_MISSING = Script(
    """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZSCORE', KEYS[3], ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
"""
)

_CANCEL = Script(
    """
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""
)

_ALL = [_CLAIM, _ACK, _ARM, _ARM_MISSING, _CANCEL]


@dataclass(frozen=True)
class Claimed:
    timer_id: str
    lease_ms: int
    payload: dict[str, Any]


def now_ms() -> int:
    return int(time.time() * 1000)


class TimerStore:
    """One service's timers: ``due`` (sorted set), ``payload`` (hash) and ``fired`` (sorted
    set of recently fired ids), in one hash slot."""

    def __init__(self, redis: Redis, *, due_key: str, payload_key: str, fired_key: str) -> None:
        self._redis = redis
        self._keys = [due_key, payload_key, fired_key]

    async def _run(self, script: Script, args: list[Any]) -> Any:
        results = await run_pipeline(
            self._redis, lambda pipe: script.queue(pipe, self._keys, args), _ALL
        )
        return results[0]

    async def arm(self, timer_id: str, due_ms: int, payload: dict[str, Any]) -> None:
        await self._run(_ARM, [timer_id, due_ms, json.dumps(payload)])

    async def apply(self, ops: Sequence[TimerOp]) -> None:
        """Outbox timer entries (arm / cancel), in order, in one round trip."""

        def build(pipe: Pipeline) -> None:
            for op in ops:
                if isinstance(op, ArmTimer):
                    args = [op.timer_id, op.due_ms, json.dumps(op.payload)]
                    _ARM.queue(pipe, self._keys, args)
                else:
                    _CANCEL.queue(pipe, self._keys, [op.timer_id])

        await run_pipeline(self._redis, build, _ALL)

    async def arm_if_missing(self, timer_id: str, due_ms: int, payload: dict[str, Any]) -> bool:
        """The reconciler's re-arm: never moves a timer that is armed, leased or just fired."""
        return bool(await self._run(_ARM_MISSING, [timer_id, due_ms, json.dumps(payload)]))

    async def cancel(self, timer_id: str) -> None:
        await self._run(_CANCEL, [timer_id])

    async def claim(self, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]:
        lease_raw, flat = await self._run(_CLAIM, [now, lease_ms, limit])
        lease = int(lease_raw)
        claimed: list[Claimed] = []
        for i in range(0, len(flat), 2):
            timer_id = flat[i].decode() if isinstance(flat[i], bytes) else str(flat[i])
            raw = flat[i + 1]
            payload = json.loads(raw) if raw else {}
            claimed.append(Claimed(timer_id, lease, payload))
        return claimed

    async def ack(self, claimed: Claimed) -> bool:
        args = [claimed.timer_id, claimed.lease_ms, now_ms(), FIRED_KEEP_MS]
        return bool(await self._run(_ACK, args))

    async def due_of(self, timer_id: str) -> float | None:
        score = await self._redis.zscore(self._keys[0], timer_id)
        return None if score is None else float(score)

    async def count(self) -> int:
        return int(await self._redis.zcard(self._keys[0]))


FireFn = Callable[[Claimed], Awaitable[None]]


class DueTimers(Protocol):
    """What the poller needs of a timer store (:class:`TimerStore`, or a test's fake)."""

    async def claim(self, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]: ...

    async def ack(self, claimed: Claimed) -> bool: ...


class TimerPoller:
    """Claims due timers every ``poll_ms`` and fires each through ``fire``, then acks."""

    def __init__(
        self,
        store: DueTimers,
        fire: FireFn,
        *,
        poll_ms: int,
        lease_ms: int,
        batch: int = 200,
        clock: Callable[[], int] = now_ms,
    ) -> None:
        self._store = store
        self._fire = fire
        self._poll = poll_ms / 1000
        self._lease_ms = lease_ms
        self._batch = batch
        self._clock = clock
        self.fired = 0
        # When the last poll finished (monotonic seconds): the replica's liveness reads it.
        self.last_poll = time.monotonic()

    async def run_once(self) -> int:
        claimed = await self._store.claim(self._clock(), self._lease_ms, self._batch)
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
                self.last_poll = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("timer_poll_failed", exc_info=True)
                await asyncio.sleep(max(self._poll, 0.5))
                continue
            if n < self._batch:
                await asyncio.sleep(self._poll)
