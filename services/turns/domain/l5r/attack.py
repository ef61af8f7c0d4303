"""An l5r attack in services/turns: checks in a documented order, the raises paid, the TN,
then ``resolution.requested`` for services/resolution; and what ``action.resolved`` changes.

Checks, in order (the first failing one is raised):
1. ``invalid_target``: an opponent still in the fight;
2. ``no_other_action_while_running`` (Correr);
3. ``extra_attack_limit`` (C-21), then ``attack_limit`` / ``extra_action_cannot_attack``
   (Ataque a distancia / cuerpo a cuerpo: once per round; C-9);
4. the stance matrix (T004-27, C-30) and riding (T004-28: ``cannot_fight_mounted``);
5. ``disarm_at_range`` (C-23); ``prone`` / ``not_prone`` (T004-25, C-31);
6. ``one_void_use_per_roll`` (C-4), ``not_enough_void``;
7. ``unskilled_no_raises`` / ``too_many_raises`` on the raises left to pay (T004-01, T004-02).
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import rules
from services.turns.domain.l5r.state import OUT_OF_FIGHT, State
from shared.dict_state import Out
from shared.errors import RuleViolation
from shared.messages import ACTION_DECLARED, COMBATANT_DOWN, RESOLUTION_REQUESTED
from shared.rulesets.l5r.actions import L5rAttack
from shared.rulesets.l5r.sheet import wound_rank


def free_raises(
    state: State, actor: str, p: dict[str, Any], foe: dict[str, Any], target: str, uses: list[str]
) -> list[rules.FreeRaise]:
    """Free raises of this attack: Full Attack (2, TN or damage; C-14), an enemy in Full
    Attack (3, any), Mejora (1, not TN), a feint (any, T004-23), concentration (damage, C-26)."""
    free: list[rules.FreeRaise] = []
    if p["stance"] == "full_attack":
        free.append(rules.FreeRaise("full_attack", 2, rules.FULL_ATTACK_OWN))
    if foe["stance"] == "full_attack":
        free.append(rules.FreeRaise("enemy_full_attack", 3, rules.ANY))
    if "mejora_raise" in uses:
        free.append(rules.FreeRaise("mejora", 1, rules.NOT_TN))
    if p["feint"].get(target):
        free.append(rules.FreeRaise("feint", int(p["feint"][target]), rules.ANY))
    concentration = p.get("concentration")
    if concentration and concentration["target"] == target:
        free.append(
            rules.FreeRaise("concentration", int(concentration["rounds"]), rules.DAMAGE_ONLY)
        )
    return free


def tn_base(state: State, p: dict[str, Any]) -> int:
    """C-27 with the combat's readings."""
    settings = state["settings"]
    return rules.base_tn(
        int(p["reflexes"]),
        int(p["armor_tn"]),
        multiplier=int(settings["tn_reflexes_multiplier"]),
        base=int(settings["tn_base"]),
    )


def check_limits(state: State, p: dict[str, Any], action: L5rAttack) -> None:
    counters = p["round"]
    if counters["ran"]:
        raise RuleViolation("no_other_action_while_running", "l5r Correr")
    if action.raises.extra_attack and counters["extra_attack_tried"]:
        raise RuleViolation("extra_attack_limit", "l5r Ataque adicional")
    if counters["attacks"] >= 1:
        if counters["extra_actions"] > 0:
            raise RuleViolation("extra_action_cannot_attack", "l5r Obtener una acción")
        raise RuleViolation(
            "attack_limit",
            f"l5r Ataque {'a distancia' if action.kind == 'ranged' else 'cuerpo a cuerpo'}",
        )
    rules.check_allowed(p["stance"] or "attack", action.kind)
    if p["mounted"] and p["skills"].get("horsemanship", 0) <= 0:
        raise RuleViolation("cannot_fight_mounted", "l5r Montar a caballo")
    if action.raises.disarm and action.kind == "ranged":
        raise RuleViolation("disarm_at_range", "l5r Desarmar")


def forced_raises(p: dict[str, Any], action: L5rAttack) -> int:
    """T004-24 / C-20 / C-31: melee after moving in Attack stance, 1; prone in Full Attack,
    standing and attacking, 2."""
    stance = p["stance"] or "attack"
    forced = 0
    if p["prone"]:
        if not action.stand_up or stance != "full_attack":
            raise RuleViolation("prone", "l5r Ponerte en pie", stance=stance)
        forced += 2
    elif action.stand_up:
        raise RuleViolation("not_prone", "l5r Ponerte en pie")
    if action.kind == "melee" and stance == "attack" and p["round"]["moved"] > 0:
        forced += 1
    return forced


