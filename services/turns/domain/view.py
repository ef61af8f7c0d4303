"""The read model of API.md "Combats", the fields services/turns owns."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from services.turns.domain.state import OPEN, PHASE_ENDED, CombatState

SIDE_SLOTS: Final = 3


def rfc3339(at_ms: int | None) -> str | None:
    """Unix milliseconds as an RFC 3339 UTC string (``2025-01-01T00:00:00.000Z``)."""
    if at_ms is None:
        return None
    moment = datetime.fromtimestamp(at_ms / 1000, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def slots_left(state: CombatState) -> dict[str, int]:
    """umh 1.2.3 / 1.2.5: 3 places per side, spent for good by whoever entered it."""
    return {side: max(0, SIDE_SLOTS - len(members)) for side, members in state.sides.items()}


def turn_view(state: CombatState) -> dict[str, Any] | None:
    turn = state.turn
    if turn is None:
        return None
    paused = turn.paused_remaining_ms
    return {
        "index": state.turn_index,
        "actor": turn.actor,
        "deadline": rfc3339(turn.deadline_ms),
        "paused_remaining": paused / 1000 if paused is not None else None,
    }


def pending_reactions(state: CombatState) -> list[dict[str, Any]]:
    """umh 2.4.2: the open defense windows, in declaration order."""
    return [
        {
            "action_id": action_id,
            "reactor": reactor,
            "attacker": action.attacker,
            "skill": action.skill,
            "deadline": rfc3339(reaction.deadline_ms),
        }
        for action_id, action in state.actions.items()
        for reactor, reaction in action.reactions.items()
        if reaction.status == OPEN
    ]


def view(state_dict: dict[str, Any]) -> dict[str, Any]:
    """API.md "Combats": everything but ``version`` and the condition owned by resolution."""
    state = CombatState.from_dict(state_dict)
    return {
        "id": state.id,
        "tenant": state.tenant,
        "room": state.room,
        "ruleset": state.ruleset,
        "phase": state.phase,
        "round": state.round,
        "sides": {side: list(members) for side, members in state.sides.items()},
        "slots_left": slots_left(state),
        "turn_order": list(state.turn_order),
        "turn": turn_view(state),
        "pending_reactions": pending_reactions(state),
        "participants": {
            cid: {
                "side": p.side,
                "status": p.status,
                "pa": p.pa,
                "movement_left": p.movement_left,
                "cooldowns": dict(p.cooldowns),
                "uses": dict(p.uses),
            }
            for cid, p in state.participants.items()
        },
        "result": (
            {"winner": state.result.winner, "reason": state.result.reason} if state.result else None
        ),
        "created_at": rfc3339(state.created_at_ms),
        "ended_at": rfc3339(state.ended_at_ms),
        "phase_deadline": rfc3339(state.phase_deadline_ms),
    }


def is_active(state_dict: dict[str, Any]) -> bool:
    """False once the combat has ended (umh 4.1.1)."""
    return bool(state_dict["phase"] != PHASE_ENDED)


def armed_timers(state_dict: dict[str, Any]) -> dict[str, int]:
    """Every timer the state expects to be armed, id -> due (Unix ms), for the reconciler."""
    return {tid: int(t["due_ms"]) for tid, t in state_dict["timers"].items()}
