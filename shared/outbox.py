"""The outbox relay: what a commit promised, carried out after the commit.

Outbox entries (``shared/outbox_entry.py``: publish, arm a timer, cancel one) are kept in the
aggregate's outbox stream, in commit order; :func:`carry_out` does what they say.

The service carries out a commit's entries right after it (before acking the command): from
memory when the commit script found the outbox empty and took its lock for the committer
(:meth:`OutboxRelay.carry_claimed`: the publishes, then one script deletes them, releases the
lock and clears the dirty mark), else by flushing the outbox (:meth:`OutboxRelay.flush`). A
sweeper flushes outboxes marked dirty that nobody flushed (a process died in between). An
entry is deleted only after it took effect, so delivery is at least once and consumers
dedupe by message id. A per-outbox lock keeps two flushers from reordering entries.

A batch is carried out in two round trips to Redis plus the publishes, which are pipelined on
one channel: aio-pika writes them under the channel's FIFO lock in the order they were
started, and the relay waits for all the confirms. On a failure only the entries before the
first failed one are deleted, so nothing is skipped and order is kept (a repeat is harmless).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.asyncio.cluster import RedisCluster

from shared.logging import get_logger
from shared.outbox_entry import OutboxEntry, Publish, TimerOp, load_entry
from shared.redis_streams import entries, text
from shared.scripts import Script, run_pipeline
from shared.timers import now_ms

log = get_logger(__name__)

BATCH = 200
# How long an outbox lock lives unless its holder extends it. A holder that works longer
# extends it every third of that (:class:`_Keeper`); a holder that died (kill -9 between its
# commit and the carrying out) leaves it to run out, and the sweeper then carries its entries
# out: at most this long after the commit, plus the sweeper's period. (15 s before: a turn of
# 5 s armed by a commit whose process was killed fired 10 s late.)
LOCK_MS = 3000

K = TypeVar("K")

_RELEASE = Script(
    """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
)

_EXTEND = Script(
    """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
)

_CLEAR_IF_EMPTY = Script(
    """
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('XLEN', KEYS[1]) > 0 then return 0 end
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
if score and tonumber(score) <= tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 1
end
return 0
"""
)


# Redis Cluster: the outbox and the service's dirty set live in different slots, so the
# check of the outbox and the removal of its mark cannot be one script. The mark goes only if
# no newer commit re-marked it; the outbox is read right after and marked again if a commit
# slipped in between.
_CLEAR_IF_OLDER = Script(
    """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) <= tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 1
end
return 0
"""
)

# After a committer carried out its own entries: delete those done, give the lock back and
# clear the dirty mark unless entries remain (-1) or a newer commit marked the outbox meanwhile.
# An empty outbox is deleted (an empty stream still holds ~450 bytes per aggregate).
_FINISH = Script(
    """
if #ARGV > 3 then redis.call('XDEL', KEYS[1], unpack(ARGV, 4)) end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
if redis.call('XLEN', KEYS[1]) > 0 then return -1 end
redis.call('DEL', KEYS[1])
local score = redis.call('ZSCORE', KEYS[3], ARGV[2])
if score and tonumber(score) <= tonumber(ARGV[3]) then
  redis.call('ZREM', KEYS[3], ARGV[2])
  return 1
end
return 0
"""
)


# The same on a cluster, for the outbox's own slot only: the dirty mark is cleared after it
# (_CLEAR_IF_OLDER) when nothing remains.
_FINISH_OUTBOX = Script(
    """
