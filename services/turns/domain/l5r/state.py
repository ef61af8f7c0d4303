"""The l5r combat as services/turns keeps it: a JSON-ready dict, and what one input produced.

State keys: ``id``, ``tenant``, ``room``, ``ruleset``, ``phase`` (preparation, fighting,
ended), ``round``, ``order`` (this round's), ``turn_index``, ``turn`` (actor, stance
declared, timer, seq), ``sides``, ``participants`` (see :func:`new_participant`),
``settings``, ``timers`` (id -> kind, due_ms, data), ``pending`` (the attack being
resolved), ``swap_offers``, ``result``, ``created_at_ms``, ``ended_at_ms``.
"""

from __future__ import annotations

from typing import Any, Final

from shared.errors import RuleViolation
from shared.rulesets.l5r.sheet import L5rSheet, wound_rank

State = dict[str, Any]
RULESET: Final = "l5r"
PREPARATION: Final = "preparation"
FIGHTING: Final = "fighting"
ENDED: Final = "ended"
SIDES: Final = ("attackers", "defenders")
OUT_OF_FIGHT: Final = frozenset({"down", "out", "dead", "fled"})


def fresh_round() -> dict[str, Any]:
    """Acciones durante el asalto (C-18): the per-round counters."""
    return {
        "complex": 0,
        "simple": 0,
        "move_actions": 0,
        "moved": 0.0,
        "attacks": 0,
        "extra_actions": 0,
        "extra_attack_tried": False,
        "ran": False,
        "acted": False,
    }


def new_participant(sheet: L5rSheet, side: str, counters: dict[str, int]) -> dict[str, Any]:
    """A combatant at the start: his sheet's numbers, his Void pool (services/states' count
    when it has one, else the sheet's, else full), no wounds (the rank and penalty of 0
    wounds in his sheet's table, C-7), no initiative yet."""
    void_max = sheet.rings.void
    table = [w.model_dump() for w in sheet.wound_table()]
    rank, penalty = wound_rank(0, table)  # C-7: the sheet's first rank may carry a penalty
    void = counters.get(
        "void_points", sheet.void_points if sheet.void_points is not None else void_max
    )
    return {
        "side": side,
        "status": "active",
        "name": sheet.name,
        "rings": sheet.rings.model_dump(),
        "traits": sheet.traits.model_dump(),
        "reflexes": sheet.traits.reflexes,
        "insight": sheet.insight_rank,
        "skills": dict(sheet.skills),
        "armor_tn": sheet.armor_tn,
        "weapon": sheet.weapon.model_dump(),
        "riding_techniques": list(sheet.riding_techniques),
        "mounted": sheet.mounted,
        "wound_table": table,
        "void": max(0, min(int(void), void_max)),
        "void_max": void_max,
        "void_spent": 0,
        "alentar_received": int(counters.get("alentar_received", 0)),
        "alentar_bonus": 0,
        "wounds": 0,
        "rank": rank,
        "penalty": penalty,
        "initiative": 0,
        "initiative_roll": None,
        "tiebreak": None,
        "velocidad": False,
        "ready": False,
        "stance": None,
        "full_defense": None,
        "tn_boost": 0,
        "prone": False,
        "disarmed": False,
        "feint": {},
        "concentration": None,
        "protected": {},
        "round": fresh_round(),
        "reduction_round": 0,
        "last_hit": None,
        "golpe_final": None,
        "wounded_since_turn": False,
        "hit_since_turn": [],
        "tide_against": None,
    }


def participant(state: State, cid: str) -> dict[str, Any]:
    found: dict[str, Any] | None = state["participants"].get(cid)
    if found is None:
        raise RuleViolation("not_in_combat", None, character=cid)
    return found


def opponents(state: State, cid: str) -> list[str]:
    side = state["participants"][cid]["side"]
    return [c for c, p in state["participants"].items() if p["side"] != side]


def can_fight(p: dict[str, Any]) -> bool:
    """Down, Out, dead or gone: out of the fight (a pending Golpe final still acts once)."""
    return p["status"] not in OUT_OF_FIGHT or p.get("golpe_final") == "pending"


def use_slot(p: dict[str, Any], kind: str) -> None:
    """C-18: one complex action per round (Obtener una acción adds one, C-9); the first simple
    action is free, the second takes the complex slot."""
    counters = p["round"]
    if kind == "simple" and counters["simple"] == 0:
        counters["simple"] = 1
        return
    if counters["complex"] >= 1 + counters["extra_actions"]:
        raise RuleViolation("complex_action_limit", "l5r Acción compleja", kind=kind)
    counters["complex"] += 1
    if kind == "simple":
        counters["simple"] += 1
