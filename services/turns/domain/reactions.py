"""Defense windows (umh 2.4.2, 8.1.1.3): opening them, closing them, asking for resolution."""

from __future__ import annotations

from services.turns.domain.outcome import Outcome, arm_timer, cancel_timer
from services.turns.domain.state import (
    ANSWERED,
    TIMED_OUT,
    CombatState,
    InFlight,
    Reaction,
)
from shared.domain import ms
from shared.messages import (
    ACTION_DECLARED,
    REACTION_ANSWERED,
    REACTION_REQUESTED,
    REACTION_TIMED_OUT,
    RESOLUTION_REQUESTED,
)
from shared.payloads import ReactionChoice, ResolutionRequested


def declare(state: CombatState, out: Outcome, action_id: str, action: InFlight, pa: int) -> None:
    """umh 2.3.1.1: the action is in flight; ``action.declared`` says what and for how much."""
    state.actions[action_id] = action
    out.emit(
        ACTION_DECLARED,
        {
            "action_id": action_id,
            "attacker": action.attacker,
            "skill": action.skill,
            "targets": list(action.targets),
            "pa_spent": pa,
            "opening": action.opening,
            "round": action.round,
        },
    )


def open_reactions(state: CombatState, out: Outcome, action_id: str, now_ms: int) -> None:
    """umh 2.4.2 / 8.1.1.3.1: one defense window per target, each with its own timer."""
    action = state.actions[action_id]
    deadline = now_ms + ms(state.settings.defense_seconds)
    for target in action.targets:
        timer_id = arm_timer(
            state, out, "defense", deadline, {"action_id": action_id, "reactor": target}
        )
        action.reactions[target] = Reaction(deadline_ms=deadline, timer_id=timer_id)
        out.emit(
            REACTION_REQUESTED,
            {
                "action_id": action_id,
                "reactor": target,
                "attacker": action.attacker,
                "skill": action.skill,
                "deadline_ms": deadline,
            },
        )


def answer(
    state: CombatState,
    out: Outcome,
    action_id: str,
    reactor: str,
    skill: str | None,
    resist: bool,
) -> None:
    """umh 8.1.1.3: one defensive answer (or taking the hit) closes the reactor's window."""
    reaction = state.actions[action_id].reactions[reactor]
    cancel_timer(state, out, reaction.timer_id)
    reaction.status = ANSWERED
    reaction.skill = skill
    reaction.resist = resist
    reaction.timer_id = None
    out.emit(
        REACTION_ANSWERED,
        {"action_id": action_id, "reactor": reactor, "skill": skill, "resist": resist},
    )
    request_resolution_if_ready(state, out, action_id)


def time_out(state: CombatState, out: Outcome, action_id: str, reactor: str) -> None:
    """umh 2.4.2 / A-24: the window closes with no defense; the attack will resolve."""
    reaction = state.actions[action_id].reactions[reactor]
    reaction.status = TIMED_OUT
    reaction.timer_id = None
    out.emit(REACTION_TIMED_OUT, {"action_id": action_id, "reactor": reactor})
    request_resolution_if_ready(state, out, action_id)


def request_resolution_if_ready(state: CombatState, out: Outcome, action_id: str) -> None:
    """umh 2.1.3 / A-100: once every reaction is in, resolution computes the outcome."""
    action = state.actions[action_id]
    if action.resolution_requested or not action.all_reactions_in:
        return
    action.resolution_requested = True
    request = ResolutionRequested(
        action_id=action_id,
        attacker=action.attacker,
        skill=action.skill,
        targets=list(action.targets),
        reactions={
            target: ReactionChoice(skill=r.skill, resist=r.resist, timed_out=r.status == TIMED_OUT)
            for target, r in action.reactions.items()
        },
        round=action.round,
    )
    out.emit(RESOLUTION_REQUESTED, request.model_dump(mode="json"))
