"""The outbox relay: what a commit promised, carried out after the commit.

Outbox entries are JSON objects in the aggregate's outbox stream, in commit order:
- ``{"k": "pub", "x": exchange, "r": routing key, "b": envelope JSON, "id", "c", "t",
  "m": mandatory}`` publishes a message with confirms;
- ``{"k": "arm", "id": timer id, "due": ms, "p": payload}`` arms a timer;
- ``{"k": "cancel", "id": timer id}`` cancels one.

The service flushes its outbox right after each commit (before acking the command); a
sweeper flushes outboxes marked dirty that nobody flushed (a process died in between). An
entry is deleted only after it took effect, so delivery is at least once and consumers
dedupe by message id. A per-outbox lock keeps two flushers from reordering entries.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from typing import Any

from redis.asyncio import Redis

from shared.bus import Bus
from shared.logging import get_logger
from shared.redis_streams import entries, text
from shared.timers import TimerStore, now_ms

log = get_logger(__name__)

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

_CLEAR_IF_EMPTY = """
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('XLEN', KEYS[1]) > 0 then return 0 end
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
if score and tonumber(score) <= tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 1
end
return 0
"""


class OutboxRelay:
    def __init__(
        self,
        redis: Redis,
        bus: Bus,
        timers: TimerStore,
        *,
        dirty_key: str,
        lock_ms: int = 15000,
    ) -> None:
        self._redis = redis
        self._bus = bus
        self._timers = timers
        self._dirty_key = dirty_key
        self._lock_ms = lock_ms
        self._release = redis.register_script(_RELEASE)
        self._clear = redis.register_script(_CLEAR_IF_EMPTY)
        self.published = 0

    async def flush(self, outbox_key: str) -> int:
        """Carry out every entry of one outbox, in order. Returns how many took effect."""
        lock_key = f"{outbox_key}:lock"
        token = secrets.token_hex(8)
        started = now_ms()
        if not await self._redis.set(lock_key, token, nx=True, px=self._lock_ms):
            return 0  # another flusher owns it; it will carry the entries out in order
        done = 0
        try:
            while True:
                batch = entries(await self._redis.xrange(outbox_key, "-", "+", count=100))
                if not batch:
                    break
                for entry_id, fields in batch:
                    await self._apply(json.loads(fields["e"]))
                    await self._redis.xdel(outbox_key, entry_id)
                    done += 1
        finally:
            await self._release(keys=[lock_key], args=[token])
        # Clear the dirty mark unless a newer commit marked it again meanwhile.
        await self._clear(keys=[outbox_key, self._dirty_key], args=[outbox_key, started])
        return done

    async def _apply(self, entry: dict[str, Any]) -> None:
        kind = entry["k"]
        if kind == "pub":
            await self._bus.publish_raw(
                entry["x"],
                entry["r"],
                entry["b"].encode(),
                message_id=entry["id"],
                correlation_id=entry.get("c"),
                type_=entry.get("t"),
                mandatory=entry.get("m", True),
            )
            self.published += 1
        elif kind == "arm":
            await self._timers.arm(entry["id"], int(entry["due"]), entry["p"])
        elif kind == "cancel":
            await self._timers.cancel(entry["id"])
        else:  # pragma: no cover - entries are written by this codebase only
            raise ValueError(f"unknown outbox entry kind {kind!r}")

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
