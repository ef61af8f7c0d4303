"""The timer poller: claims the due timers of a service's shards, fires each, then acks.

What it claims from is a :class:`shared.timers.TimerStore` (or a test's fake); what firing
means is the service's (``shared/runtime/firing.py``). docs/DESIGN.md "Timers".
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from shared.logging import get_logger
from shared.timers import Claimed, now_ms

log = get_logger(__name__)


FireFn = Callable[[Claimed], Awaitable[None]]


class DueTimers(Protocol):
    """What the poller needs of a timer store (:class:`TimerStore`, or a test's fake)."""

    async def claim(self, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]: ...

    async def ack_all(self, claimed: Sequence[Claimed]) -> list[bool]: ...

    async def retry_at(self, claimed: Sequence[Claimed], at_ms: int) -> None:
        """Timers whose firing failed are due again at ``at_ms`` (if still so leased)."""

    @property
    def next_due_ms(self) -> int | None:
        """When the next timer is due (leases included), as the last claim found it."""

    async def wait_armed(self, seconds: float) -> None:
        """Sleep ``seconds``, or less if this process arms a timer meanwhile."""


# The longest an idle poller waits when no timer is due sooner: a timer armed meanwhile by
# another process (another replica's commit or sweep) is claimed at most this late by this
# one, should that process's own poller not claim it first.
IDLE_MS = 1000


# A firing still under way after this many leases is given up (a publish or a Redis call
# that hangs): its lease has run out meanwhile, so the next claim fires it again.
GIVE_UP_LEASES = 3


# A timer whose firing failed (the broker or Redis away) is fired again after this long,
# doubled at each failure in a row up to its lease: not only when its lease runs out, which
# made a timer caught in a broker restart of one second fire ten seconds late.
RETRY_MS = 1000

# The timers whose failures in a row this process counts at most (a timer fired by another
# replica meanwhile is never cleared here: the count is forgotten beyond this many).
COUNTED_FAILURES = 10_000


# How long before a timer is due the poller of a process claims it: ``fire`` then waits for
# the due time itself (shared/runtime/firing.py), so that the claim's round trip, and in
# services/turns the state's load, are not part of how late a busy process fires it.
CLAIM_AHEAD_MS = 200


class TimerPoller:
    """Claims due timers every ``poll_ms`` and fires each through ``fire``, then acks.

    With ``ahead_ms``, a timer is claimed that long before it is due, and ``fire`` must wait
    for its due time (never fire it early).

    A poll that found nothing more due waits until the next timer is due (at least
    ``poll_ms``, at most :data:`IDLE_MS`), or less when this process arms a timer: an idle
    service does not ask Redis a hundred times a second (issue 15: claims of idle pollers
    were a quarter of the suite's Redis commands under load)."""

    def __init__(
        self,
        store: DueTimers,
        fire: FireFn,
        *,
        poll_ms: int,
        lease_ms: int,
        batch: int = 200,
        clock: Callable[[], int] = now_ms,
        ahead_ms: int = 0,
        give_up_ms: int | None = None,
    ) -> None:
        if not 0 <= ahead_ms < lease_ms:
            raise ValueError(f"claiming {ahead_ms} ms ahead needs a longer lease than {lease_ms}")
        self._store = store
        self._fire = fire
        self._ahead_ms = ahead_ms
        self._poll = poll_ms / 1000
        self._lease_ms = lease_ms
        self._give_up = (give_up_ms or GIVE_UP_LEASES * lease_ms) / 1000
        self._batch = batch
        self._clock = clock
        self.fired = 0
        # The timers this process is firing, by id, with their latest claim: one claimed
        # again while it still fires (its lease ran out under load) is not fired a second
        # time, and its ack carries the newer lease.
        self._firing: dict[str, Claimed] = {}
        self._freed = asyncio.Event()  # set whenever a firing ends
        self._failures: dict[str, int] = {}  # failed firings in a row, by timer id
        # When the last poll finished (monotonic seconds): the replica's liveness reads it.
        self.last_poll = time.monotonic()

    async def run_once(self) -> int:
        """Claim what is due (or due within ``ahead_ms``) and fire it all; how many."""
        claimed = await self._claim()
        await self._fire_all(claimed)
        return len(claimed)

    async def _claim(self, limit: int | None = None) -> list[Claimed]:
        """Claim the due timers (``limit``, at most ``batch``); those this process is still
        firing only renew their lease."""
        until = self._clock() + self._ahead_ms
        claimed = await self._store.claim(until, self._lease_ms, limit or self._batch)
        fresh = [item for item in claimed if item.timer_id not in self._firing]
        self._firing.update((item.timer_id, item) for item in claimed)
        return fresh

    async def _fire_all(self, claimed: Sequence[Claimed]) -> None:
        async def fire(item: Claimed) -> Claimed | None:
            try:
                await asyncio.wait_for(self._fire(item), self._give_up)
            except Exception:
                log.warning("timer_fire_failed", timer_id=item.timer_id, exc_info=True)
                await self._retry_soon(self._done(item))
                return None
            self._failures.pop(item.timer_id, None)
            return item  # still "firing" until acked: a claim meanwhile only renews it

        # Each timer is acked once its command is confirmed, never before; the timers
        # confirmed while an ack round trip was under way are acked together in the next.
        firing = {asyncio.ensure_future(fire(c)) for c in claimed}
        try:
            while firing:
                done, firing = await asyncio.wait(firing, return_when=asyncio.FIRST_COMPLETED)
                fired = [item for task in done if (item := task.result()) is not None]
                try:
                    await self._ack(fired)
                finally:
                    for item in fired:
                        self._done(item)
                self.fired += len(fired)
        finally:
            # An ack that failed leaves the rest unacked (their leases run out): let the
            # firings under way end rather than leave them behind.
            await asyncio.gather(*firing, return_exceptions=True)

    async def _ack(self, fired: Sequence[Claimed]) -> None:
        """Ack fired timers with their latest lease. A claim that ran while an ack was on
        its way may have renewed a lease after the ack read it (the ack then found a newer
        lease): acked again with the newer one, so that it does not fire a second time."""
        for _ in range(GIVE_UP_LEASES):
            latest = [self._firing.get(item.timer_id, item) for item in fired]
            acked = await self._store.ack_all(latest)
            fired = [
                now
                for item, ok in zip(latest, acked, strict=True)
                if not ok and (now := self._firing.get(item.timer_id, item)) != item
            ]
            if not fired:
                return

    async def _retry_soon(self, item: Claimed) -> None:
        """A failed firing is due again after :data:`RETRY_MS`, doubled at each failure in
        a row, at most its lease; if that cannot be written, the lease runs out instead."""
        if len(self._failures) >= COUNTED_FAILURES:
            self._failures.clear()
        failures = self._failures[item.timer_id] = self._failures.get(item.timer_id, 0) + 1
        delay = min(RETRY_MS * 2 ** min(failures - 1, 16), self._lease_ms)
        try:
            await self._store.retry_at([item], self._clock() + delay)
        except Exception:
            log.warning("timer_retry_failed", timer_id=item.timer_id, exc_info=True)

    def _done(self, item: Claimed) -> Claimed:
        """A firing ended: its place is free, and its latest claim is what an ack uses."""
        self._freed.set()
        return self._firing.pop(item.timer_id, item)

    async def _fire_claimed(self, claimed: Sequence[Claimed]) -> None:
        try:
            await self._fire_all(claimed)
        except Exception:
            log.warning("timer_ack_failed", exc_info=True)  # their leases run out

    def _idle_seconds(self) -> float:
        due = self._store.next_due_ms
        until = IDLE_MS if due is None else due - self._ahead_ms - self._clock()
        return max(self._poll, min(until, IDLE_MS) / 1000)

    async def run_forever(self, stop: asyncio.Event | None = None) -> None:
        """Poll until ``stop``. A claim's timers fire while the poller goes on claiming (one
        claimed ahead waits for its due time, and the next one due must not wait for that),
        with at most ``batch`` timers in flight: a flood of overdue timers (after a restart)
        is claimed as fast as they are fired, not all at once, so none waits out its lease
        in this process before its turn comes."""
        stop = stop or asyncio.Event()
        in_flight: set[asyncio.Task[None]] = set()
        try:
            while not stop.is_set():
                while len(self._firing) >= self._batch:
                    self._freed.clear()
                    await self._freed.wait()
                room = self._batch - len(self._firing)
                try:
                    claimed = await self._claim(room)
                    self.last_poll = time.monotonic()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.warning("timer_poll_failed", exc_info=True)
                    await asyncio.sleep(max(self._poll, 0.5))
                    continue
                if claimed:
                    task = asyncio.create_task(self._fire_claimed(claimed))
                    in_flight.add(task)
                    task.add_done_callback(in_flight.discard)
                if len(claimed) < room:
                    await self._store.wait_armed(self._idle_seconds())
        finally:
            if in_flight:
                await asyncio.gather(*in_flight, return_exceptions=True)
