"""What a service plugs into the runtime: its handlers, queries and what its states mean."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from shared.domain import Decision, TimerRequest
from shared.keys import Aggregate, Keys
from shared.messages import Envelope
from shared.stalls import Stalled

State = dict[str, Any]


@dataclass(frozen=True)
class Target:
    """One aggregate a message concerns, and its subject (combat id or character id)."""

    agg: Aggregate
    subject: str


Handler = Callable[[Envelope, State | None, Target, int], Decision[State]]


@dataclass(frozen=True)
class QueryContext:
    """What a read-only query may read besides its own aggregates: published read models."""

    keys: Keys
    read_view: Callable[[Aggregate], Awaitable[dict[str, Any] | None]]


Query = Callable[[Envelope, dict[str, State | None], QueryContext, int], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class ServiceSpec:
    """What a service plugs into the runtime."""

    name: str
    handlers: dict[str, Handler]
    targets: Callable[[Envelope], list[Target]]
    view: Callable[[State, int], dict[str, Any] | None]
    # Active aggregates are visited by the reconciler (they may have timers armed).
    is_active: Callable[[State], bool]
    armed_timers: Callable[[State], list[TimerRequest]]
    # Aggregates that may expire get the retention TTL on their keys (an ended combat).
    expires: Callable[[State], bool]
    # Read-only questions answered straight to the asker (QUERY_ANSWERS), nothing committed.
    queries: dict[str, Query] = field(default_factory=dict)
    # Why an active aggregate waits for nothing (given how long its log has been quiet, ms),
    # or None; the reconciler logs and counts what it answers (shared/stalls.py).
    stalled: Stalled | None = None
    # A fired timer of one of its aggregates is applied at once, not sent through the
    # aggregate's partition, unless messages are queued there for that aggregate
    # (shared/runtime/firing.py); every message it is sent must then settle its place in
    # the aggregate's ``queued`` set, however it is handled (shared/runtime/handling.py).
    timer_lane: bool = False
