"""The read model of docs/api.md "Fields" for cypher, the fields services/turns owns: round,
turn, order, initiative, and per participant his condition (pools, track, special damage)."""

from __future__ import annotations

from typing import Any

from services.turns.domain.cypher.flow import public_status
from services.turns.domain.cypher.state import CypherCombat, Turn
from shared.domain import rfc3339
from shared.rulesets.cypher.conditions import Condition


def participant_view(state: CypherCombat, character: str, p: Condition) -> dict[str, Any]:
    """One combatant: docs/api.md status, his condition (pools, track, special damage), rests."""
    dumped = p.to_dict()
    return {
        "side": dumped["side"],
        "status": str(public_status(p.status)),
        "condition": dumped["status"],
        "kind": p.kind,
        "pools": dumped["pools"],
        "pools_max": dumped["pools_max"],
        "health": p.health,
        "health_max": p.health_max,
        "armor": p.armor,
        "track": dumped["track_name"],
        "special_steps": p.special_steps,
        "dazed_turns": p.dazed_turns,
        "stunned": p.stunned,
        "paralyzed": p.paralyzed,
        "rests_taken": p.rests_taken,
        "initiative": state.initiative.get(character),
    }


def turn_view(state: CypherCombat, turn: Turn | None) -> dict[str, Any] | None:
    """Whose turn it is (001 ACCIÓN), whether he acted and moved, what is being resolved."""
    if turn is None:
        return None
    return {
        "index": state.turn_index,
        "actor": turn.actor,
        "deadline": rfc3339(turn.deadline_ms),
        "paused_remaining": None,
        "acted": turn.acted,
        "free_moved": turn.free_moved,
        "pending_action": turn.pending.action_id if turn.pending else None,
    }


def view(state: CypherCombat) -> dict[str, Any]:
    """The combat as docs/api.md "Fields" shows it (the fields services/turns owns)."""
    dumped = state.to_dict()
    return {
        "id": state.id,
        "tenant": state.tenant,
        "room": state.room,
        "ruleset": "cypher",
        "phase": dumped["phase"],
        "round": state.round,
        "sides": dumped["sides"],
        "slots_left": {"attackers": 0, "defenders": 0},
        "turn_order": state.order,
        "turn": turn_view(state, state.turn),
        "pending_reactions": [],
        "initiative": state.initiative,
        "reroll_next_round": state.reroll_next_round,
        "participants": {c: participant_view(state, c, p) for c, p in state.participants.items()},
        "timers": {tid: rfc3339(t.due_ms) for tid, t in state.timers.items()},
        "created_at": rfc3339(state.created_at_ms),
        "ended_at": rfc3339(state.ended_at_ms),
        "result": dumped["result"],
    }
