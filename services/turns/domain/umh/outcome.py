"""What one input produced: events, timers to arm and to cancel, collected in order.

``CombatState.timers`` is the source of truth for armed timers: :func:`arm_timer` and
:func:`cancel_timer` keep it and the decision's ``arm`` / ``cancel`` lists in step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.turns.domain.umh.state import ArmedTimer, CombatState
from shared.domain import Decision, TimerRequest
from shared.messages import Event

State = dict[str, Any]


@dataclass
class Outcome:
    events: list[Event] = field(default_factory=list)
    arm: list[TimerRequest] = field(default_factory=list)
    cancel: list[str] = field(default_factory=list)

    def emit(self, event_type: str, payload: dict[str, Any]) -> None:
        self.events.append(Event(event_type, payload))

    def decision(self, state: CombatState) -> Decision[State]:
        return Decision(state.to_dict(), list(self.events), list(self.arm), list(self.cancel))


def arm_timer(
    state: CombatState, out: Outcome, kind: str, due_ms: int, data: dict[str, Any]
) -> str:
    """Arm a timer whose id is unique forever within the combat (a per-combat counter)."""
    state.timer_seq += 1
    timer_id = f"{state.id}:{kind}:{state.timer_seq}"
    state.timers[timer_id] = ArmedTimer(kind, due_ms, dict(data))
    out.arm.append(TimerRequest(timer_id, due_ms, kind, dict(data)))
    return timer_id


def cancel_timer(state: CombatState, out: Outcome, timer_id: str | None) -> None:
    """Forget an armed timer; one armed by this same decision is simply not armed."""
    if timer_id is None or timer_id not in state.timers:
        return
    del state.timers[timer_id]
    armed_now = [r for r in out.arm if r.timer_id == timer_id]
    if armed_now:
        out.arm = [r for r in out.arm if r.timer_id != timer_id]
    else:
        out.cancel.append(timer_id)
