"""Events of other services about this combat; today ``action.resolved`` (resolution)."""

from __future__ import annotations

from typing import Any

from services.turns.domain.flow import (
    defeated_sides,
    end_combat,
    end_turn,
    enter_preparation,
    resume_turn,
)
from services.turns.domain.outcome import Outcome
from services.turns.domain.state import DOWN, PHASE_ENDED, CombatState, other_side
from shared.domain import Decision
from shared.messages import ACTION_COMPLETED, ACTION_RESOLVED


def on_event(
    state_dict: dict[str, Any], event_type: str, payload: dict[str, Any], now_ms: int
) -> Decision[dict[str, Any]]:
    """Route an event by type; types turns does not follow change nothing."""
    if event_type != ACTION_RESOLVED:
        return Decision(None)
    return on_action_resolved(state_dict, payload, now_ms)


def downed(payload: dict[str, Any]) -> list[str]:
    """umh 4.1.1.2 / 4.1.4: who fell (VIT 0): ``downs`` plus any result flagged ``down``."""
    ids = [str(c) for c in payload.get("downs") or []]
    ids += [str(r["target"]) for r in payload.get("results") or [] if r.get("down")]
    return list(dict.fromkeys(ids))


def on_action_resolved(
    state_dict: dict[str, Any], payload: dict[str, Any], now_ms: int
) -> Decision[dict[str, Any]]:
    """umh 4.1.1.2 / 4.1.4 / 2.4.2 / 1.3.1: settle a resolved action, then move the combat on.

    Order: mark the fallen down (VIT reached 0); the action leaves flight
    (``action.completed``); then the first that applies: a side with nobody standing
    ends the combat (4.1.1); the opening attack leads to preparation (1.3.1); a fallen
    current actor ends his turn; a paused clock with no defense pending resumes (2.4.2).
    An action already settled (unknown id) changes nothing.
    """
    state = CombatState.from_dict(state_dict)
    action_id = str(payload.get("action_id"))
    action = state.actions.get(action_id)
    if state.phase == PHASE_ENDED or action is None:
        return Decision(None)
    out = Outcome()
    for character in downed(payload):
        participant = state.participants.get(character)
        if participant is not None:
            participant.status = DOWN
            participant.reached_zero_vit = True
    del state.actions[action_id]
    out.emit(ACTION_COMPLETED, {"action_id": action_id})
    after_resolution(state, out, action.opening, now_ms)
    return out.decision(state)


def after_resolution(state: CombatState, out: Outcome, opening: bool, now_ms: int) -> None:
    """umh 4.1.1 / 1.3.1 / 2.4.2: what follows a settled action (see ``on_action_resolved``)."""
    beaten = defeated_sides(state)
    if beaten:
        winner = other_side(beaten[0]) if len(beaten) == 1 else None
        end_combat(state, out, now_ms, winner, "defeat")
        return
    if opening:
        enter_preparation(state, out, now_ms)
        return
    turn = state.turn
    if turn is None:
        return
    if not state.participants[turn.actor].active:
        end_turn(state, out, now_ms, "down")
    elif turn.paused_remaining_ms is not None and not state.awaiting_defense():
        resume_turn(state, out, now_ms)
