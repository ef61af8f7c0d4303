"""A stalled l5r combat (issue 18): the reconciler's question, and a moderator's ``resume``.

Stalled (``services/turns/stalls.py``): not ended, and either no timer armed with no attack
awaiting its resolution, or an attack awaiting it while nothing was logged for a minute (the
turn's clock is re-armed meanwhile, so it never runs out on its own).

``resume`` (moderator only, with a reason): ``forbidden``, then ``combat_not_stalled``; the
attack awaiting its resolution is abandoned; ``combat.resumed``; then the preparation round
gets its clock again (docs/rules.md 7.1 W1), or the current turn's clock starts again in full
(W2), or, with no current turn, the next turn starts.
"""

from __future__ import annotations

from services.turns.domain.l5r.flow import next_turn
from services.turns.domain.l5r.state import L5rCombat
from services.turns.stalls import (
    Stall,
    announce_resumed,
    check_resume,
    restart_turn_clock,
    stall_of,
)
from shared.actions_base import ResumeAction
from shared.domain import ms
from shared.outcome import Outcome, arm_timer
from shared.payloads import ActOnCombat
from shared.vocabulary import Phase


def stall(state: L5rCombat, quiet_ms: int) -> Stall | None:
    """Why the combat is stalled, or None (see the module docstring)."""
    return stall_of(
        ended=state.ended,
        timers=len(state.timers),
        resolution_pending=state.pending is not None,
        quiet_ms=quiet_ms,
    )


def resume(
    state: L5rCombat, out: Outcome, action: ResumeAction, cmd: ActOnCombat, now_ms: int
) -> None:
    """A moderator's ``resume`` (see the module docstring for the order)."""
    found = check_resume(stall(state, cmd.quiet_ms or 0), cmd, phase=state.phase)
    abandoned = [state.pending.action_id] if state.pending is not None else []
    state.pending = None
    announce_resumed(out, found, action, cmd, abandoned)
    turn = state.turn
    if state.phase == Phase.PREPARATION:
        due = now_ms + ms(state.settings.preparation_seconds)
        arm_timer(state, out, "preparation", due, {})
        state.phase_deadline_ms = due
    elif turn is None:
        next_turn(state, out, now_ms)
    else:
        turn.timer_id, turn.deadline_ms = restart_turn_clock(
            state,
            out,
            now_ms,
            actor=turn.actor,
            timer_id=turn.timer_id,
            seconds=state.settings.turn_seconds,
            data={"turn_seq": state.turn_seq, "actor": turn.actor},
        )