def declare(state: State, out: Out, action_id: str, action: L5rAttack) -> None:
    actor, target = action.actor, action.target
    p = state["participants"][actor]
    foe = state["participants"].get(target)
    if foe is None or foe["side"] == p["side"] or foe["status"] in OUT_OF_FIGHT:
        raise RuleViolation("invalid_target", "l5r Ataque", target=target)
    check_limits(state, p, action)
    forced = forced_raises(p, action)
    uses: list[str] = list(action.void)
    rules.check_void_on_roll(uses)
    cost = sum(rules.VOID_COSTS[u] for u in uses)
    rules.check_void(p["void"], cost, "+".join(uses))
    protect = action.raises.protect
    if protect is not None:
        ally = state["participants"].get(protect.ally)
        if ally is None or ally["side"] != p["side"] or protect.ally == actor:
            raise RuleViolation("not_an_ally", "l5r Proteger", ally=protect.ally)
    skill = p["weapon"]["skill"].lower()
    rank = int(p["skills"].get(skill, 0)) + (1 if "mejora_rank" in uses else 0)
    skilled = rank > 0
    trait_name = "reflexes" if action.kind == "ranged" else "agility"
    trait = int(p["traits"][trait_name])
    raises = action.raises.model_dump()
    plan = rules.plan_raises(raises, free_raises(state, actor, p, foe, target, uses), forced)
    maximum = rules.raise_max(int(p["rings"]["void"]), rank)
    rules.check_paid_raises(plan.paid, maximum, skilled=skilled)
    # The target's TN to be hit (C-27, T004-06, T004-15, T004-21).
    covered = bool(foe["full_defense"]) and rules.full_defense_covers(
        foe["full_defense"], actor, int(foe["insight"])
    )
    shield = foe["protected"].get(actor)
    steps = rules.tn_to_be_hit(
        tn_base(state, foe),
        boost=int(foe["tn_boost"]),
        full_defense=int(foe["full_defense"]["bonus"]) if covered else 0,
        protect=int(shield["bonus"]) if shield and shield["round"] == state["round"] else 0,
    )
    tn = int(steps[-1]["tn"]) + rules.RAISE_TN * plan.paid - rules.RAISE_TN * plan.tn_lowered
    steps.append(
        {
            "step": "raises",
            "rule": "l5r C-1",
            "paid": plan.paid,
            "forced": plan.forced,
            "free_lowering": plan.tn_lowered,
            "tn": tn,
        }
    )
    extra = (1 if "mejora_die" in uses else 0) + (1 if p["alentar_bonus"] else 0)
    weapon = (1, 1) if p["disarmed"] else tuple(int(x) for x in p["weapon"]["damage"].split("k"))
    bonus = rules.damage_bonus(plan.damage_raises, str(state["settings"]["damage_raises"]))
    request = {
        "ruleset": "l5r",
        "action_id": action_id,
        "attacker": actor,
        "target": target,
        "kind": action.kind,
        "round": state["round"],
        "skill": skill,
        "roll": {
            "rolled": trait + rank + extra,
            "kept": trait + extra,
            "explode": skilled,
            "penalty": 0 if "persistencia" in uses else int(p["penalty"]),
            "trait": trait_name,
            "rank": rank,
        },
        "tn": tn,
        "tn_steps": steps,
        "raises": {
            **raises,
            "paid": plan.paid,
            "forced": plan.forced,
            "free": plan.free_used,
            "damage_raises": plan.damage_raises,
            "max": maximum,
        },
        "damage": {"rolled": weapon[0] + bonus[0], "kept": weapon[1] + bonus[1]},
        "target_state": {
            "wounds": foe["wounds"],
            "wound_table": foe["wound_table"],
            "earth": foe["rings"]["earth"],
            "insight": foe["insight"],
            "strength": foe["traits"]["strength"],
            "weapon_rank": int(foe["skills"].get(foe["weapon"]["skill"].lower(), 0)),
        },
        "void": uses,
        "alentar": bool(p["alentar_bonus"]),
    }
    if cost:
        spend(out, p, actor, cost, "+".join(uses), action_id)
    if p["alentar_bonus"]:
        p["alentar_bonus"] -= 1  # Alentar (T004-09): spent on his next roll
    p["feint"].pop(target, None)
    p["concentration"] = None
    p["round"]["attacks"] += 1
    p["round"]["acted"] = True
    p["round"]["extra_attack_tried"] = (
        p["round"]["extra_attack_tried"] or action.raises.extra_attack
    )
    state["pending"] = {
        "action_id": action_id,
        "attacker": actor,
        "target": target,
        "protect": protect.model_dump() if protect else None,
    }
    state["swap_open"] = False
    for q in state["participants"].values():
        q["stop"] = False  # Paso 3: fighting goes on
    out.emit(
        ACTION_DECLARED,
        {
            "action_id": action_id,
            "attacker": actor,
            "skill": skill,
            "targets": [target],
            "round": state["round"],
            "offensive": True,
            "ruleset": "l5r",
        },
    )
    out.emit(RESOLUTION_REQUESTED, request)


