"""Interference turns (umh 2.5): special turns inside the current general turn.

A skill with ``grants_interference`` gives each of its targets still fighting one, once
its action is settled (and was not cancelled). They are played one at a time; while one is
open the general turn's clock is paused (as for a defense, 2.4.2) and only its holder acts.
A free one allows moving and one skill (2.5.3.1, A-63); a predetermined one only the
skill it names, plus supplementary skills (2.5.3.2, T000-13). Its actions do not count for
durations (2.5.2, A-26) and the speed it spends stays spent until the round ends (2.5.4).
"""

from __future__ import annotations

from typing import Final

from services.turns.domain.umh.events import INTERFERENCE_ENDED, INTERFERENCE_STARTED
from services.turns.domain.umh.flow import pause_turn
from services.turns.domain.umh.inflight import InFlight
from services.turns.domain.umh.participant import SkillInfo
from services.turns.domain.umh.state import CombatState, Interference
from shared.domain import ms
from shared.errors import RuleViolation
from shared.messages import TURN_PAUSED
from shared.outcome import Outcome, arm_timer, cancel_timer
from shared.vocabulary import Phase

FREE: Final = "free"
PREDETERMINED: Final = "predetermined"


def grant(
    state: CombatState, out: Outcome, action_id: str, action: InFlight, skill: SkillInfo
) -> None:
    """umh 2.5.3: queue an interference turn for every target of ``action`` still fighting."""
    if skill.grants_interference is None or state.phase != Phase.FIGHTING:
        return
    for target in action.targets:
        if state.participants[target].in_fight:
            state.interference_queue.append(
                Interference(
                    holder=target,
                    kind=skill.grants_interference,
                    granted_by=action_id,
                    skill=skill.interference_skill,
                )
            )


def open_next(state: CombatState, out: Outcome, now_ms: int) -> None:
    """umh 2.5.1: the next queued interference turn starts, with its own clock, once no
    other one is open and no defense is pending; the general turn's clock stops."""
    if state.interference is not None or state.awaiting_defense() or state.turn is None:
        return
    while state.interference_queue:
        turn = state.interference_queue.pop(0)
        if not state.participants[turn.holder].active:
            continue
        if state.turn.paused_remaining_ms is None:
            remaining = pause_turn(state, out, now_ms)
            out.emit(TURN_PAUSED, {"actor": state.turn.actor, "remaining_ms": remaining})
        deadline = now_ms + ms(state.settings.turn_seconds)
        turn.deadline_ms = deadline
        turn.timer_id = arm_timer(state, out, "interference", deadline, {"holder": turn.holder})
        state.interference = turn
        out.emit(
            INTERFERENCE_STARTED,
            {
                "holder": turn.holder,
                "kind": turn.kind,
                "skill": turn.skill,
                "granted_by": turn.granted_by,
                "deadline_ms": deadline,
            },
        )
        return


def close(state: CombatState, out: Outcome, reason: str) -> None:
    """umh 2.5: the interference turn ends (passed, its skill used, timed out, holder out)."""
    turn = state.interference
    if turn is None:
        return
    cancel_timer(state, out, turn.timer_id)
    state.interference = None
    out.emit(INTERFERENCE_ENDED, {"holder": turn.holder, "reason": reason})


def check_skill(state: CombatState, skill: SkillInfo) -> None:
    """umh 2.5.3.1 / 2.5.3.2 / A-63 / T000-13: what the open interference turn allows."""
    turn = state.interference
    assert turn is not None
    if turn.kind == PREDETERMINED:
        stipulated = turn.skill is not None and skill.key == turn.skill.casefold()
        if not stipulated and skill.type != "supplementary":
            raise RuleViolation(
                "interference_action_not_allowed", "umh 2.5.3.2", allowed=turn.skill
            )
    elif turn.skills_used >= 1:
        raise RuleViolation("interference_limit", "umh 2.5.3.1")


def check_move(state: CombatState) -> None:
    """umh 2.5.3.1 / 2.5.3.2: moving is allowed in a free interference turn only."""
    turn = state.interference
    assert turn is not None
    if turn.kind == PREDETERMINED:
        raise RuleViolation("interference_action_not_allowed", "umh 2.5.3.2", allowed=turn.skill)


def after_skill(state: CombatState, out: Outcome, skill: SkillInfo) -> None:
    """A predetermined interference turn ends with its stipulated skill; a free one stays
    open (he may still move) but allows no second skill (A-63)."""
    turn = state.interference
    assert turn is not None
    turn.skills_used += 1
    stipulated = turn.skill is not None and skill.key == turn.skill.casefold()
    if turn.kind == PREDETERMINED and stipulated:
        close(state, out, "done")