if #ARGV > 1 then redis.call('XDEL', KEYS[1], unpack(ARGV, 2)) end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
if redis.call('XLEN', KEYS[1]) > 0 then return -1 end
redis.call('DEL', KEYS[1])
return 0
"""
)


class _Keeper:
    """Extends an outbox lock while its holder works past a third of its life.

    Nothing runs for the usual carry-out of a few milliseconds: one timer handle is
    scheduled and cancelled. A renewal that fails is logged; the lock then runs out and
    another flusher may take over (consumers drop the repeats by message id).
    """

    def __init__(self, redis: Redis, lock_key: str, token: str, lock_ms: int) -> None:
        self._redis = redis
        self._keys = [lock_key]
        self._args: list[str | int] = [token, lock_ms]
        self._every = lock_ms / 3000
        self._task: asyncio.Task[None] | None = None
        self._handle = asyncio.get_running_loop().call_later(self._every, self._start)

    def _start(self) -> None:
        self._task = asyncio.ensure_future(self._renew())

    def _queue(self, pipe: Pipeline) -> None:
        _EXTEND.queue(pipe, self._keys, self._args)

    async def _renew(self) -> None:
        while True:
            try:
                await run_pipeline(self._redis, self._queue, [_EXTEND])
            except Exception:
                log.warning("outbox_lock_not_extended", lock=self._keys[0], exc_info=True)
            await asyncio.sleep(self._every)

    async def stop(self) -> None:
        self._handle.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


@dataclass(frozen=True)
class OutboxClaim:
    """The entries one commit appended to an outbox that held nothing older, and the token
    of the outbox lock the commit script took for the committer (``shared/store.py``)."""

    outbox: str
    token: str
    entry_ids: tuple[str, ...]


class Publisher(Protocol):
    """What the relay needs of the bus (:class:`shared.bus.Bus`, or a test's fake)."""

    async def publish_raw(
        self,
        exchange: str,
        routing_key: str,
        body: bytes,
        *,
        message_id: str,
        correlation_id: str | None = None,
        type_: str | None = None,
        mandatory: bool = True,
    ) -> None: ...


class TimerOps(Protocol):
    """What the relay needs of a timer store (:class:`shared.timers.TimerStore`, or a fake)."""

    async def apply(self, ops: Sequence[TimerOp]) -> None: ...


async def publish_entry(bus: Publisher, entry: Publish) -> None:
    await bus.publish_raw(
        entry.exchange,
        entry.routing_key,
        entry.body.encode(),
        message_id=entry.message_id,
        correlation_id=entry.correlation_id,
        type_=entry.type,
        mandatory=entry.mandatory,
    )


async def carry_out(
    entries: Sequence[tuple[K, OutboxEntry]], timers: TimerOps, bus: Publisher
) -> tuple[list[K], BaseException | None]:
    """Carry out entries in order: the keys of those done before the first failure, and it.

    The timer entries go first, in one round trip; the publishes then run concurrently on
    the bus's one channel (written in the order they were started) and are all awaited.
    """
    timer_ops = [e for _, e in entries if not isinstance(e, Publish)]
    if timer_ops:
        try:
            await timers.apply(timer_ops)
        except Exception as exc:
            return [], exc
    outcomes = await asyncio.gather(
        *(publish_entry(bus, e) for _, e in entries if isinstance(e, Publish)),
        return_exceptions=True,
    )
    results = iter(outcomes)
    applied: list[K] = []
    for key, entry in entries:
        if isinstance(entry, Publish):
            outcome = next(results)
            if isinstance(outcome, BaseException):
                return applied, outcome
        applied.append(key)
    return applied, None


class OutboxRelay:
    def __init__(
        self,
        redis: Redis,
        bus: Publisher,
        timers: TimerOps,
        *,
        dirty_key: str,
        lock_ms: int = LOCK_MS,
    ) -> None:
        self._redis = redis
        self._bus = bus
        self._timers = timers
        self._dirty_key = dirty_key
        self._lock_ms = lock_ms
        self.published = 0

    async def flush(self, outbox_key: str) -> int:
        """Carry out every entry of one outbox, in order. Returns how many took effect."""
        lock_key = f"{outbox_key}:lock"
        token = secrets.token_hex(8)
        started = now_ms()
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.set(lock_key, token, nx=True, px=self._lock_ms)
            pipe.xrange(outbox_key, "-", "+", count=BATCH)
            locked, first = await pipe.execute()
        if not locked:
            return 0  # another flusher owns it; it carries the entries out in order
        done = 0
        batch = entries(first)
        failure: BaseException | None = None
        keeper = _Keeper(self._redis, lock_key, token, self._lock_ms)
        try:
            while batch:
                applied, failure = await self._apply_batch(batch)
                done += len(applied)
                more = len(batch) == BATCH and failure is None
                async with self._redis.pipeline(transaction=False) as pipe:
                    if applied:
                        pipe.xdel(outbox_key, *applied)
                    if more:
                        pipe.xrange(outbox_key, "-", "+", count=BATCH)
                    results = await pipe.execute() if (applied or more) else []
                batch = entries(results[-1]) if more else []
        finally:
            await keeper.stop()
            if isinstance(self._redis, RedisCluster):
                await self._release_in_cluster(outbox_key, lock_key, token, started)
            else:

                def release(pipe: Pipeline) -> None:
                    _RELEASE.queue(pipe, [lock_key], [token])
                    # Clear the dirty mark unless a newer commit marked the outbox meanwhile.
                    _CLEAR_IF_EMPTY.queue(
                        pipe, [outbox_key, self._dirty_key], [outbox_key, started]
                    )

                await run_pipeline(self._redis, release, [_RELEASE, _CLEAR_IF_EMPTY])
        if failure is not None:
            raise failure
        return done

    async def _release_in_cluster(
        self, outbox_key: str, lock_key: str, token: str, started: int
    ) -> None:
        def release(pipe: Pipeline) -> None:
            _RELEASE.queue(pipe, [lock_key], [token])
            _CLEAR_IF_OLDER.queue(pipe, [self._dirty_key], [outbox_key, started])
            pipe.xlen(outbox_key)

        _, cleared, left = await run_pipeline(self._redis, release, [_RELEASE, _CLEAR_IF_OLDER])
        if cleared and left:
            await self._redis.zadd(self._dirty_key, {outbox_key: now_ms()}, nx=True)

    async def _finish_in_cluster(
        self, claim: OutboxClaim, started: int, applied: Sequence[str]
    ) -> int:
        """``_FINISH`` in two slots: the outbox's script, then the dirty mark's."""

        def finish(pipe: Pipeline) -> None:
            keys = [claim.outbox, f"{claim.outbox}:lock"]
            _FINISH_OUTBOX.queue(pipe, keys, [claim.token, *applied])

        (remaining,) = await run_pipeline(self._redis, finish, [_FINISH_OUTBOX])
        if remaining == -1:
            return -1

        def clear(pipe: Pipeline) -> None:
            _CLEAR_IF_OLDER.queue(pipe, [self._dirty_key], [claim.outbox, started])
            pipe.xlen(claim.outbox)

        cleared, left = await run_pipeline(self._redis, clear, [_CLEAR_IF_OLDER])
        if cleared and left:
            await self._redis.zadd(self._dirty_key, {claim.outbox: now_ms()}, nx=True)
        return int(cleared)

    async def carry_claimed(self, claim: OutboxClaim, batch: Sequence[OutboxEntry]) -> int:
        """Carry out the entries a commit just wrote, from memory (``batch``, in the order of
        ``claim.entry_ids``), then delete them, release the lock and clear the dirty mark in
        one script. Returns how many took effect; raises the first failure after that."""
        started = now_ms()
        keeper = _Keeper(self._redis, f"{claim.outbox}:lock", claim.token, self._lock_ms)
        try:
            applied, failure = await carry_out(
                list(zip(claim.entry_ids, batch, strict=True)), self._timers, self._bus
            )
        finally:
            await keeper.stop()
        self.published += sum(1 for e in batch[: len(applied)] if isinstance(e, Publish))

        def finish(pipe: Pipeline) -> None:
            keys = [claim.outbox, f"{claim.outbox}:lock", self._dirty_key]
            _FINISH.queue(pipe, keys, [claim.token, claim.outbox, started, *applied])

        if isinstance(self._redis, RedisCluster):
            remaining = await self._finish_in_cluster(claim, started, applied)
        else:
            (remaining,) = await run_pipeline(self._redis, finish, [_FINISH])
        if failure is not None:
            raise failure
        if remaining == -1:
            # A newer commit appended entries while this one held the lock, so its own flush
            # found the outbox taken: carry them out now rather than leave them to the sweeper.
            return len(applied) + await self.flush(claim.outbox)
        return len(applied)

    async def waiting(self, outbox_key: str) -> tuple[int, int]:
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.xlen(outbox_key)
            pipe.pttl(f"{outbox_key}:lock")
            entries_left, lock_ms = await pipe.execute()
        return int(entries_left), int(lock_ms)

    async def _apply_batch(
        self, batch: list[tuple[str, dict[str, bytes]]]
    ) -> tuple[list[str], BaseException | None]:
        """Carry out a batch; the ids of the entries done before the first failure."""
        decoded = [(entry_id, load_entry(fields["e"])) for entry_id, fields in batch]
        applied, failure = await carry_out(decoded, self._timers, self._bus)
        self.published += sum(1 for _, e in decoded[: len(applied)] if isinstance(e, Publish))
        return applied, failure

    async def sweep_once(self, older_than_ms: int = 2000) -> int:
        limit = now_ms() - older_than_ms
        keys = await self._redis.zrangebyscore(self._dirty_key, "-inf", limit, start=0, num=100)
        flushed = 0
        for raw in keys:
            flushed += await self.flush(text(raw))
        return flushed

    async def sweep_forever(self, every_ms: int, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        while not stop.is_set():
            try:
                n = await self.sweep_once()
                if n:
                    log.info("outbox_swept", entries=n)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("outbox_sweep_failed", exc_info=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every_ms / 1000)
