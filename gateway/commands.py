"""Send a command to a service and wait (bounded) for the outcome of its chain.

Each gateway instance has an exclusive reply queue. A command carries its name in
``reply_to``; every service copies it onto the events its handling produces, and the outbox
relay also sends those events to this queue. The first event marked ``final`` (or a
``command.rejected``) completes the wait; on timeout the caller answers 202 and the client
polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from dataclasses import dataclass, field

from aio_pika.abc import AbstractIncomingMessage, AbstractQueue
from pydantic import ValidationError

from shared.bus import Bus
from shared.logging import get_logger
from shared.messages import COMMAND_REJECTED, REPLY_BATCH, Envelope

log = get_logger(__name__)


@dataclass
class Outcome:
    events: list[Envelope] = field(default_factory=list)
    rejected: Envelope | None = None
    complete: bool = False


@dataclass
class _Waiter:
    outcome: Outcome = field(default_factory=Outcome)
    done: asyncio.Event = field(default_factory=asyncio.Event)


class CommandClient:
    def __init__(self, bus: Bus) -> None:
        self._bus = bus
        self.instance = uuid.uuid4().hex[:12]
        self.reply_queue = bus.names.gateway_replies(self.instance)
        self._waiters: dict[str, _Waiter] = {}
        self._queue: AbstractQueue | None = None

    async def start(self) -> None:
        channel = self._bus.consumer_channel()
        self._queue = await channel.declare_queue(
            self.reply_queue, exclusive=True, auto_delete=True, durable=False
        )
        await self._bus.consume_queue(self._queue, self._on_reply, no_ack=True)

    async def _on_reply(self, message: AbstractIncomingMessage) -> None:
        try:
            if message.type == REPLY_BATCH:
                envelopes = [Envelope.model_validate(e) for e in json.loads(message.body)]
            else:
                envelopes = [Envelope.from_json(message.body)]
        except (ValidationError, ValueError):
            return
        for env in envelopes:
            self._take(env)

    def _take(self, env: Envelope) -> None:
        waiter = self._waiters.get(env.correlation_id)
        if waiter is None:
            return
        if env.type == COMMAND_REJECTED:
            waiter.outcome.rejected = env
            waiter.outcome.complete = True
            waiter.done.set()
            return
        if all(e.message_id != env.message_id for e in waiter.outcome.events):
            waiter.outcome.events.append(env)
        if env.final:
            waiter.outcome.complete = True
            waiter.done.set()

    async def send(self, service: str, env: Envelope, *, wait_seconds: float) -> Outcome:
        """Publish ``env`` to ``service`` and wait up to ``wait_seconds`` for its outcome.

        Raises :class:`shared.bus.BusUnavailableError` if the broker did not take the command.
        """
        env = env.model_copy(update={"reply_to": self.reply_queue})
        waiter = _Waiter()
        self._waiters[env.correlation_id] = waiter
        try:
            await self._bus.send_command(service, env)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter.done.wait(), wait_seconds)
            return waiter.outcome
        finally:
            self._waiters.pop(env.correlation_id, None)

    @property
    def pending(self) -> int:
        return len(self._waiters)