def spend(
    out: Out, p: dict[str, Any], actor: str, cost: int, use: str, action_id: str | None
) -> None:
    """Vacío: points spent (the pool shows them; services/states keeps what is left)."""
    p["void"] -= cost
    p["void_spent"] += cost
    out.emit(
        "void.spent",
        {
            "character": actor,
            "use": use,
            "cost": cost,
            "void_points": p["void"],
            "action_id": action_id,
            "rule": "l5r Vacío",
        },
    )


def set_wounds(state: State, out: Out, cid: str, wounds: int, action_id: str | None) -> None:
    """Wounds and their rank (C-7); the penalty changes the initiative at once (C-13)."""
    p = state["participants"][cid]
    p["wounds"] = wounds
    rank, penalty = wound_rank(wounds, p["wound_table"])
    before = p["rank"]
    p["rank"], p["penalty"] = rank, penalty
    if rank in ("down", "out", "dead") and p["status"] == "active":
        p["status"] = rank
        out.emit(
            COMBATANT_DOWN,
            {
                "character": cid,
                "action_id": action_id,
                "cause": "damage",
                "rank": rank,
                "rule": "l5r C-7",
            },
        )
    elif p["status"] in ("down", "out", "dead") and rank not in ("down", "out", "dead"):
        p["status"] = "active"  # Reducción de heridas took him back up
    elif p["status"] in ("down", "out", "dead"):
        p["status"] = rank
    if rank != before:
        out.emit(
            "wound_rank.changed",
            {"character": cid, "from": before, "to": rank, "penalty": penalty, "rule": "l5r C-7"},
        )


def resolved(state: State, out: Out, payload: dict[str, Any]) -> bool:
    """``action.resolved``: wounds, knockdown, disarm, feint, protection; Curso de combate's
    bookkeeping (who hit or wounded whom since his last turn, C-12)."""
    pending = state.get("pending")
    if not pending or pending["action_id"] != payload.get("action_id"):
        return False
    state["pending"] = None
    actor, target = pending["attacker"], pending["target"]
    p, foe = state["participants"][actor], state["participants"][target]
    hits = int(payload.get("hits", 0))
    dealt = int(payload.get("wounds_dealt", 0))
    if hits:
        if target not in p["hit_since_turn"]:
            p["hit_since_turn"].append(target)
        if payload.get("feint"):
            p["feint"][target] = int(p["feint"].get(target, 0)) + 1
        if payload.get("knocked_down"):
            foe["prone"] = True
        if payload.get("disarmed"):
            foe["disarmed"] = True
        protect = pending.get("protect")
        if protect:
            ally = state["participants"][protect["ally"]]
            current = int(ally["protected"].get(target, {}).get("bonus", 0))
            ally["protected"][target] = {
                "bonus": rules.protect_bonus(current, int(protect["raises"])),
                "round": int(state["round"]) + 1,  # C-25: during the next round
                "by": actor,
            }
    if dealt:
        foe["wounded_since_turn"] = True
        foe["last_hit"] = {
            "action_id": pending["action_id"],
            "wounds": dealt,
            "round": state["round"],
            "turn_seq": state["turn_seq"],
        }
        set_wounds(state, out, target, int(payload["wounds_after"]), pending["action_id"])
    out.emit("action.completed", {"action_id": pending["action_id"], "attacker": actor})
    return True
