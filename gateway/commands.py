"""The gateway's one send-and-wait: a command to its service, then the outcome of its chain.

Each gateway instance has an exclusive reply queue. A command carries its name in
``reply_to``; every service copies it onto the messages its handling produces, and the outbox
relay sends the public events of the commit that ends the chain to this queue
(``reply.batch``; the route reads the earlier commits' events from the combat's log). The
first event marked ``final`` (or a ``command.rejected``) completes the wait; on timeout the
caller answers 202 and the client polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from aio_pika.abc import AbstractIncomingMessage, AbstractQueue
from pydantic import ValidationError

from gateway.metrics import COMMAND_SECONDS
from shared.bus import Bus
from shared.logging import get_logger
from shared.messages import COMMAND_OWNER, COMMAND_REJECTED, Envelope, envelope, read_envelopes

log = get_logger(__name__)


@dataclass
class Outcome:
    """What the chain of one command produced so far."""

    events: list[Envelope] = field(default_factory=list)
    rejected: Envelope | None = None
    complete: bool = False

    def take(self, env: Envelope) -> bool:
        """Take one message of the chain (repeats are dropped); True once complete."""
        if env.type == COMMAND_REJECTED:
            self.rejected = env
            self.complete = True
            return True
        if all(e.message_id != env.message_id for e in self.events):
            self.events.append(env)
        if env.final:
            self.complete = True
        return self.complete

    @property
    def status(self) -> str:
        return "rejected" if self.rejected else ("completed" if self.complete else "pending")


class Sender(Protocol):
    """The send-and-wait (:class:`CommandClient`, or the in-memory chain of the tests)."""

    async def send(
        self,
        type_: str,
        payload: dict[str, Any],
        *,
        tenant: str,
        room: str,
        combat_id: str | None,
        correlation_id: str,
        message_id: str,
    ) -> Outcome: ...


@dataclass
class _Waiter:
    outcome: Outcome = field(default_factory=Outcome)
    done: asyncio.Event = field(default_factory=asyncio.Event)


class CommandClient:
    def __init__(
        self,
        bus: Bus,
        *,
        wait_seconds: float,
        require: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self._bus = bus
        self._wait_seconds = wait_seconds
        # Refuses (503) a command for a service that consumes nothing (gateway/availability.py).
        self._require = require
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
            envelopes = read_envelopes(message.type, message.body)
        except (ValidationError, ValueError):
            return
        for env in envelopes:
            waiter = self._waiters.get(env.correlation_id)
            if waiter is not None and waiter.outcome.take(env):
                waiter.done.set()

    async def send(
        self,
        type_: str,
        payload: dict[str, Any],
        *,
        tenant: str,
        room: str,
        combat_id: str | None,
        correlation_id: str,
        message_id: str,
    ) -> Outcome:
        """Publish a command to the service that owns ``type_`` and wait for its outcome.

        The wait is bounded by the request timeout (``REFEREE_REQUEST_TIMEOUT``): an outcome
        not ``complete`` by then is answered 202. Raises
        :class:`shared.bus.BusUnavailableError` if the broker did not take the command, and
        a 503 before publishing when the owning service has no consumer.
        """
        if self._require is not None:
            await self._require(COMMAND_OWNER[type_])
        env = envelope(
            type_,
            payload,
            message_id=message_id,
            correlation_id=correlation_id,
            combat_id=combat_id,
            room=room,
            tenant=tenant,
            reply_to=self.reply_queue,
        )
        waiter = _Waiter()
        self._waiters[correlation_id] = waiter
        started = time.perf_counter()
        try:
            await self._bus.send_command(COMMAND_OWNER[type_], env)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter.done.wait(), self._wait_seconds)
            outcome = waiter.outcome
            COMMAND_SECONDS.labels(type_, outcome.status).observe(time.perf_counter() - started)
            return outcome
        finally:
            self._waiters.pop(correlation_id, None)

    @property
    def pending(self) -> int:
        return len(self._waiters)
