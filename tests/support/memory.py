"""In-memory fakes of the runtime's adapters (``shared/runtime/ports.py``) for unit tests.

They keep the semantics the services rely on, not the servers' mechanics:
- :class:`MemoryStore` is the commit script: a message already processed on the aggregate is
  a duplicate, a stale state version a conflict, a differing ``If-Match`` a precondition
  failure; otherwise state, processed record, shared version counter, outbox, log and read
  model are written together. States, views and outbox entries are kept in their stored
  (JSON) form, so what would not survive Redis does not survive here either.
- :class:`MemoryRelay` carries an outbox out in order with the real :func:`carry_out`.
- :class:`MemoryTimers` is the timer set: due times, leases, acks, recently fired ids.
- :class:`MemoryBus` routes like the topology: a service's command exchange to that
  service's queue (FIFO, as one partition), the events exchange to the public record, the
  default exchange to a reply queue. An unroutable mandatory publish raises.
- :class:`FakeClock` is the time every piece reads; tests move it.
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from shared.keys import Aggregate, Names
from shared.messages import SERVICES, Envelope, read_envelopes
from shared.outbox import OutboxClaim, carry_out
from shared.outbox_entry import ArmTimer, OutboxEntry, TimerOp, dump_entry, load_entry
from shared.store import QUEUED_TTL_MS, Commit, CommitResult, CommitStatus, Loaded
from shared.timers import FIRED_KEEP_MS, Claimed, cancelled_mark


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _next_id(ids: list[str], now_ms: int) -> str:
    """A stream id after the last one, as ``XADD *`` gives (``<ms>-<seq>``)."""
    if ids:
        last_ms, _, seq = ids[-1].partition("-")
        if int(last_ms) >= now_ms:
            return f"{last_ms}-{int(seq) + 1}"
    return f"{now_ms}-0"


class FakeClock:
    """Unix milliseconds that move only when a test moves them."""

    def __init__(self, start_ms: int) -> None:
        self.ms = start_ms

    def now_ms(self) -> int:
        return self.ms

    def utcnow(self) -> datetime:
        return datetime.fromtimestamp(self.ms / 1000, UTC)

    def advance_to(self, ms: int) -> None:
        self.ms = max(self.ms, ms)


@dataclass
class MemoryData:
    """Everything the services keep, by the same key names as in Redis."""

    states: dict[str, tuple[int, str]] = field(default_factory=dict)
    processed: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    versions: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    outboxes: dict[str, deque[str]] = field(default_factory=lambda: defaultdict(deque))
    logs: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    # The stream ids of the logs' entries, ``<ms>-<seq>`` from the commits' ``now_ms``.
    log_ids: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    views: dict[str, str] = field(default_factory=dict)
    active: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    # Messages queued for an aggregate that a fired timer must not overtake (``queued`` key).
    queued: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    commits: int = 0


class MemoryStore:
    """One service's aggregates (the :class:`shared.runtime.ports.Store` port)."""

    def __init__(self, data: MemoryData, service: str) -> None:
        self._data = data
        self._service = service

    async def load(self, agg: Aggregate) -> Loaded:
        version, raw = self._data.states.get(agg.state, (0, ""))
        return Loaded(version, json.loads(raw) if raw else None)

    async def load_unless_processed(self, agg: Aggregate, message_id: str) -> Loaded | None:
        if message_id in self._data.processed[agg.processed]:
            self._data.queued[agg.queued].pop(message_id, None)
            return None
        loaded = await self.load(agg)
        return Loaded(loaded.version, loaded.data, self._data.versions[agg.version])

    async def commit(
        self, agg: Aggregate, commit: Commit, *, active: bool | None = None
    ) -> CommitResult:
        data = self._data
        current = data.states.get(agg.state, (0, ""))[0]
        if commit.message_id in data.processed[agg.processed]:
            data.queued[agg.queued].pop(commit.message_id, None)
            return CommitResult(CommitStatus.DUPLICATE, current, data.versions[agg.version])
        queued = data.queued[agg.queued]
        if commit.unless_queued:
            for stale in [m for m, at in queued.items() if at <= commit.now_ms - QUEUED_TTL_MS]:
                del queued[stale]
            if queued:
                queued[commit.message_id] = commit.now_ms
                return CommitResult(CommitStatus.QUEUED, current, 0)
        if current != commit.expected_version:
            return CommitResult(CommitStatus.CONFLICT, current, 0)
        queued.pop(commit.message_id, None)
        seen = data.versions[agg.version]
        if commit.if_match is not None and seen != commit.if_match:
            return CommitResult(CommitStatus.PRECONDITION, current, seen)
        data.states[agg.state] = (current + 1, _dumps(commit.state))
        data.processed[agg.processed].add(commit.message_id)
        data.versions[agg.version] = seen + 1
        outbox = data.outboxes[agg.outbox]
        claimed = not outbox and bool(commit.outbox)
        outbox.extend(dump_entry(e) for e in commit.outbox)
        data.logs[agg.log].extend(commit.log)
        for _ in commit.log:
            data.log_ids[agg.log].append(_next_id(data.log_ids[agg.log], commit.now_ms))
        if commit.view is not None:
            data.views[agg.view] = _dumps(commit.view)
        if active is not None:
            tags = data.active[self._service]
            tags.add(agg.tag) if active else tags.discard(agg.tag)
        data.commits += 1
        # As the script: the committer carries out its entries when nothing older waited.
        ids = tuple(str(index) for index in range(len(commit.outbox)))
        claim = OutboxClaim(agg.outbox, "memory", ids) if claimed else None
        return CommitResult(CommitStatus.OK, current + 1, seen + 1, claim)

    async def settle(self, agg: Aggregate, message_id: str) -> None:
        self._data.queued[agg.queued].pop(message_id, None)

    async def read_view(self, agg: Aggregate) -> dict[str, Any] | None:
        raw = self._data.views.get(agg.view)
        return None if raw is None else dict(json.loads(raw))

    async def last_logged(self, agg: Aggregate, count: int) -> list[tuple[str, str]]:
        pairs = list(zip(self._data.log_ids[agg.log], self._data.logs[agg.log], strict=True))
        return pairs[::-1][:count]

    async def active_tags(self) -> AsyncIterator[str]:
        for tag in sorted(self._data.active[self._service]):
            yield tag

    async def forget_active(self, tag: str) -> None:
        self._data.active[self._service].discard(tag)


