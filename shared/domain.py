"""What a service's pure domain hands back to its runtime.

A domain function is ``(state, command, now) -> Decision``. It never does I/O: the timers it
wants are requests in the decision, which the runtime commits with the state (through the
outbox) and the scheduler fires later as ``timer.fired`` commands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from shared.messages import Event

S = TypeVar("S")


@dataclass(frozen=True)
class TimerRequest:
    """Arm a timer ``timer_id`` due at ``due_ms`` (Unix ms); ``data`` comes back on firing."""

    timer_id: str
    due_ms: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision(Generic[S]):
    """The new state, the events to publish, and the timers to arm and cancel.

    ``state`` is ``None`` when nothing changed (the runtime commits nothing and only acks).
    """

    state: S | None
    events: list[Event] = field(default_factory=list)
    arm: list[TimerRequest] = field(default_factory=list)
    cancel: list[str] = field(default_factory=list)


def ms(seconds: float) -> int:
    return round(seconds * 1000)


def rfc3339(at_ms: int | None) -> str | None:
    """Unix milliseconds as an RFC 3339 UTC string (``2025-01-01T00:00:00.000Z``; docs/api.md:
    all times)."""
    if at_ms is None:
        return None
    moment = datetime.fromtimestamp(at_ms / 1000, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
