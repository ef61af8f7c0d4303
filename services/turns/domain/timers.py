"""Timers firing (RULES.md 7.1: W1 preparation, W2 turn, W3 defense).

A timer is live only while its id is in ``state.timers``; anything else (already fired,
cancelled, or the combat ended) is stale and changes nothing. The kind and data stored
with the timer are authoritative, not the fired message's copy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from services.turns.domain.flow import advance, start_fighting
from services.turns.domain.outcome import Outcome
from services.turns.domain.reactions import time_out
from services.turns.domain.state import (
    OPEN,
    PHASE_ENDED,
    PHASE_FIGHTING,
    PHASE_PREPARATION,
    ArmedTimer,
    CombatState,
)
from shared.domain import Decision
from shared.messages import TURN_ENDED, TURN_TIMED_OUT
from shared.payloads import TimerFired


def on_timer(
    state_dict: dict[str, Any], timer: TimerFired, now_ms: int
) -> Decision[dict[str, Any]]:
    """Dispatch a fired timer by its stored kind; stale timers give ``Decision(None)``."""
    state = CombatState.from_dict(state_dict)
    armed = state.timers.get(timer.timer_id)
    if armed is None or state.phase == PHASE_ENDED:
        return Decision(None)
    out = Outcome()
    del state.timers[timer.timer_id]
    handler = HANDLERS.get(armed.kind)
    if handler is None or not handler(state, out, timer.timer_id, armed, now_ms):
        # An orphan (its turn, window or phase is gone): forget it, nothing happens.
        return Decision(state.to_dict())
    return out.decision(state)


def preparation_over(
    state: CombatState, out: Outcome, timer_id: str, armed: ArmedTimer, now_ms: int
) -> bool:
    """umh 1.3.1 / 2.1.1 / A-65: the shared 2-minute window is over; round 1 starts."""
    if state.phase != PHASE_PREPARATION:
        return False
    start_fighting(state, out, now_ms)
    return True


def turn_over(
    state: CombatState, out: Outcome, timer_id: str, armed: ArmedTimer, now_ms: int
) -> bool:
    """umh 2.3.5: the 5 minutes ran out: automatic PASO TURNO, then the next turn."""
    turn = state.turn
    if state.phase != PHASE_FIGHTING or turn is None or turn.timer_id != timer_id:
        return False
    if armed.data.get("turn_seq") != state.turn_seq:
        return False
    turn.timer_id = None
    out.emit(
        TURN_TIMED_OUT, {"actor": turn.actor, "round": state.round, "turn_seq": state.turn_seq}
    )
    out.emit(TURN_ENDED, {"actor": turn.actor, "reason": "timeout"})
    advance(state, out, now_ms)
    return True


def defense_over(
    state: CombatState, out: Outcome, timer_id: str, armed: ArmedTimer, now_ms: int
) -> bool:
    """umh 2.4.2 / A-24: the defense window closes with no defense; the attack resolves."""
    action_id, reactor = armed.data.get("action_id"), armed.data.get("reactor")
    action = state.actions.get(str(action_id))
    reaction = action.reactions.get(str(reactor)) if action else None
    if reaction is None or reaction.status != OPEN or reaction.timer_id != timer_id:
        return False
    time_out(state, out, str(action_id), str(reactor))
    return True


Handler = Callable[[CombatState, Outcome, str, ArmedTimer, int], bool]

HANDLERS: Final[dict[str, Handler]] = {
    "preparation": preparation_over,
    "turn": turn_over,
    "defense": defense_over,
}
