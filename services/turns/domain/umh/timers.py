"""Timers firing (docs/rules.md 7.1: W1 preparation, W2 turn, W3 defense, W9 disconnection; and
the veto window of an IRRUMPIR, an interference turn, an answer to an anticipation).

A timer is live only while its id is in ``state.timers``; anything else (already fired,
cancelled, or the combat ended) is stale and changes nothing. The kind and data stored
with the timer are authoritative, not the fired message's copy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from services.turns.domain.umh import interference
from services.turns.domain.umh.flow import end_turn, start_fighting
from services.turns.domain.umh.joins import window_over
from services.turns.domain.umh.leaving import grace_over
from services.turns.domain.umh.progress import move_on
from services.turns.domain.umh.reactions import time_out
from services.turns.domain.umh.state import CombatState, TurnEnd
from shared.domain import Decision
from shared.messages import TURN_TIMED_OUT
from shared.outcome import ArmedTimer, Outcome
from shared.payloads import TimerFired
from shared.vocabulary import Phase


def on_timer(
    state_dict: dict[str, Any], timer: TimerFired, now_ms: int
) -> Decision[dict[str, Any]]:
    """Dispatch a fired timer by its stored kind; stale timers give ``Decision(None)``."""
    if state_dict.get("phase") == Phase.ENDED or timer.timer_id not in state_dict["timers"]:
        return Decision(None)
    state = CombatState.from_dict(state_dict)
    armed = state.timers.pop(timer.timer_id)
    out = Outcome()
    handler = HANDLERS.get(armed.kind)
    if handler is None or not handler(state, out, timer.timer_id, armed, now_ms):
        # An orphan (its turn, window or phase is gone): forget it, nothing happens.
        return Decision(state.to_dict())
    return out.decision(state)


def preparation_over(
    state: CombatState, out: Outcome, timer_id: str, armed: ArmedTimer, now_ms: int
) -> bool:
    """umh 1.3.1 / 2.1.1 / A-65: the shared 2-minute window is over; round 1 starts."""
    if state.phase != Phase.PREPARATION:
        return False
    start_fighting(state, out, now_ms)
    return True


def turn_over(
    state: CombatState, out: Outcome, timer_id: str, armed: ArmedTimer, now_ms: int
) -> bool:
    """umh 2.3.5 / A-58: the 5 minutes ran out: automatic PASO TURNO, then the next turn
    (also while the actor is disconnected)."""
    turn = state.turn
    if state.phase != Phase.FIGHTING or turn is None or turn.timer_id != timer_id:
        return False
    if armed.data.get("turn_seq") != state.turn_seq:
        return False
    turn.timer_id = None
    out.emit(
        TURN_TIMED_OUT, {"actor": turn.actor, "round": state.round, "turn_seq": state.turn_seq}
    )
    end_turn(state, out, now_ms, TurnEnd.TIMEOUT)
    return True


def defense_over(
    state: CombatState, out: Outcome, timer_id: str, armed: ArmedTimer, now_ms: int
) -> bool:
    """umh 2.4.2 / A-24 / 8.2.2.4: a window closes with no answer; the hit resolves."""
    action_id, reactor = str(armed.data.get("action_id")), str(armed.data.get("reactor"))
    anticipator = armed.data.get("anticipator")
    action = state.actions.get(action_id)
    if action is None:
        return False
    windows = action.answers if anticipator else action.reactions
    window = windows.get(str(anticipator) if anticipator else reactor)
    if window is None or not window.is_open or window.timer_id != timer_id:
        return False
    time_out(state, out, action_id, reactor, str(anticipator) if anticipator else None)
    return True


def join_window_over(
    state: CombatState, out: Outcome, timer_id: str, armed: ArmedTimer, now_ms: int
) -> bool:
    """umh 1.2.4.1: no majority vetoed the IRRUMPIR in its window: he enters."""
    pending = state.pending_joins.get(str(armed.data.get("joiner")))
    if pending is None or pending.timer_id != timer_id:
        return False
    return window_over(state, out, str(armed.data.get("joiner")), now_ms)


def disconnection_over(
    state: CombatState, out: Outcome, timer_id: str, armed: ArmedTimer, now_ms: int
) -> bool:
    """umh 4.3.3 / W9: ten minutes gone: defeated and out of the combat."""
    return grace_over(state, out, str(armed.data.get("character")), now_ms)


def interference_over(
    state: CombatState, out: Outcome, timer_id: str, armed: ArmedTimer, now_ms: int
) -> bool:
    """umh 2.5 / 2.3.5: an interference turn lasts at most a turn's time."""
    turn = state.interference
    if turn is None or turn.timer_id != timer_id:
        return False
    turn.timer_id = None
    interference.close(state, out, "timeout")
    move_on(state, out, now_ms)
    return True


Handler = Callable[[CombatState, Outcome, str, ArmedTimer, int], bool]

HANDLERS: Final[dict[str, Handler]] = {
    "preparation": preparation_over,
    "turn": turn_over,
    "defense": defense_over,
    "answer": defense_over,
    "join": join_window_over,
    "disconnect": disconnection_over,
    "interference": interference_over,
}
