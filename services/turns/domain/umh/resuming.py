"""A stalled umh combat (issue 18): the reconciler's question, and a moderator's ``resume``.

Stalled (``services/turns/stalls.py``): not ended, and either no timer armed with no
resolution awaited, or a resolution awaited while nothing was logged for a minute.

``resume`` (moderator only, with a reason), in order: ``forbidden`` for anyone else;
``combat_not_stalled`` unless stalled; every action still in flight is abandoned (its
resolution is no longer awaited: one that comes back later changes nothing here); then
``combat.resumed``; then the combat moves on from where it stood: an opening goes to the
preparation round (umh 1.3.1), a preparation round gets its clock again, a fight closes an
interference turn left without clock and restarts the current turn's clock in full (umh
2.3.5), or starts the next turn when there is none.
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.umh import interference
from services.turns.domain.umh.flow import advance, enter_preparation
from services.turns.domain.umh.progress import move_on
from services.turns.domain.umh.state import CombatState
from services.turns.stalls import (
    Stall,
    announce_resumed,
    check_resume,
    restart_turn_clock,
    stall_of,
)
from shared.actions_base import ResumeAction
from shared.domain import ms
from shared.outcome import Outcome, arm_timer, cancel_timer
from shared.payloads import ActOnCombat
from shared.vocabulary import Phase


def stall(state: CombatState, quiet_ms: int) -> Stall | None:
    """Why the combat is stalled, or None (see the module docstring)."""
    return stall_of(
        ended=state.phase == Phase.ENDED,
        timers=len(state.timers),
        resolution_pending=any(a.resolution_requested for a in state.actions.values()),
        quiet_ms=quiet_ms,
    )


def stalled(state_dict: dict[str, Any], quiet_ms: int) -> str | None:
    """The reconciler's question (``TurnsRuleset.stalled``)."""
    found = stall(CombatState.from_dict(state_dict), quiet_ms)
    return found.value if found is not None else None


def resume(
    state: CombatState, out: Outcome, action: ResumeAction, cmd: ActOnCombat, now_ms: int
) -> None:
    """A moderator's ``resume`` (see the module docstring for the order)."""
    found = check_resume(stall(state, cmd.quiet_ms or 0), cmd, phase=state.phase)
    abandoned = list(state.actions)
    for flight in state.actions.values():
        for window in [*flight.reactions.values(), *flight.answers.values()]:
            cancel_timer(state, out, window.timer_id)
    state.actions = {}
    announce_resumed(out, found, action, cmd, abandoned)
    if state.phase == Phase.OPENING:
        enter_preparation(state, out, now_ms)
    elif state.phase == Phase.PREPARATION:
        deadline = now_ms + ms(state.settings.preparation_seconds)
        state.phase_deadline_ms = deadline
        arm_timer(state, out, "preparation", deadline, {})
    elif state.phase == Phase.FIGHTING:
        interference.close(state, out, "resumed")
        restart_clock(state, out, now_ms)
        move_on(state, out, now_ms)


def restart_clock(state: CombatState, out: Outcome, now_ms: int) -> None:
    """umh 2.3.5: the current turn's clock starts again in full (``turn.resumed``); with no
    current turn, the next one starts (2.1.2)."""
    turn = state.turn
    if turn is None:
        advance(state, out, now_ms)
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
    turn.paused_remaining_ms = None
