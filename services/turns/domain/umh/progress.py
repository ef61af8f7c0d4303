"""What follows any change of who can fight or of what is pending: the one place that moves
the combat on (umh 4.1.1, 2.1.3, 2.4.2, 2.5.1).

In order: a side with nobody left ends the combat (4.1.1, with the reason of what took
its last member out); an interference turn whose holder can no longer act closes; a
current actor who can no longer fight ends his turn once no defense is pending (A-100);
the next queued interference turn opens (2.5.1); a paused clock with nothing pending
resumes (2.4.2, A-24).
"""

from __future__ import annotations

from services.turns.domain.umh import interference
from services.turns.domain.umh.ending import end_if_a_side_is_beaten
from services.turns.domain.umh.flow import end_turn, resume_turn
from services.turns.domain.umh.state import CombatState, TurnEnd
from shared.outcome import Outcome
from shared.vocabulary import EndReason, Phase


def move_on(
    state: CombatState, out: Outcome, now_ms: int, reason: EndReason = EndReason.DEFEAT
) -> None:
    """Move the combat on after a change (see the module docstring)."""
    if end_if_a_side_is_beaten(state, out, now_ms, reason):
        return
    if state.phase != Phase.FIGHTING:
        return
    holder = state.interference.holder if state.interference else None
    if holder is not None and not state.participants[holder].active:
        interference.close(state, out, "out")
    turn = state.turn
    if turn is None:
        return
    actor = state.participants[turn.actor]
    if not actor.in_fight and not state.awaiting_defense():
        state.interference_queue = []
        interference.close(state, out, "turn_ended")
        end_turn(state, out, now_ms, TurnEnd(actor.status))  # down, fled or disconnected
        return
    interference.open_next(state, out, now_ms)
    idle = state.interference is None and not state.awaiting_defense()
    if turn.paused_remaining_ms is not None and idle:
        resume_turn(state, out, now_ms)
