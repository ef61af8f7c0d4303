"""Acción miscelánea compleja (004 line 55; C-19, C-29, T004-24): one per round, a skill
roll (trait + skill) k trait when it names one; after moving, one mandatory raise, at most
half the movement; unskilled it cannot be combined with movement."""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import rules
from services.turns.domain.l5r.attack import spend
from services.turns.domain.l5r.state import State, use_slot
from shared.dice.combat import keep_draws, stream_of
from shared.dice.notation import roll_and_keep
from shared.dice.rolls import roll
from shared.dict_state import Out
from shared.errors import RuleViolation
from shared.rulesets.l5r.actions import L5rComplex


def forced_raise(moved: float, water: int) -> int:
    """C-19 / T004-24: after a move (at most half), one mandatory raise; more is refused."""
    if moved > water * 1.5:
        raise RuleViolation("complex_after_full_move", "l5r Acción compleja", moved=moved)
    return 1 if moved > 0 else 0


def complex_action(state: State, out: Out, action: L5rComplex, p: dict[str, Any]) -> None:
    actor = action.actor
    rules.check_allowed(p["stance"] or "attack", action.category)
    if action.category == "ride" and p["skills"].get("horsemanship", 0) <= 0:
        raise RuleViolation("cannot_fight_mounted", "l5r Montar a caballo")
    forced = forced_raise(float(p["round"]["moved"]), int(p["rings"]["water"]))
    uses: list[str] = list(action.void)
    rules.check_void_on_roll(uses)
    cost = sum(rules.VOID_COSTS[u] for u in uses)
    rules.check_void(int(p["void"]), cost, "+".join(uses))
    payload: dict[str, Any] = {
        "character": actor,
        "description": action.description,
        "category": action.category,
        "forced_raises": forced,
    }
    if action.skill is not None and action.trait is not None:
        rank = int(p["skills"].get(action.skill.lower(), 0)) + (1 if "mejora_rank" in uses else 0)
        skilled = rank > 0
        free = 1 if "mejora_raise" in uses else 0
        paid = max(0, action.raises - free) + forced
        rules.check_paid_raises(
            paid, rules.raise_max(int(p["rings"]["void"]), rank), skilled=skilled
        )
        trait = int(p["traits"][action.trait])
        extra = (1 if "mejora_die" in uses else 0) + (1 if p["alentar_bonus"] else 0)
        stream = stream_of(state, "turns")
        result = roll(
            roll_and_keep(trait + rank + extra, trait + extra, explode=skilled),
            stream,
            purpose=f"complex {actor}",
        )
        keep_draws(state, stream)
        out.rolled(state, result, actor)
        penalty = 0 if "persistencia" in uses else int(p["penalty"])
        total = result.total - penalty
        payload |= {
            "roll": result.as_dict(),
            "penalty": penalty,
            "total": total,
            "raises_paid": paid,
        }
        if action.tn is not None:
            needed = action.tn + rules.RAISE_TN * paid
            payload |= {"tn": needed, "success": total >= needed}
        if p["alentar_bonus"]:
            p["alentar_bonus"] -= 1
    elif forced:
        payload["tn_raise"] = rules.RAISE_TN * forced
    use_slot(p, "complex")
    if cost:
        spend(out, p, actor, cost, "+".join(uses), None)
    p["round"]["acted"] = True
    out.emit("complex_action.taken", {**payload, "rule": "l5r Acción compleja"})
