"""The timer lane: what an armed timer carries, and its firing as a ``timer.fired`` command.

A timer's payload names everything its firing needs to be routed like any command of its
combat or character (room, tenant, aggregate tag, subject), so the poller reads nothing else.
The fired message id is derived from the timer id and its due time: a timer fired twice (a
poller died before its ack) is the same message, and the processed record drops the repeat.

In a service whose spec has ``timer_lane`` (services/turns), a fired timer does not wait in
its room's partition behind the commands of other combats: when no message is queued for its
aggregate (``Aggregate.queued``: the gateway queues each action before sending it, the
service removes it once handled), the poller's process applies it at once, as the partition's
consumer would; when some are, it joins them and goes through the partition behind them, so
a timer never overtakes an action the gateway accepted before the timer fell due, nor an
earlier timer. A message queued after that check was accepted after the timer fell due.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from shared.domain import TimerRequest
from shared.keys import Aggregate
from shared.messages import CMD_TIMER_FIRED, Envelope, derived_id, envelope
from shared.metrics import TIMERS_FIRED
from shared.runtime.ports import Bus, Clock, Store
from shared.runtime.spec import ServiceSpec
from shared.timers import Claimed

# Fired timers applied at once by one process at the same time (the rest wait their turn):
# after a restart, thousands fall due together.
APPLIED_AT_ONCE = 64


def timer_payload(
    timer: TimerRequest,
    *,
    tag: str,
    subject: str,
    combat_id: str | None,
    room: str,
    tenant: str,
) -> dict[str, Any]:
    """What the timer store keeps with an armed timer (``Claimed.payload`` on firing)."""
    return {
        "timer_id": timer.timer_id,
        "kind": timer.kind,
        "due_ms": timer.due_ms,
        "data": timer.data,
        "tag": tag,
        "subject": subject,
        "combat_id": combat_id,
        "room": room,
        "tenant": tenant,
    }


class TimerFiring:
    def __init__(
        self,
        spec: ServiceSpec,
        bus: Bus,
        clock: Clock,
        *,
        store: Store,
        ns: str,
        apply: Callable[[Envelope], Awaitable[None]],
    ) -> None:
        self._spec = spec
        self._service = spec.name
        self._bus = bus
        self._clock = clock
        self._store = store
        self._ns = ns
        self._apply = apply
        self._slots = asyncio.Semaphore(APPLIED_AT_ONCE)

    async def fire(self, claimed: Claimed) -> None:
        """Apply a claimed timer at once, or publish it as a ``timer.fired`` command routed
        by room (module docstring)."""
        fired = self.fired(claimed)
        tag = claimed.payload.get("tag")
        if self._spec.timer_lane and isinstance(tag, str):
            agg = Aggregate(self._ns, self._service, tag)
            async with self._slots:
                now = self._clock.now_ms()
                if not await self._store.queue_timer(agg, fired.message_id, now):
                    await self._apply(fired)
                    TIMERS_FIRED.labels(self._service).inc()
                    return
        await self._bus.send_command(self._service, fired)
        TIMERS_FIRED.labels(self._service).inc()

    def fired(self, claimed: Claimed) -> Envelope:
        """The ``timer.fired`` command of a claimed timer."""
        p = claimed.payload
        return envelope(
            CMD_TIMER_FIRED,
            {
                "timer_id": claimed.timer_id,
                "kind": p["kind"],
                "due_ms": p["due_ms"],
                "data": {**p.get("data", {}), "tag": p.get("tag"), "subject": p.get("subject")},
            },
            message_id=derived_id("m", self._service, "timer", claimed.timer_id, str(p["due_ms"])),
            correlation_id=derived_id("t", claimed.timer_id),
            combat_id=p.get("combat_id"),
            room=p["room"],
            tenant=p["tenant"],
            occurred_at=self._clock.utcnow(),
        )
