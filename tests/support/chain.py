"""The three services' real handlers in one process, over the in-memory fakes.

:class:`Chain` builds one :class:`shared.runtime.ServiceRuntime` per service from its own
``ServiceSpec`` (``services/<service>/handlers.py``), all sharing one :class:`MemoryData`, one
:class:`MemoryBus` and one :class:`FakeClock`. A command goes in as the gateway sends it;
:meth:`Chain.settle` then delivers every queued message, one at a time, until nothing is
left, exactly as the services would, only without RabbitMQ, Redis or waiting:

- each service's queue is first in, first out (one partition: the room's order);
- which service goes next is the oldest message overall, or a seeded random choice among
  the services with something queued (``interleave=Random(seed)``), which explores the
  orders the real services, running concurrently, may take;
- ``twice=True`` delivers every message twice (at least once delivery): the processed
  record must drop every repeat;
- time moves only in :meth:`Chain.run_until`: each timer fires at its due time through the
  real :class:`shared.timer_poller.TimerPoller`, and the chain settles before the next one.

A handler that raises fails the test (in a process, the message would be retried until the
delivery limit dead-letters it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from random import Random
from typing import Any

from gateway.commands import Outcome
from services.resolution.handlers import spec as resolution_spec
from services.states.handlers import spec as states_spec
from services.turns.handlers import spec as turns_spec
from shared.batch_memo import one_batch
from shared.keys import Aggregate, Keys
from shared.messages import (
    CMD_COMBAT_ACT,
    COMMAND_OWNER,
    SERVICES,
    Envelope,
    envelope,
    new_id,
    read_envelopes,
)
from shared.runtime import ServiceRuntime, ServiceSpec
from shared.runtime.ports import Store
from shared.timer_poller import TimerPoller
from tests.support.memory import (
    FakeClock,
    MemoryBus,
    MemoryData,
    MemoryRelay,
    MemoryStore,
    MemoryTimers,
)

T0 = 1_767_261_600_000  # 2026-01-01 10:00 UTC
REPLY_QUEUE = "chain.gateway.replies"
MAX_STEPS = 100_000

SPECS: dict[str, Callable[[Keys], ServiceSpec]] = {
    "turns": turns_spec,
    "resolution": resolution_spec,
    "states": states_spec,
}


class ChainStuckError(AssertionError):
    """The chain did not come to rest: messages or timers kept coming."""


class Chain:
    def __init__(
        self,
        *,
        start_ms: int = T0,
        interleave: Random | None = None,
        twice: bool = False,
        retention_seconds: int = 3600,
        namespace: str = "chain",
        stores: Callable[[MemoryData, str], Store] | None = None,
    ) -> None:
        """``stores(data, service)``: each service's store (default: the in-memory one over
        ``data``); ``tests/support/redis_mirror.py`` also writes every commit to Redis."""
        self.keys = Keys(namespace)
        self.clock = FakeClock(start_ms)
        self.data = MemoryData()
        self.bus = MemoryBus(self.keys.ns)
        self.interleave = interleave
        self.twice = twice
        self.delivered = 0
        self.handled: list[tuple[str, str]] = []  # (service, message type), in order
        # While set, ``send`` publishes a command and returns at once with no outcome,
        # delivering nothing: the command waits in its service's queue.
        self.holding = False
        self.timers: dict[str, MemoryTimers] = {}
        self.runtimes: dict[str, ServiceRuntime] = {}
        self.pollers: dict[str, TimerPoller] = {}
        for name in SERVICES:
            timers = MemoryTimers(self.clock)
            runtime = ServiceRuntime(
                SPECS[name](self.keys),
                keys=self.keys,
                store=(stores or MemoryStore)(self.data, name),
                relay=MemoryRelay(self.data, timers, self.bus),
                timers=timers,
                bus=self.bus,
                retention_seconds=retention_seconds,
                clock=self.clock,
            )
            self.timers[name] = timers
            self.runtimes[name] = runtime
            self.pollers[name] = TimerPoller(
                timers, runtime.fire_timer, poll_ms=0, lease_ms=30_000, clock=self.clock.now_ms
            )

    # --- delivering ---------------------------------------------------------------------
    def _next_service(self) -> str | None:
        waiting = [name for name, queue in self.bus.queues.items() if queue]
        if not waiting:
            return None
        if self.interleave is not None:
            return self.interleave.choice(waiting)
        return min(waiting, key=lambda name: self.bus.queues[name][0].seq)

    async def step(self) -> bool:
        """Deliver one message; False when every queue is empty."""
        service = self._next_service()
        if service is None:
            return False
        delivery = self.bus.queues[service].popleft()
        for _ in range(2 if self.twice else 1):
            envelopes = read_envelopes(delivery.type, delivery.body)
            with one_batch(len(envelopes)):
                for env in envelopes:
                    self.handled.append((service, env.type))
                    await self.runtimes[service].handle(env)
        self.delivered += 1
        return True

    async def settle(self) -> None:
        """Deliver until every queue is empty."""
        for _ in range(MAX_STEPS):
            if not await self.step():
                return
        raise ChainStuckError(f"still delivering after {MAX_STEPS} messages")

    def view(self, agg: Aggregate) -> dict[str, Any] | None:
        """The read model the aggregate's service last published."""
        raw = self.data.views.get(agg.view)
        return None if raw is None else dict(json.loads(raw))

    # --- time -----------------------------------------------------------------------------
    def next_due(self) -> int | None:
        dues = [due for t in self.timers.values() if (due := t.next_due()) is not None]
        return min(dues, default=None)

    async def run_until(self, ms: int) -> None:
        """Move the clock to ``ms``, firing every timer due on the way at its due time."""
        await self.settle()
        for _ in range(MAX_STEPS):
            due = self.next_due()
            if due is None or due > ms:
                self.clock.advance_to(ms)
                return
            self.clock.advance_to(due)
            for poller in self.pollers.values():
                await poller.run_once()
            await self.settle()
        raise ChainStuckError(f"timers kept firing before {ms}")

    async def run_for(self, seconds: float) -> None:
        await self.run_until(self.clock.now_ms() + round(seconds * 1000))

    async def reconcile(self) -> int:
        """One reconciler pass in every service; how many timers were re-armed."""
        rearmed = 0
        for runtime in self.runtimes.values():
            rearmed += await runtime.reconcile_once()
        await self.settle()
        return rearmed

    # --- the gateway's side -----------------------------------------------------------------
    async def send(
        self,
        type_: str,
        payload: dict[str, Any],
        *,
        tenant: str,
        room: str,
        combat_id: str | None,
        correlation_id: str | None = None,
        message_id: str | None = None,
    ) -> Outcome:
        """What ``CommandClient.send`` does: the command to its owner, then its outcome.

        The chain settles before the outcome is read; as in the gateway, the outcome ends at
        the first final message (or rejection) of the command's chain, and a chain that went
        through another service (only its last commit replies) takes its events from the
        combat's log, in the order committed.
        """
        correlation_id = correlation_id or new_id("r")
        command = envelope(
            type_,
            dict(payload),
            message_id=message_id or new_id("m"),
            correlation_id=correlation_id,
            combat_id=combat_id,
            room=room,
            tenant=tenant,
            reply_to=REPLY_QUEUE,
            occurred_at=self.clock.utcnow(),
        )
        log = self.data.logs[self.keys.combat("turns", combat_id).log] if combat_id else []
        logged_before = len(log)
        if type_ == CMD_COMBAT_ACT and combat_id is not None:
            # As the gateway: an action is queued for its combat in services/turns before it
            # is sent, so that a turn timer falling due meanwhile does not overtake it.
            queued = self.data.queued[self.keys.combat("turns", combat_id).queued]
            queued[command.message_id] = self.clock.now_ms()
        await self.bus.send_command(COMMAND_OWNER[type_], command)
        if self.holding:
            return Outcome()
        await self.settle()
        outcome = Outcome()
        replies, self.bus.replies[REPLY_QUEUE] = self.bus.replies[REPLY_QUEUE], []
        for reply_type, body in replies:
            for env in read_envelopes(reply_type, body):
                if env.correlation_id == correlation_id and outcome.take(env):
                    break
            if outcome.complete:
                break
        if outcome.complete and any(e.causation_id != command.message_id for e in outcome.events):
            logged = [Envelope.model_validate_json(raw) for raw in log[logged_before:]]
            chain = [env for env in logged if env.correlation_id == correlation_id]
            outcome.events = chain or outcome.events
        return outcome
