"""The read model of docs/api.md "Fields" for l5r, the fields services/turns owns: round, turn,
order, and per participant wounds and rank (C-7), stance, Void, initiative, TN to be hit."""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import rules
from services.turns.domain.l5r.fighter import Fighter
from services.turns.domain.l5r.request import tn_base
from services.turns.domain.l5r.state import L5rCombat
from shared.domain import rfc3339
from shared.vocabulary import Phase


def participant_view(state: L5rCombat, p: Fighter) -> dict[str, Any]:
    """One combatant: initiative (wound penalty off, C-13), wounds and rank (C-7), Void, TN
    to be hit (C-27), stance and what it brings, this round's counters."""
    d = p.model_dump(mode="json")
    return {
        "side": d["side"],
        "status": d["status"],
        "name": p.name,
        "stance": d["stance"],
        "initiative": rules.effective_initiative(p.initiative, p.penalty),
        "initiative_base": p.initiative,
        "initiative_roll": p.initiative_roll,
        "wounds": p.wounds,
        "wound_rank": d["rank"],
        "wound_penalty": p.penalty,
        "wound_table": d["wound_table"],
        "void_points": p.void,
        "void_max": p.void_max,
        "void_spent": p.void_spent,
        "alentar_received": p.alentar_received,
        "alentar_bonus": p.alentar_bonus,
        "tn_to_be_hit": tn_base(state, p) + p.tn_boost,
        "tn_boost": p.tn_boost,
        "full_defense": d["full_defense"],
        "prone": p.prone,
        "disarmed": p.disarmed,
        "mounted": p.mounted,
        "feint_bonus": d["feint"],
        "concentration": d["concentration"],
        "protected": d["protected"],
        "this_round": d["round"],
        "golpe_final": d["golpe_final"],
        "velocidad": p.velocidad,
        "ready": p.ready,
        "tide_against": p.tide_against,
        "wants_to_stop": p.stop,
    }


def turn_view(state: L5rCombat) -> dict[str, Any] | None:
    """Whose turn it is (Paso 2), his stance declared or not, the clock."""
    turn = state.turn
    if turn is None:
        return None
    return {
        "index": state.turn_index,
        "actor": turn.actor,
        "stance_declared": turn.stance_declared,
        "deadline": rfc3339(turn.deadline_ms),
    }


def timers_view(state: L5rCombat) -> list[dict[str, Any]]:
    shown = (
        {"kind": t.kind, "deadline": rfc3339(t.due_ms), **t.data} for t in state.timers.values()
    )
    return sorted(shown, key=lambda t: (str(t["deadline"]), str(t["kind"])))


def view(state: L5rCombat) -> dict[str, Any]:
    """The combat as docs/api.md "Fields" shows it (the fields services/turns owns)."""
    d = state.to_dict()
    result = d["result"]
    preparing = state.phase == Phase.PREPARATION
    return {
        "id": state.id,
        "tenant": state.tenant,
        "room": state.room,
        "ruleset": state.ruleset,
        "phase": d["phase"],
        "round": state.round,
        "sides": d["sides"],
        "turn_order": list(state.order),
        "turn": turn_view(state),
        "pending_reactions": [],
        "pending_attack": d["pending"],
        "swap_offers": dict(state.swap_offers),
        "participants": {cid: participant_view(state, p) for cid, p in state.participants.items()},
        "result": {k: v for k, v in result.items() if v is not None or k == "winner"}
        if result
        else None,
        "created_at": rfc3339(state.created_at_ms),
        "ended_at": rfc3339(state.ended_at_ms),
        "phase_deadline": rfc3339(state.phase_deadline_ms) if preparing else None,
        "timers": timers_view(state),
    }
