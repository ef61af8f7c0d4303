"""Timers in Redis sorted sets scored by due time, claimed with a lease.

A service's timers are spread over ``REFEREE_TIMER_SHARDS`` shards, each a sorted set, a hash
and a sorted set under a hash tag of its own (:meth:`shared.keys.Keys.timer_shards`), so each
script touches one Redis Cluster slot and the shards land on several slots. A timer lives in
the shard of its owner, the aggregate whose state holds it (CRC-32 of its tag, ``combat:<id>``,
modulo the shard count): it is armed, re-armed and cancelled there, and a poller claims from
every shard and acks in the shard it claimed from.

A poller (``shared/timer_poller.py``) claims due timers by moving their score to ``now +
lease`` (``ZADD XX``), fires each (a ``timer.fired`` command through the bus, or in
services/turns applied at once: ``shared/runtime/firing.py``) and, once that is done, acks
the timer with a compare-and-delete (the score must still be its lease, so a timer re-armed
meanwhile survives). A poller that dies between claim and ack lets the
lease run out, and another poller fires the timer again: the fired message id is derived
from the timer id and its due time, so the service's processed-message record drops the
repeat. Timers never use Redis expiry notifications (docs/CONTRIBUTING.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from shared.keys import TimerKeys
from shared.logging import get_logger
from shared.outbox_entry import ArmTimer, CancelTimer, TimerOp
from shared.scripts import Script, run_pipeline

log = get_logger(__name__)

# Fired timers are remembered for an hour, so the reconciler does not re-arm a timer that
# fired and whose ``timer.fired`` command still waits in its partition.
FIRED_KEEP_MS = 3_600_000

# Timer shards per service unless REFEREE_TIMER_SHARDS says otherwise.
DEFAULT_SHARDS = 4

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
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {tostring(lease), out, first[2] or ''}
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

# A fired timer whose firing failed in a live process (the broker away, say) is claimed
# again at the time the poller asks, if its lease is still the one that process holds.
_RETRY = Script(
    """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], 'XX', ARGV[3], ARGV[1])
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

# A cancelled timer is kept among the fired ones this long (its score is set so that the
# acks' trim of the fired set drops it then), so that a reconciler pass that read the state
# before the cancel does not arm the timer again (timer ids are never reused).
CANCELLED_KEEP_MS = 300_000

_CANCEL = Script(
    """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
end
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
"""
)

_ALL = [_CLAIM, _ACK, _RETRY, _ARM, _ARM_MISSING, _CANCEL]


@dataclass(frozen=True)
class Claimed:
    timer_id: str
    lease_ms: int
    payload: dict[str, Any]
    shard: int = 0  # the shard it was claimed from, where its ack goes


def now_ms() -> int:
    return int(time.time() * 1000)


def cancelled_mark(now: int) -> int:
    """The fired-set score of a timer cancelled at ``now``: the acks' trim of the fired set
    (older than FIRED_KEEP_MS) drops it CANCELLED_KEEP_MS later."""
    return now - FIRED_KEEP_MS + CANCELLED_KEEP_MS


def shard_of(owner: str | None, shards: int) -> int:
    """The shard of a timer owned by ``owner`` (an aggregate's tag): CRC-32 (the same in
    every process) modulo the shard count; a timer without owner is in shard 0."""
    if owner is None or shards == 1:
        return 0
    return zlib.crc32(owner.encode()) % shards


