"""Messages sent straight, outside any commit: a query's answer, a rejection, their replies.

A waiting gateway's reply queue is exclusive to that gateway instance: the publish to it is
not mandatory, so a gateway that went away costs nothing but the reply.
"""

from __future__ import annotations

from typing import Any

from shared.messages import COMMAND_REJECTED, Envelope, derived_id, envelope
from shared.runtime.ports import Bus, Clock


class Outgoing:
    def __init__(self, service: str, bus: Bus, clock: Clock) -> None:
        self._service = service
        self._bus = bus
        self._clock = clock

    def follow_up(self, cause: Envelope, type_: str, payload: dict[str, Any], tag: str) -> Envelope:
        """A final message caused by ``cause``; its id is derived, so a retry repeats it."""
        return envelope(
            type_,
            payload,
            message_id=derived_id("m", self._service, cause.message_id, tag),
            cause=cause,
            occurred_at=self._clock.utcnow(),
        )

    async def reply(self, queue: str, message: Envelope) -> None:
        """Straight to a waiting gateway's reply queue (not mandatory: it may be gone)."""
        await self._bus.publish_raw(
            "",
            queue,
            message.to_json(),
            message_id=message.message_id,
            correlation_id=message.correlation_id,
            type_=message.type,
            mandatory=False,
        )

    async def reject(self, cause: Envelope, payload: dict[str, Any]) -> None:
        """``command.rejected`` (code, rule, details): to the public events and the asker."""
        out = self.follow_up(
            cause, COMMAND_REJECTED, {**payload, "command_type": cause.type}, "rejected"
        )
        await self._bus.publish(self._bus.names.events(), COMMAND_REJECTED, out)
        if cause.reply_to:
            await self.reply(cause.reply_to, out)
