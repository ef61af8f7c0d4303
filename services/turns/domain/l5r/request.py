"""What services/turns hands services/resolution for one l5r attack (``resolution.requested``):
the dice of the attack roll, the raises paid and free (C-1, T004-01), the TN to be hit step
by step (C-27, T004-06, T004-15, T004-21), the damage dice (C-24) and the target's numbers."""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import rules
from services.turns.domain.l5r.fighter import Fighter
from services.turns.domain.l5r.state import L5rCombat
from shared.rulesets.l5r.actions import L5rAttack


def tn_base(state: L5rCombat, p: Fighter) -> int:
    """C-27 with the combat's readings."""
    settings = state.settings
    return rules.base_tn(
        p.reflexes, p.armor_tn, multiplier=settings.tn_reflexes_multiplier, base=settings.tn_base
    )


def tn_steps(state: L5rCombat, attacker: str, foe: Fighter) -> list[dict[str, Any]]:
    """The target's TN to be hit before the raises: base, Incremento del NO, his Full
    Defense if it covers this attacker (it counts him, C-15), an ally's protection of him
    this round (C-25)."""
    fd = foe.full_defense
    covered = fd is not None and rules.full_defense_covers(fd, attacker, foe.insight)
    shield = foe.protected.get(attacker)
    return rules.tn_to_be_hit(
        tn_base(state, foe),
        boost=foe.tn_boost,
        full_defense=fd.bonus if fd is not None and covered else 0,
        protect=shield.bonus if shield is not None and shield.round == state.round else 0,
    )


def target_state(foe: Fighter) -> dict[str, Any]:
    """The target's numbers the roll needs: wounds and table (C-7), Earth and Insight
    (Derribar, C-22), Strength, Agility, weapon rank, wound penalty and the roll he opposes
    a disarm with (Desarmar, C-23)."""
    return {
        "wounds": foe.wounds,
        "wound_table": [w.model_dump() for w in foe.wound_table],
        "earth": foe.rings.earth,
        "insight": foe.insight,
        "strength": foe.traits.strength,
        "agility": foe.traits.agility,
        "weapon_rank": foe.skill(foe.weapon.skill),
        "disarm_roll": foe.disarm_roll,
        "penalty": foe.penalty,
    }


def raise_plan(
    action: L5rAttack, p: Fighter, rank: int, free: list[rules.FreeRaise], forced: int
) -> tuple[rules.RaisePlan, int]:
    """Check 7 of ``attack``: free raises spent first (C-1, C-14, C-26), what is left to pay
    within max(Void ring, skill rank), none unskilled (T004-01, T004-02)."""
    plan = rules.plan_raises(action.raises, free, forced)
    maximum = rules.raise_max(p.rings.void, rank)
    rules.check_paid_raises(plan.paid, maximum, skilled=rank > 0)
    return plan, maximum


def raised_tn(steps: list[dict[str, Any]], plan: rules.RaisePlan) -> int:
    """C-1: +5 per paid raise, -5 per free raise left to lower it; the step is shown."""
    tn = int(steps[-1]["tn"]) + rules.RAISE_TN * plan.paid - rules.RAISE_TN * plan.tn_lowered
    shown = {"paid": plan.paid, "forced": plan.forced, "free_lowering": plan.tn_lowered}
    steps.append({"step": "raises", "rule": "l5r C-1", **shown, "tn": tn})
    return tn


def attack_dice(action: L5rAttack, p: Fighter, rank: int) -> dict[str, Any]:
    """(trait + skill) k trait (Reflexes at range, Agility in melee), Mejora's and Alentar's
    extra die (T004-09), exploding when skilled, the wound penalty unless Persistencia."""
    uses = list(action.void)
    trait_name = "reflexes" if action.kind == "ranged" else "agility"
    trait = int(getattr(p.traits, trait_name))
    extra = (1 if "mejora_die" in uses else 0) + (1 if p.alentar_bonus else 0)
    return {
        "rolled": trait + rank + extra,
        "kept": trait + extra,
        "explode": rank > 0,
        "penalty": 0 if "persistencia" in uses else p.penalty,
        "trait": trait_name,
        "rank": rank,
    }


def build_request(
    state: L5rCombat,
    action_id: str,
    action: L5rAttack,
    p: Fighter,
    foe: Fighter,
    free: list[rules.FreeRaise],
    forced: int,
) -> dict[str, Any]:
    """The request: the attack dice, the TN with its raises, the raises, the weapon's damage
    (1k1 disarmed) plus the damage raises (C-24), the target's numbers."""
    uses = list(action.void)
    skill = p.weapon.skill.lower()
    rank = p.skill(skill) + (1 if "mejora_rank" in uses else 0)
    plan, maximum = raise_plan(action, p, rank, free, forced)
    steps = tn_steps(state, action.actor, foe)
    tn = raised_tn(steps, plan)
    weapon = (1, 1) if p.disarmed else p.weapon.dice()
    bonus = rules.damage_bonus(plan.damage_raises, state.settings.damage_raises)
    paid = {"paid": plan.paid, "forced": plan.forced, "free": plan.free_used}
    return {
        "ruleset": "l5r",
        "action_id": action_id,
        "attacker": action.actor,
        "target": action.target,
        "kind": action.kind,
        "round": state.round,
        "skill": skill,
        "roll": attack_dice(action, p, rank),
        "tn": tn,
        "tn_steps": steps,
        "raises": {
            **action.raises.model_dump(),
            **paid,
            "damage_raises": plan.damage_raises,
            "max": maximum,
        },
        "damage": {"rolled": weapon[0] + bonus[0], "kept": weapon[1] + bonus[1]},
        "target_state": target_state(foe),
        "void": uses,
        "alentar": bool(p.alentar_bonus),
    }
