"""What one input produced, for every ruleset of every service: the events in order, the
timers to arm and to cancel; and the timers a state keeps so the reconciler can re-arm them.

A domain function fills one :class:`Outcome` and ends with ``out.decision(state)``, the
:class:`shared.domain.Decision` its runtime commits. A state that keeps its armed timers
(:class:`KeepsTimers`: a combat in services/turns) arms and cancels them with
:func:`arm_timer` and :func:`cancel_timer`, which keep the state and the outcome in step.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Protocol

from shared.dice.combat import rolled
from shared.dice.rolls import Roll
from shared.domain import Decision, TimerRequest
from shared.messages import Event

State = dict[str, Any]


class Dumps(Protocol):
    """A typed state that knows its JSON-ready form (what the runtime stores)."""

    def to_dict(self) -> State: ...


@dataclass
class Outcome:
    """Events and timers one input produced, in order."""

    events: list[Event] = field(default_factory=list)
    arm: list[TimerRequest] = field(default_factory=list)
    cancel: list[str] = field(default_factory=list)

    def emit(self, event_type: str, payload: dict[str, Any]) -> None:
        self.events.append(Event(event_type, payload))

    def rolled(
        self, roll: Roll, *, roller: str | None, combat_id: str, action_id: str | None = None
    ) -> None:
        """A ``dice.rolled`` record of a roll on the combat's stream (shared/dice)."""
        self.events.append(rolled(roll, roller=roller, combat_id=combat_id, action_id=action_id))

    def disarm(self, timer_id: str) -> None:
        """A timer is no longer wanted: one armed by this same input is simply not armed,
        an older one is cancelled."""
        if any(request.timer_id == timer_id for request in self.arm):
            self.arm = [r for r in self.arm if r.timer_id != timer_id]
        else:
            self.cancel.append(timer_id)

    def decision(self, state: Dumps | State | None) -> Decision[State]:
        """The decision to commit: the state's JSON-ready form (``None``: nothing changed)."""
        stored = state if state is None or isinstance(state, dict) else state.to_dict()
        return Decision(stored, list(self.events), list(self.arm), list(self.cancel))


@dataclass
class ArmedTimer:
    """A timer a state expects to be armed: its kind, due time (Unix ms) and data."""

    kind: str
    due_ms: int
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "due_ms": self.due_ms, "data": copy.deepcopy(self.data)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ArmedTimer:
        return cls(
            kind=str(d["kind"]), due_ms=int(d["due_ms"]), data=copy.deepcopy(d.get("data", {}))
        )


class KeepsTimers(Protocol):
    """A state that is the source of truth of its armed timers (``timers``), whose ids are
    ``<id>:<kind>:<n>`` with ``n`` a per-state counter (``timer_seq``)."""

    id: str
    timers: dict[str, ArmedTimer]
    timer_seq: int


def arm_timer(
    state: KeepsTimers, out: Outcome, kind: str, due_ms: int, data: dict[str, Any]
) -> str:
    """Arm a timer whose id is unique forever within the state (a per-state counter)."""
    state.timer_seq += 1
    timer_id = f"{state.id}:{kind}:{state.timer_seq}"
    state.timers[timer_id] = ArmedTimer(kind, due_ms, dict(data))
    out.arm.append(TimerRequest(timer_id, due_ms, kind, dict(data)))
    return timer_id


def cancel_timer(state: KeepsTimers, out: Outcome, timer_id: str | None) -> None:
    """Forget an armed timer; one armed by this same input is simply not armed."""
    if timer_id is None or timer_id not in state.timers:
        return
    del state.timers[timer_id]
    out.disarm(timer_id)