class MemoryTimers:
    """One service's timer set (the ``Timers`` port and what the poller claims and acks)."""

    def __init__(self, clock: FakeClock) -> None:
        self._clock = clock
        self.due: dict[str, int] = {}
        self.payloads: dict[str, dict[str, Any]] = {}
        self.fired: dict[str, int] = {}

    async def apply(self, ops: Sequence[TimerOp]) -> None:
        for op in ops:
            if isinstance(op, ArmTimer):
                self.due[op.timer_id] = op.due_ms
                self.payloads[op.timer_id] = json.loads(_dumps(op.payload))
            else:
                if self.due.pop(op.timer_id, None) is not None:  # as the cancel script
                    self.fired[op.timer_id] = cancelled_mark(self._clock.now_ms())
                self.payloads.pop(op.timer_id, None)

    async def arm_if_missing(self, timer_id: str, due_ms: int, payload: dict[str, Any]) -> bool:
        if timer_id in self.due or timer_id in self.fired:
            return False
        await self.apply([ArmTimer(timer_id, due_ms, payload)])
        return True

    async def claim(self, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]:
        ready = sorted((due, tid) for tid, due in self.due.items() if due <= now)[:limit]
        for _, tid in ready:
            self.due[tid] = now + lease_ms
        return [Claimed(tid, now + lease_ms, self.payloads.get(tid, {})) for _, tid in ready]

    async def ack(self, claimed: Claimed) -> bool:
        if self.due.get(claimed.timer_id) != claimed.lease_ms:
            return False
        del self.due[claimed.timer_id]
        self.payloads.pop(claimed.timer_id, None)
        now = self._clock.now_ms()
        self.fired[claimed.timer_id] = now
        self.fired = {t: at for t, at in self.fired.items() if at > now - FIRED_KEEP_MS}
        return True

    @property
    def next_due_ms(self) -> int | None:
        return self.next_due()

    async def wait_armed(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def ack_all(self, claimed: Sequence[Claimed]) -> list[bool]:
        return [await self.ack(item) for item in claimed]

    async def retry_at(self, claimed: Sequence[Claimed], at_ms: int) -> None:
        for item in claimed:
            if self.due.get(item.timer_id) == item.lease_ms:
                self.due[item.timer_id] = at_ms

    def next_due(self) -> int | None:
        return min(self.due.values(), default=None)


@dataclass(frozen=True)
class Delivery:
    """A message waiting in a service's queue, as the broker holds it."""

    seq: int
    body: bytes
    type: str | None = None


class MemoryBus:
    """The broker's routing, in memory (the ``Bus`` port)."""

    def __init__(self, namespace: str) -> None:
        self._names = Names(namespace)
        self.queues: dict[str, deque[Delivery]] = {s: deque() for s in SERVICES}
        self.events: list[Envelope] = []
        self.replies: dict[str, list[tuple[str | None, bytes]]] = defaultdict(list)
        self._seq = 0

    @property
    def names(self) -> Names:
        return self._names

    async def publish_raw(
        self,
        exchange: str,
        routing_key: str,
        body: bytes,
        *,
        message_id: str,
        correlation_id: str | None = None,
        type_: str | None = None,
        mandatory: bool = True,
    ) -> None:
        if exchange == "":
            self.replies[routing_key].append((type_, body))
            return
        if exchange == self._names.events():
            self.events += read_envelopes(type_, body)
            return
        for service, queue in self.queues.items():
            if exchange == self._names.commands(service):
                self._seq += 1
                queue.append(Delivery(self._seq, body, type_))
                return
        if mandatory:
            raise AssertionError(f"unroutable publish to {exchange!r}/{routing_key!r}")

    async def publish(self, exchange: str, routing_key: str, env: Envelope) -> None:
        await self.publish_raw(
            exchange,
            routing_key,
            env.to_json(),
            message_id=env.message_id,
            correlation_id=env.correlation_id,
            type_=env.type,
        )

    async def send_command(self, service: str, env: Envelope) -> None:
        await self.publish(self._names.commands(service), env.room, env)


class MemoryRelay:
    """Carries an outbox out in order, deleting what took effect (the ``Relay`` port)."""

    def __init__(self, data: MemoryData, timers: MemoryTimers, bus: MemoryBus) -> None:
        self._data = data
        self._timers = timers
        self._bus = bus

    async def flush(self, outbox_key: str) -> int:
        outbox = self._data.outboxes[outbox_key]
        entries = [(index, load_entry(raw)) for index, raw in enumerate(outbox)]
        applied, failure = await carry_out(entries, self._timers, self._bus)
        for _ in applied:
            outbox.popleft()
        if failure is not None:
            raise failure
        return len(applied)

    async def waiting(self, outbox_key: str) -> tuple[int, int]:
        return len(self._data.outboxes[outbox_key]), -2  # one process: nobody holds it

    async def carry_claimed(self, claim: OutboxClaim, batch: Sequence[OutboxEntry]) -> int:
        """The claimed entries from memory, then removed from the outbox's head (unless a
        flush already carried them out)."""
        outbox = self._data.outboxes[claim.outbox]
        pairs = list(zip(claim.entry_ids, batch, strict=True))
        applied, failure = await carry_out(pairs, self._timers, self._bus)
        for entry in batch[: len(applied)]:
            if outbox and outbox[0] == dump_entry(entry):
                outbox.popleft()
        if failure is not None:
            raise failure
        return len(applied)
