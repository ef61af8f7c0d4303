"""The timer lane: what an armed timer carries, and its firing as a ``timer.fired`` command.

A timer's payload names everything its firing needs to be routed like any command of its
combat or character (room, tenant, aggregate tag, subject), so the poller reads nothing else.
The fired message id is derived from the timer id and its due time: a timer fired twice (a
poller died before its ack) is the same message, and the processed record drops the repeat.

The lane of its own: the poller that claimed a timer hands its ``timer.fired`` straight to
this process's message handling instead of the broker, so a fired timer never waits in its
room's partition behind that room's commands. The handling commits with the version check
like any command (a command of the same aggregate committed meanwhile makes it reload and
decide again, never overwrites it); the timers of one aggregate are handled one after the
other in the order they were claimed, those of different aggregates together. While the
store or the broker is down the error goes back to the poller, which leaves the lease to run
out and fires again; a firing whose handling fails otherwise is sent through the room's
partition as before, where the delivery limit dead-letters it if it keeps failing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from shared.bus import TRANSIENT_ERRORS
from shared.domain import TimerRequest
from shared.logging import get_logger
from shared.messages import CMD_TIMER_FIRED, Envelope, derived_id, envelope
from shared.metrics import TIMERS_FIRED
from shared.runtime.ports import Bus, Clock
from shared.timers import Claimed


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


log = get_logger(__name__)


@dataclass
class _Lane:
    """The timers of one aggregate being handled: one at a time, in claim order (an asyncio
    lock wakes its waiters first come, first served)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class TimerFiring:
    def __init__(
        self,
        service: str,
        bus: Bus,
        clock: Clock,
        handle: Callable[[Envelope], Awaitable[None]],
    ) -> None:
        self._service = service
        self._bus = bus
        self._clock = clock
        self._handle = handle
        self._lanes: dict[str, _Lane] = {}

    def command(self, claimed: Claimed) -> Envelope:
        """The ``timer.fired`` command of a claimed timer, routed by its room."""
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

    async def fire(self, claimed: Claimed) -> None:
        """Handle a claimed timer's ``timer.fired`` here, after the earlier ones of its
        aggregate; raises (the poller then leaves the lease to run out) while the store or
        the broker is down."""
        fired = self.command(claimed)
        tag = str(claimed.payload.get("tag") or claimed.timer_id)
        lane = self._lanes.setdefault(tag, _Lane())
        lane.users += 1
        try:
            async with lane.lock:
                await self._handle_or_hand_over(fired)
        finally:
            lane.users -= 1
            if lane.users == 0:
                self._lanes.pop(tag, None)
        TIMERS_FIRED.labels(self._service).inc()

    async def _handle_or_hand_over(self, fired: Envelope) -> None:
        try:
            await self._handle(fired)
        except TRANSIENT_ERRORS:
            raise
        except Exception:
            log.exception("timer_handling_failed", message_id=fired.message_id)
            await self._bus.send_command(self._service, fired)
