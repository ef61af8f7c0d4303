"""The read model of API.md "Combats" for l5r, the fields services/turns owns: round, turn,
order, and per participant wounds and rank (C-7), stance, Void, initiative, TN to be hit."""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import rules
from services.turns.domain.l5r.attack import tn_base
from services.turns.domain.l5r.state import ENDED, State
from services.turns.domain.umh.view import rfc3339


def participant_view(state: State, p: dict[str, Any]) -> dict[str, Any]:
    fd = p["full_defense"]
    tn = tn_base(state, p) + int(p["tn_boost"])
    return {
        "side": p["side"],
        "status": p["status"],
        "name": p["name"],
        "stance": p["stance"],
        "initiative": rules.effective_initiative(int(p["initiative"]), int(p["penalty"])),
        "initiative_base": p["initiative"],
        "initiative_roll": p["initiative_roll"],
        "wounds": p["wounds"],
        "wound_rank": p["rank"],
        "wound_penalty": p["penalty"],
        "wound_table": p["wound_table"],
        "void_points": p["void"],
        "void_max": p["void_max"],
        "void_spent": p["void_spent"],
        "alentar_received": p["alentar_received"],
        "alentar_bonus": p["alentar_bonus"],
        "tn_to_be_hit": tn,
        "tn_boost": p["tn_boost"],
        "full_defense": dict(fd) if fd else None,
        "prone": p["prone"],
        "disarmed": p["disarmed"],
        "mounted": p["mounted"],
        "feint_bonus": dict(p["feint"]),
        "concentration": p["concentration"],
        "protected": dict(p["protected"]),
        "this_round": dict(p["round"]),
        "golpe_final": p["golpe_final"],
        "velocidad": p["velocidad"],
        "ready": p["ready"],
        "tide_against": p["tide_against"],
        "wants_to_stop": bool(p.get("stop")),
    }


def view(state: State) -> dict[str, Any]:
    turn = state.get("turn")
    result = state.get("result")
    return {
        "id": state["id"],
        "tenant": state["tenant"],
        "room": state["room"],
        "ruleset": state["ruleset"],
        "phase": state["phase"],
        "round": state["round"],
        "sides": {k: list(v) for k, v in state["sides"].items()},
        "turn_order": list(state["order"]),
        "turn": {
            "index": state["turn_index"],
            "actor": turn["actor"],
            "stance_declared": turn["stance_declared"],
            "deadline": rfc3339(turn.get("deadline_ms")),
        }
        if turn
        else None,
        "pending_reactions": [],
        "pending_attack": state.get("pending"),
        "swap_offers": dict(state.get("swap_offers", {})),
        "participants": {
            cid: participant_view(state, p) for cid, p in state["participants"].items()
        },
        "result": {k: v for k, v in result.items() if v is not None or k == "winner"}
        if result
        else None,
        "created_at": rfc3339(state["created_at_ms"]),
        "ended_at": rfc3339(state.get("ended_at_ms")),
        "phase_deadline": rfc3339(state.get("phase_deadline_ms"))
        if state["phase"] == "preparation"
        else None,
        "timers": sorted(
            (
                {"kind": t["kind"], "deadline": rfc3339(t["due_ms"]), **t["data"]}
                for t in state["timers"].values()
            ),
            key=lambda t: (str(t["deadline"]), str(t["kind"])),
        ),
    }


def is_active(state: State) -> bool:
    return bool(state["phase"] != ENDED)
