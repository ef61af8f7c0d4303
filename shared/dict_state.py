"""For a ruleset that keeps its combat state as a plain dict (cypher, l5r): what one input
produces (:class:`Out`) and its timers, kept in ``state["timers"]`` so that the reconciler
can re-arm them (``TurnsRuleset.timers``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.dice.combat import rolled
from shared.dice.rolls import Roll
from shared.domain import Decision, TimerRequest
from shared.messages import Event

State = dict[str, Any]


@dataclass
class Out:
    """Events and timers one input produced, in order."""

    events: list[Event] = field(default_factory=list)
    arm: list[TimerRequest] = field(default_factory=list)
    cancel: list[str] = field(default_factory=list)

    def emit(self, event_type: str, payload: dict[str, Any]) -> None:
        self.events.append(Event(event_type, payload))

    def rolled(self, state: State, roll: Roll, roller: str | None) -> None:
        """A ``dice.rolled`` record of a roll on the combat's stream (shared/dice)."""
        self.events.append(rolled(roll, roller=roller, combat_id=str(state["id"])))

    def decision(self, state: State) -> Decision[State]:
        return Decision(state, list(self.events), list(self.arm), list(self.cancel))


def arm_timer(state: State, out: Out, kind: str, due_ms: int, data: dict[str, Any]) -> str:
    """Arm a timer ``<combat>:<kind>:<n>`` and remember it in the state."""
    state["timer_seq"] = int(state.get("timer_seq", 0)) + 1
    timer_id = f"{state['id']}:{kind}:{state['timer_seq']}"
    state["timers"][timer_id] = {"kind": kind, "due_ms": due_ms, "data": dict(data)}
    out.arm.append(TimerRequest(timer_id, due_ms, kind, dict(data)))
    return timer_id


def cancel_timer(state: State, out: Out, timer_id: str | None) -> None:
    """Forget a timer: one armed by this same input is dropped, an older one cancelled."""
    if timer_id is None or timer_id not in state["timers"]:
        return
    del state["timers"][timer_id]
    if any(r.timer_id == timer_id for r in out.arm):
        out.arm = [r for r in out.arm if r.timer_id != timer_id]
    else:
        out.cancel.append(timer_id)
