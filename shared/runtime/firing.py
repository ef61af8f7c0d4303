"""The timer lane: what an armed timer carries, and its firing as a ``timer.fired`` command.

A timer's payload names everything its firing needs to be routed like any command of its
combat or character (room, tenant, aggregate tag, subject), so the poller reads nothing else.
The fired message id is derived from the timer id and its due time: a timer fired twice (a
poller died before its ack) is the same message, and the processed record drops the repeat.
"""

from __future__ import annotations

from typing import Any

from shared.domain import TimerRequest
from shared.messages import CMD_TIMER_FIRED, derived_id, envelope
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


class TimerFiring:
    def __init__(self, service: str, bus: Bus, clock: Clock) -> None:
        self._service = service
        self._bus = bus
        self._clock = clock

    async def fire(self, claimed: Claimed) -> None:
        """Publish a claimed timer as a ``timer.fired`` command, routed by room."""
        p = claimed.payload
        fired = envelope(
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
        await self._bus.send_command(self._service, fired)
        TIMERS_FIRED.labels(self._service).inc()
