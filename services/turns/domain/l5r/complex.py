"""Acción miscelánea compleja (004 line 55; C-19, C-29, T004-24): one per round, a skill
roll (trait + skill) k trait when it names one; after moving, one mandatory raise, at most
half the movement; unskilled it cannot be combined with movement."""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import rules, void_dice
from services.turns.domain.l5r.attack import spend
from services.turns.domain.l5r.fighter import Fighter
from services.turns.domain.l5r.state import L5rCombat
from shared.dice.notation import roll_and_keep
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import roll
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.rulesets.l5r.actions import L5rComplex


def forced_raise(moved: float, water: int) -> int:
    """C-19 / T004-24: after a move (at most half), one mandatory raise; more is refused."""
    if moved > water * 1.5:
        raise RuleViolation("complex_after_full_move", "l5r Acción compleja", moved=moved)
    return 1 if moved > 0 else 0


def complex_action(
    state: L5rCombat, out: Outcome, action: L5rComplex, p: Fighter, action_id: str
) -> None:
    """The stance allows it (T004-27; riding too: Montar a caballo is movement, and only
    fighting mounted needs Horsemanship ranks, checked by the attack), the forced raise after
    a move (C-19), one Void use on its roll (C-4) and its points; then the roll, if any."""
    rules.check_allowed(p.current_stance, action.category)
    forced = forced_raise(p.round.moved, p.rings.water)
    uses: list[str] = list(action.void)
    rules.check_void_on_roll(uses, persistencia_more_points=state.settings.persistencia_more_points)
    cost = sum(rules.VOID_COSTS[u] for u in uses)
    rules.check_void(p.void, cost, "+".join(uses))
    payload: dict[str, Any] = {
        "character": action.actor,
        "description": action.description,
        "category": action.category,
        "forced_raises": forced,
    }
    if action.skill is not None and action.trait is not None:
        payload |= skill_roll(state, out, action, p, uses, forced, action_id)
    elif forced:
        payload["tn_raise"] = rules.RAISE_TN * forced
    p.use_slot("complex")
    if cost:
        spend(out, p, action.actor, cost, "+".join(uses), None)
    p.round.acted = True
    out.emit("complex_action.taken", {**payload, "rule": "l5r Acción compleja"})


def skill_roll(
    state: L5rCombat,
    out: Outcome,
    action: L5rComplex,
    p: Fighter,
    uses: list[str],
    forced: int,
    action_id: str,
) -> dict[str, Any]:
    """(trait + skill) k trait (C-2), exploding when skilled (C-29); Mejora's rank, die and
    free raise, Alentar's die; the raises paid within the maximum (T004-01); the wound
    penalty off unless Persistencia; against the TN plus 5 per raise (C-1)."""
    assert action.skill is not None and action.trait is not None
    rank = p.skill(action.skill) + (1 if "mejora_rank" in uses else 0)
    free = 1 if "mejora_raise" in uses else 0
    paid = max(0, action.raises - free) + forced
    rules.check_paid_raises(paid, rules.raise_max(p.rings.void, rank), skilled=rank > 0)
    trait = int(getattr(p.traits, action.trait))
    extra = (1 if "mejora_die" in uses else 0) + (1 if p.alentar_bonus else 0)
    dice = state.dice_of()
    stream = dice.stream("turns")
    spec = roll_and_keep(trait + rank + extra, trait + extra, explode=rank > 0)
    result = roll(spec, stream, purpose=RollPurpose.COMPLEX_ACTION)
    dice.keep(stream)
    out.rolled(result, roller=action.actor, combat_id=state.id, action_id=action_id)
    void_dice.after_roll(state, out, action.actor, result.dice, action_id)
    penalty = 0 if "persistencia" in uses else p.penalty
    total = result.total - penalty
    shown: dict[str, Any] = {
        "roll": result.as_dict(),
        "penalty": penalty,
        "total": total,
        "raises_paid": paid,
    }
    if action.tn is not None:
        needed = action.tn + rules.RAISE_TN * paid
        shown |= {"tn": needed, "success": total >= needed}
    if p.alentar_bonus:
        p.alentar_bonus -= 1
    return shown