class TimerStore:
    """Timers over one or more shards: ``due`` (sorted set), ``payload`` (hash) and
    ``fired`` (sorted set of recently fired ids), each shard in one hash slot."""

    def __init__(self, redis: Redis, shards: Sequence[TimerKeys]) -> None:
        if not shards:
            raise ValueError("a timer store needs at least one shard")
        self._redis = redis
        self.shards = list(shards)
        # When the next timer is due (Unix ms, leases included), as the last claim found it.
        self.next_due_ms: int | None = None
        # Set when this process arms a timer due before its poller would wake anyway.
        self._armed = asyncio.Event()
        # When the sleeping poller wakes (Unix ms); None while it is not asleep.
        self._wakes_at_ms: float | None = None

    def keys_of(self, owner: str | None) -> TimerKeys:
        return self.shards[shard_of(owner, len(self.shards))]

    def _everywhere(self, owner: str | None) -> list[TimerKeys]:
        """The shard of ``owner``, or every shard when the owner is not known."""
        return self.shards if owner is None else [self.keys_of(owner)]

    async def _run(self, script: Script, keys: TimerKeys, args: list[Any]) -> Any:
        results = await run_pipeline(
            self._redis, lambda pipe: script.queue(pipe, keys.all, args), _ALL
        )
        return results[0]

    async def arm(self, timer_id: str, due_ms: int, payload: dict[str, Any]) -> None:
        await self.apply([ArmTimer(timer_id, due_ms, payload)])

    async def apply(self, ops: Sequence[TimerOp]) -> None:
        """Outbox timer entries (arm / cancel), in order, in one round trip."""
        mark = cancelled_mark(now_ms())

        def build(pipe: Pipeline) -> None:
            for op in ops:
                if isinstance(op, ArmTimer):
                    args = [op.timer_id, op.due_ms, json.dumps(op.payload)]
                    _ARM.queue(pipe, self.keys_of(op.owner).all, args)
                    continue
                for keys in self._everywhere(op.owner):
                    _CANCEL.queue(pipe, keys.all, [op.timer_id, mark])

        await run_pipeline(self._redis, build, _ALL)
        self._armed_due(min((op.due_ms for op in ops if isinstance(op, ArmTimer)), default=None))

    def _armed_due(self, due_ms: int | None) -> None:
        """Wake the poller for a timer this process armed, due at ``due_ms``, unless it is
        asleep until before then: under load most commits arm a timer minutes ahead, and
        waking for each was 2.7 claims per action in services/turns (issue 15)."""
        if due_ms is None:
            return
        wakes = self._wakes_at_ms
        if wakes is None or due_ms < wakes:
            self._armed.set()

    async def wait_armed(self, seconds: float) -> None:
        """Sleep ``seconds``, or less if this process arms a timer due sooner meanwhile."""
        self._wakes_at_ms = now_ms() + seconds * 1000
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._armed.wait(), seconds)
        finally:
            self._wakes_at_ms = None
            self._armed.clear()

    async def arm_if_missing(self, timer_id: str, due_ms: int, payload: dict[str, Any]) -> bool:
        """The reconciler's re-arm: never moves a timer that is armed, leased or just fired."""
        keys = self.keys_of(ArmTimer(timer_id, due_ms, payload).owner)
        armed = bool(await self._run(_ARM_MISSING, keys, [timer_id, due_ms, json.dumps(payload)]))
        if armed:
            self._armed_due(due_ms)
        return armed

    async def cancel(self, timer_id: str, owner: str | None = None) -> None:
        await self.apply([CancelTimer(timer_id, owner)])

    async def claim(self, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]:
        """Claim about ``limit`` due timers in all (the earliest ``limit / shards``, rounded
        up, of each shard), in one round trip."""
        per_shard = max(1, -(-limit // len(self.shards)))

        def build(pipe: Pipeline) -> None:
            for keys in self.shards:
                _CLAIM.queue(pipe, keys.all, [now, lease_ms, per_shard])

        claimed: list[Claimed] = []
        nexts: list[int] = []
        for shard, (lease_raw, flat, *first) in enumerate(
            await run_pipeline(self._redis, build, _ALL)
        ):
            lease = int(lease_raw)
            if first and first[0]:
                nexts.append(int(float(first[0])))
            for i in range(0, len(flat), 2):
                timer_id = flat[i].decode() if isinstance(flat[i], bytes) else str(flat[i])
                raw = flat[i + 1]
                payload = json.loads(raw) if raw else {}
                claimed.append(Claimed(timer_id, lease, payload, shard))
        self.next_due_ms = min(nexts, default=None)
        return claimed

    async def ack(self, claimed: Claimed) -> bool:
        args = [claimed.timer_id, claimed.lease_ms, now_ms(), FIRED_KEEP_MS]
        return bool(await self._run(_ACK, self.shards[claimed.shard], args))

    async def retry_at(self, claimed: Sequence[Claimed], at_ms: int) -> None:
        """Timers whose firing failed are due again at ``at_ms`` rather than when their
        lease runs out (those leased anew or acked meanwhile are left alone)."""
        if not claimed:
            return

        def build(pipe: Pipeline) -> None:
            for item in claimed:
                args = [item.timer_id, item.lease_ms, at_ms]
                _RETRY.queue(pipe, self.shards[item.shard].all, args)

        await run_pipeline(self._redis, build, _ALL)
        self._armed_due(at_ms)

    async def ack_all(self, claimed: Sequence[Claimed]) -> list[bool]:
        """:meth:`ack` each of several fired timers, in one round trip."""
        if not claimed:
            return []
        now = now_ms()

        def build(pipe: Pipeline) -> None:
            for item in claimed:
                args = [item.timer_id, item.lease_ms, now, FIRED_KEEP_MS]
                _ACK.queue(pipe, self.shards[item.shard].all, args)

        return [bool(done) for done in await run_pipeline(self._redis, build, _ALL)]

    async def due_of(self, timer_id: str, owner: str | None = None) -> float | None:
        for keys in self._everywhere(owner):
            score = await self._redis.zscore(keys.due, timer_id)
            if score is not None:
                return float(score)
        return None

    async def count(self) -> int:
        total = 0
        for keys in self.shards:
            total += int(await self._redis.zcard(keys.due))
        return total
