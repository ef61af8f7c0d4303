"""The adapters the runtime works through, as protocols: Redis and RabbitMQ in a process
(``shared/store.py``, ``shared/outbox.py``, ``shared/timers.py``, ``shared/bus.py``), in-memory
fakes in the chain tests (``tests/support/chain.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any, Protocol

from shared.keys import Aggregate, Names
from shared.messages import Envelope, utcnow
from shared.outbox import OutboxClaim, Publisher, TimerOps
from shared.outbox_entry import OutboxEntry
from shared.store import Commit, CommitResult, Loaded
from shared.timers import now_ms


class Clock(Protocol):
    def now_ms(self) -> int:
        """Unix milliseconds: the ``now`` handlers get and timers are due against."""
        ...

    def utcnow(self) -> datetime:
        """When the messages a commit produces occurred."""
        ...


class SystemClock:
    def now_ms(self) -> int:
        return now_ms()

    def utcnow(self) -> datetime:
        return utcnow()


class Bus(Publisher, Protocol):
    @property
    def names(self) -> Names: ...

    async def publish(self, exchange: str, routing_key: str, env: Envelope) -> None: ...

    async def send_command(self, service: str, env: Envelope) -> None: ...


class Store(Protocol):
    """One service's aggregates: versioned commits with their outbox (``shared/store.py``)."""

    async def load(self, agg: Aggregate) -> Loaded: ...

    async def load_unless_processed(self, agg: Aggregate, message_id: str) -> Loaded | None: ...

    async def commit(
        self, agg: Aggregate, commit: Commit, *, active: bool | None = None
    ) -> CommitResult: ...

    async def settle(self, agg: Aggregate, message_id: str) -> None:
        """A message handled without a commit is no longer queued for the aggregate."""
        ...

    async def read_view(self, agg: Aggregate) -> dict[str, Any] | None: ...

    async def last_logged(self, agg: Aggregate, count: int) -> list[tuple[str, str]]:
        """The newest ``count`` entries of the aggregate's log, newest first: (entry id
        ``<ms>-<seq>``, the logged envelope's JSON)."""
        ...

    def active_tags(self) -> AsyncIterator[str]: ...

    async def forget_active(self, tag: str) -> None: ...


class Relay(Protocol):
    """Carries out an aggregate's outbox in order (``shared/outbox.py``)."""

    async def flush(self, outbox_key: str) -> int: ...

    async def carry_claimed(self, claim: OutboxClaim, batch: Sequence[OutboxEntry]) -> int:
        """Carry out the entries a commit claimed, from memory (``batch``, in order)."""
        ...

    async def waiting(self, outbox_key: str) -> tuple[int, int]:
        """How many entries the outbox holds, and for how many ms more a flusher holds its
        lock (negative: none does): why a timer the state expects may not be armed yet."""
        ...


class Timers(TimerOps, Protocol):
    async def arm_if_missing(self, timer_id: str, due_ms: int, payload: dict[str, Any]) -> bool:
        """Arm unless armed, leased or just fired (the reconciler's re-arm)."""
        ...
