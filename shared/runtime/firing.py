"""The timer lane: what an armed timer carries, and its firing as a ``timer.fired`` command.

A timer's payload names everything its firing needs to be routed like any command of its
combat or character (room, tenant, aggregate tag, subject), so the poller reads nothing else.
The fired message id is derived from the timer id and its due time: a timer fired twice (a
poller died before its ack) is the same message, and the processed record drops the repeat.

In a service whose spec has ``timer_lane`` (services/turns), a fired timer does not wait in
its room's partition behind the commands of other combats: the poller's process applies it
itself, as the partition's consumer would, and its commit checks in the same script that no
message is queued for the aggregate (``Aggregate.queued``: the gateway queues each action
before sending it, the service removes it once handled). When some are, the timer joins them
instead and goes through the partition behind them, so a timer never overtakes an action the
gateway accepted before the timer fell due, nor an earlier timer: a message queued after
that commit was accepted after the timer fell due. The poller claims timers a little before
they are due (``CLAIM_AHEAD_MS``) and the state is loaded then; the commit waits for the due
time, so that a busy process applies a timer after one wait for its event loop, not four.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from shared.domain import TimerRequest
from shared.keys import Aggregate
from shared.logging import get_logger
from shared.messages import CMD_TIMER_FIRED, Envelope, derived_id, envelope
from shared.metrics import TIMER_LATENESS, TIMERS_FIRED
from shared.runtime.ports import Bus, Clock, Store
from shared.runtime.spec import ServiceSpec
from shared.store import Loaded
from shared.timers import Claimed

log = get_logger(__name__)

# Fired timers applied at once by one process at the same time (the rest wait their turn):
# after a restart, thousands fall due together.
APPLIED_AT_ONCE = 64
# A sleep until a due time may end a little early (the event loop's clock is read at the
# start of its iteration): the timer then sleeps again, this many times at most.
EARLY_WAKES = 100


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
        apply: Callable[[Envelope, Mapping[str, Loaded | None]], Awaitable[bool]],
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
        """Fire a claimed timer once it is due (the poller claims a little ahead): applied at
        once, or published as a ``timer.fired`` command routed by room (module docstring)."""
        tag = claimed.payload.get("tag")
        if not (self._spec.timer_lane and isinstance(tag, str)):
            await self._until_due(claimed)
            await self._bus.send_command(self._service, self.fired(claimed))
            TIMERS_FIRED.labels(self._service).inc()
            return
        async with self._slots:
            # The state is read before the timer is due; a commit made since then makes
            # the timer's commit conflict, and it is decided again on the state read anew.
            to_send = await self._applied_at_once(claimed, tag)
            if to_send is not None:
                await self._bus.send_command(self._service, to_send)
        TIMERS_FIRED.labels(self._service).inc()

    async def _applied_at_once(self, claimed: Claimed, tag: str) -> Envelope | None:
        """Apply the timer in this process once it is due (``None``), or say what must go
        through the partition instead: messages are queued for its combat, or applying it
        here failed (the partition's consumer retries it as it does any command, and the
        processed record drops it if the failed attempt had committed after all)."""
        agg = Aggregate(self._ns, self._service, tag)
        fired: Envelope | None = None  # built once it is due (its time is when it fired)
        try:
            loaded = await self._store.load_unless_processed(agg, fired_id(self._service, claimed))
            await self._until_due(claimed)
            fired = self.fired(claimed)
            return None if await self._apply(fired, {tag: loaded}) else fired
        except Exception:
            log.warning("timer_lane_failed", timer_id=claimed.timer_id, exc_info=True)
            if fired is None:
                await self._until_due(claimed)
                fired = self.fired(claimed)
            return fired

    async def _until_due(self, claimed: Claimed) -> None:
        """Wait until the timer is due by the clock (a sleep may end early by a little)."""
        due = int(claimed.payload["due_ms"])
        for _ in range(EARLY_WAKES):
            wait = due - self._clock.now_ms()
            if wait <= 0:
                break
            await asyncio.sleep(wait / 1000)
        TIMER_LATENESS.labels(self._service).set((self._clock.now_ms() - due) / 1000)

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
            message_id=fired_id(self._service, claimed),
            correlation_id=derived_id("t", claimed.timer_id),
            combat_id=p.get("combat_id"),
            room=p["room"],
            tenant=p["tenant"],
            occurred_at=self._clock.utcnow(),
        )


def fired_id(service: str, claimed: Claimed) -> str:
    """The fired message's id: the same however often the timer fires (module docstring)."""
    return derived_id("m", service, "timer", claimed.timer_id, str(claimed.payload["due_ms"]))
