"""A stalled l5r combat (issue 18): the reconciler's question, and a moderator's ``resume``.

Stalled (``services/turns/stalls.py``): not ended, and either no timer armed with no attack
awaiting its resolution, or an attack awaiting it while nothing was logged for a minute (the
turn's clock is re-armed meanwhile, so it never runs out on its own).

``resume`` (moderator only, with a reason): ``forbidden``, then ``combat_not_stalled``; the
attack awaiting its resolution is abandoned; ``combat.resumed``; then the preparation round
gets its clock again (RULES.md 7.1 W1), or the current turn's clock starts again in full
(W2), or, with no current turn, the next turn starts.
"""

from __future__ import annotations

from services.turns.domain.l5r.flow import next_turn
from services.turns.domain.l5r.state import ENDED, PREPARATION
from services.turns.stalls import (
    Stall,
    check_resume,
    restart_turn_clock,
    resumed_payload,
    stall_of,
)
from shared.actions_base import ResumeAction
from shared.dict_state import Out, State, arm_timer
from shared.messages import COMBAT_RESUMED
from shared.payloads import ActOnCombat


def stall(state: State, quiet_ms: int) -> Stall | None:
    return stall_of(
        ended=state["phase"] == ENDED,
        timers=len(state["timers"]),
        resolution_pending=bool(state.get("pending")),
        quiet_ms=quiet_ms,
    )


def resume(state: State, out: Out, action: ResumeAction, cmd: ActOnCombat, now_ms: int) -> None:
    """A moderator's ``resume`` (see the module docstring for the order)."""
    found = check_resume(stall(state, cmd.quiet_ms or 0), cmd, phase=state["phase"])
    pending = state.get("pending")
    abandoned = [str(pending["action_id"])] if pending else []
    state["pending"] = None
    out.emit(COMBAT_RESUMED, resumed_payload(found, action, cmd, abandoned))
    turn = state.get("turn")
    if state["phase"] == PREPARATION:
        due = now_ms + int(state["settings"]["preparation_seconds"]) * 1000
        arm_timer(state, out, "preparation", due, {})
        state["phase_deadline_ms"] = due
    elif turn is None:
        next_turn(state, out, now_ms)
    else:
        data = {"turn_seq": state["turn_seq"], "actor": turn["actor"]}
        restart_turn_clock(state, out, now_ms, data)
