"""A stalled cypher combat (issue 18): the reconciler's question, and a moderator's ``resume``.

Stalled (``services/turns/stalls.py``): not ended, and either no timer armed with no action
awaiting its resolution, or an action awaiting it while nothing was logged for a minute (the
turn's clock is re-armed meanwhile, so it never runs out on its own).

``resume`` (moderator only, with a reason): ``forbidden``, then ``combat_not_stalled``; the
action awaiting its resolution is abandoned; ``combat.resumed``; then the turn ends if that
action ended it (001 ACCIÓN: one action per turn), else its clock starts again in full; with
no current turn, the next one starts.
"""

from __future__ import annotations

from services.turns.domain.cypher.flow import end_turn, start_turn
from services.turns.domain.cypher.state import CypherCombat, TurnEnd
from services.turns.stalls import (
    Stall,
    announce_resumed,
    check_resume,
    restart_turn_clock,
    stall_of,
)
from shared.actions_base import ResumeAction
from shared.outcome import Outcome
from shared.payloads import ActOnCombat


def stall(state: CypherCombat, quiet_ms: int) -> Stall | None:
    """Why the combat is stalled, or None (see the module docstring)."""
    return stall_of(
        ended=state.ended,
        timers=len(state.timers),
        resolution_pending=state.turn is not None and state.turn.pending is not None,
        quiet_ms=quiet_ms,
    )


def resume(
    state: CypherCombat, out: Outcome, action: ResumeAction, cmd: ActOnCombat, now_ms: int
) -> None:
    """A moderator's ``resume`` (see the module docstring for the order)."""
    found = check_resume(stall(state, cmd.quiet_ms or 0), cmd, phase=state.phase)
    turn = state.turn
    pending = turn.pending if turn is not None else None
    abandoned = [pending.action_id] if pending is not None else []
    announce_resumed(out, found, action, cmd, abandoned)
    if turn is None:
        start_turn(state, out, now_ms, state.turn_index + 1)
        return
    turn.pending = None
    if pending is not None and pending.ends_turn:
        end_turn(state, out, now_ms, TurnEnd.RESUMED)
        return
    turn.timer_id, turn.deadline_ms = restart_turn_clock(
        state,
        out,
        now_ms,
        actor=turn.actor,
        timer_id=turn.timer_id,
        seconds=state.settings.turn_seconds,
        data={"turn_seq": state.turn_seq},
    )
