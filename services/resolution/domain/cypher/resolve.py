"""Resolving one cypher action (seed 001): the roll, its difficulty, the damage, the track.

Pure: the dice come as a stream, the conditions as dicts. Each function returns a
:class:`Resolved`: the ``action.resolved`` payload (every step shown), the new conditions,
and the rolls made (for ``dice.rolled``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from shared.dice.rolls import Roll, roll
from shared.dice.streams import Stream
from shared.rulesets.cypher import difficulty as dif
from shared.rulesets.cypher.actions import (
    CypherAttack,
    CypherGenericAction,
    CypherInflict,
    CypherMove,
)
from shared.rulesets.cypher.conditions import Condition, impaired, refreshed
from shared.rulesets.cypher.damage import (
    apply_damage,
    armor_applied,
    effect_of,
    effort_cost,
    recover,
)
from shared.rulesets.cypher.sheet import Attack, CypherSheet, Poison, Special


@dataclass
class Resolved:
    payload: dict[str, Any]
    conditions: dict[str, Condition]
    rolls: list[tuple[Roll, str]] = field(default_factory=list)


def d20(stream: Stream, purpose: str) -> Roll:
    return roll("1d20", stream, purpose=purpose)


def check(
    base: int,
    steps: list[dif.Step],
    stream: Stream,
    purpose: str,
    *,
    dazed: bool,
    effort: int,
    is_impaired: bool,
) -> tuple[dict[str, Any], Roll | None]:
    """001 ACCIÓN / B-1 / B-14: difficulty from base, steps, dazed, Effort; 0 succeeds with
    no roll; else d20 >= 3 x difficulty. A natural 19 / 20 is a minor / major effect (B-7)."""
    final = dif.difficulty(base, steps, dazed=dazed, effort=effort)
    shown: dict[str, Any] = {
        "base": base,
        "steps": [s.as_dict() for s in steps],
        "dazed": dazed,
        "effort_levels": effort,
        "difficulty": final,
        "target_number": dif.target_number(final),
    }
    if final == 0:
        return {**shown, "roll": None, "success": True, "automatic": "difficulty_0"}, None
    rolled = d20(stream, purpose)
    natural = rolled.total
    return {
        **shown,
        "roll": natural,
        "success": natural >= dif.target_number(final),
        "automatic": None,
        "effect": effect_of(natural, impaired=is_impaired),
    }, rolled


def spend_effort(cond: Condition, sheet: CypherSheet, stat: str, levels: int) -> dict[str, Any]:
    """B-7: Effort's cost comes off the stat's pool before the roll (checked by turns); a pool
    it empties moves the spender down the damage track at once (001 INDICADOR, B-4)."""
    if cond["kind"] != "pc" or levels <= 0:
        return {"levels": 0, "cost": 0, "pool": stat}
    edge = int(getattr(sheet.edges, stat))
    cost = effort_cost(levels, edge, impaired=impaired(cond))
    before = int(cond["pools"][stat])
    cond["pools"][stat] = max(0, before - cost)
    cond.update(refreshed(cond))
    return {
        "levels": levels,
        "cost": cost,
        "pool": stat,
        "before": before,
        "after": cond["pools"][stat],
    }


def take_damage(
    cond: Condition, amount: int, damage_type: str, *, ignores_armor: bool
) -> dict[str, Any]:
    """001 DAÑO / ARMADURA: Armor first (B-17), then NPC health or the PC's cascade (B-4)."""
    dealt = armor_applied(amount, int(cond["armor"]), damage_type, ignores_armor=ignores_armor)
    shown: dict[str, Any] = {
        "raw": amount,
        "armor": 0 if ignores_armor or damage_type != "might" else int(cond["armor"]),
        "damage": dealt,
        "damage_type": damage_type,
        "track_before": cond["track_name"],
    }
    if cond["kind"] == "npc":
        before = int(cond["health"])
        cond["health"] = max(0, before - dealt)
        shown.update(health_before=before, health_after=cond["health"])
    else:
        before_pools = dict(cond["pools"])
        cond["pools"], moves = apply_damage(cond["pools"], dealt, damage_type)
        shown.update(pools_before=before_pools, pools_after=dict(cond["pools"]), cascade=moves)
    cond.update(refreshed(cond))
    shown["track_after"] = cond["track_name"]
    return shown


def apply_special(
    cond: Condition, special: Special, stream: Stream, who: str
) -> tuple[list[dict[str, Any]], list[Roll]]:
    """001 DAÑO ESPECIAL: dazed for N rounds (B-18), stunned (next turn lost, B-15),
    paralysis, automatic steps down the track, poison with a Might defense roll (B-24)."""
    shown: list[dict[str, Any]] = []
    rolls: list[Roll] = []
    dazed_before = int(cond["dazed_turns"]) > 0  # the blow's own daze comes after its poison
    if special.dazed_rounds:
        cond["dazed_turns"] = max(int(cond["dazed_turns"]), special.dazed_rounds)
        shown.append({"effect": "dazed", "rounds": special.dazed_rounds})
    if special.stunned:
        cond["stunned"] = True
        shown.append({"effect": "stunned"})
    if special.paralysis:
        cond["paralyzed"] = True
        shown.append({"effect": "paralyzed"})
    if special.track_steps:
        cond["special_steps"] = int(cond["special_steps"]) + special.track_steps
        shown.append({"effect": "track_steps", "steps": special.track_steps})
    if special.poison is not None:
        poison = special.poison
        base = poison.level
        dazed = dazed_before
        result, rolled = check(
            base,
            [],
            stream,
            f"poison defense (Might) of {who}",
            dazed=dazed,
            effort=0,
            is_impaired=impaired(cond),
        )
        if rolled is not None:
            rolls.append(rolled)
        entry: dict[str, Any] = {"effect": "poison", "level": poison.level, "defense": result}
        if not result["success"]:
            if poison.damage:
                entry["damage"] = take_damage(cond, poison.damage, "might", ignores_armor=True)
            if poison.steps:
                cond["special_steps"] = int(cond["special_steps"]) + poison.steps
            if poison.paralysis:
                cond["paralyzed"] = True
        shown.append(entry)
    cond.update(refreshed(cond))
    return shown, rolls


def resolve_attack(
    action: CypherAttack,
    sheets: dict[str, CypherSheet],
    conditions: dict[str, Condition],
    stream: Stream,
    *,
    literal_low_light: bool = False,
) -> Resolved:
    """001 ATACAR: a PC (or an NPC on an NPC) rolls against the target's difficulty; an NPC
    attacking a PC makes the PC roll a Speed defense at the NPC's level, the steps turned
    round (a stunned PC still defends, B-15). A hit deals the attack's fixed damage."""
    conds = copy.deepcopy(conditions)
    me, him = sheets[action.actor], sheets[action.target]
    attack = me.attack(action.attack)
    assert attack is not None
    mine, his = conds[action.actor], conds[action.target]
    stat = dif.attack_stat(attack, action.stat)
    steps = dif.attack_steps(me, attack, action.circumstances, literal_low_light=literal_low_light)
    effort = spend_effort(mine, me, stat, action.effort)
    rolls: list[tuple[Roll, str]] = []
    payload: dict[str, Any] = {"attack": attack.name, "stat": stat, "effort": effort}
    if dif.automatic_miss(action.circumstances):
        payload.update(roll=None, success=False, automatic="darkness_not_located", steps=[])
    elif me.kind == "npc" and him.kind == "pc":
        turned = [dif.Step(s.name, -s.steps, s.rule) for s in steps]
        if int(mine["dazed_turns"]) > 0:
            turned.append(dif.Step("attacker_dazed", -1, "cypher DAÑO ESPECIAL, B-18"))
        defense, rolled = check(
            dif.defense_of(me),
            turned,
            stream,
            f"Speed defense of {action.target}",
            dazed=int(his["dazed_turns"]) > 0,
            effort=0,
            is_impaired=impaired(his),
        )
        if rolled is not None:
            rolls.append((rolled, action.target))
        payload.update(defense)
        payload.update(
            defense_roll=True, defended=defense["success"], success=not defense["success"]
        )
    else:
        attempt, rolled = check(
            dif.defense_of(him),
            steps,
            stream,
            f"attack {attack.name} on {action.target}",
            dazed=int(mine["dazed_turns"]) > 0,
            effort=action.effort,
            is_impaired=impaired(mine),
        )
        if rolled is not None:
            rolls.append((rolled, action.actor))
        payload.update(defense_roll=False, **attempt)
    result: dict[str, Any] = {"target": action.target, "hit": bool(payload["success"])}
    if payload["success"]:
        result.update(hit_damage(his, attack, stream, action.target, rolls))
    payload["results"] = [result]
    return Resolved(payload, conds, rolls)


def hit_damage(
    cond: Condition, attack: Attack, stream: Stream, who: str, rolls: list[tuple[Roll, str]]
) -> dict[str, Any]:
    shown = take_damage(cond, attack.damage, attack.damage_type, ignores_armor=attack.ignores_armor)
    if attack.special is not None and cond["status"] != "dead":
        effects, special_rolls = apply_special(cond, attack.special, stream, who)
        rolls += [(r, who) for r in special_rolls]
        shown["special"] = effects
    shown["status"] = cond["status"]
    return shown


def resolve_action(
    action: CypherGenericAction,
    sheets: dict[str, CypherSheet],
    conditions: dict[str, Condition],
    stream: Stream,
) -> Resolved:
    """001 ACCIÓN: a pool below the minimum spend fails automatically (T001-21), else the
    minimum is spent and the d20 meets 3 x difficulty (0: automatic success)."""
    conds = copy.deepcopy(conditions)
    cond, sheet = conds[action.actor], sheets[action.actor]
    payload: dict[str, Any] = {"stat": action.stat, "description": action.description}
    if cond["kind"] == "pc" and action.minimum_spend:
        have = int(cond["pools"][action.stat])
        if have < action.minimum_spend:
            payload.update(
                minimum_spend=action.minimum_spend,
                pool=have,
                roll=None,
                success=False,
                automatic="minimum_spend_not_met",
            )
            return Resolved(payload, conds)
        cond["pools"][action.stat] = have - action.minimum_spend
        payload["minimum_spend"] = action.minimum_spend
    payload["effort"] = spend_effort(cond, sheet, action.stat, action.effort)
    attempt, rolled = check(
        action.difficulty,
        [],
        stream,
        f"{action.stat} action of {action.actor}",
        dazed=int(cond["dazed_turns"]) > 0,
        effort=action.effort,
        is_impaired=impaired(cond),
    )
    cond.update(refreshed(cond))
    payload.update(attempt)
    return Resolved(payload, conds, [(rolled, action.actor)] if rolled else [])


def resolve_long_move(
    action: CypherMove, conditions: dict[str, Condition], stream: Stream
) -> Resolved:
    """001 DISTANCIA (long move), B-21: a Speed action at difficulty 4 plus terrain steps,
    unless the GM waives the roll; failing it, the character slips and stays where he was."""
    conds = copy.deepcopy(conditions)
    cond = conds[action.actor]
    if not action.roll:
        return Resolved(
            {"distance": "long", "roll": None, "success": True, "automatic": "waived"}, conds
        )
    steps = [dif.Step("terrain", action.terrain_steps, "cypher DISTANCIA (long move)")]
    steps = [s for s in steps if s.steps]
    attempt, rolled = check(
        4,
        steps,
        stream,
        f"long move of {action.actor}",
        dazed=int(cond["dazed_turns"]) > 0,
        effort=0,
        is_impaired=impaired(cond),
    )
    return Resolved(
        {"distance": "long", **attempt}, conds, [(rolled, action.actor)] if rolled else []
    )


def resolve_inflict(
    action: CypherInflict, conditions: dict[str, Condition], stream: Stream
) -> Resolved:
    """001 DAÑO (automatic steps), DAÑO DIVERSO, DAÑO ESPECIAL declared by the GM."""
    conds = copy.deepcopy(conditions)
    cond = conds[action.target]
    result: dict[str, Any] = {"target": action.target, "reason": action.reason}
    rolls: list[tuple[Roll, str]] = []
    if action.damage:
        result["damage"] = take_damage(
            cond, action.damage, action.damage_type, ignores_armor=action.ignores_armor
        )
    poison = None
    if action.poison_level is not None:
        poison = Poison(
            level=action.poison_level,
            damage=action.poison_damage,
            steps=action.poison_steps,
            paralysis=action.poison_paralysis,
        )
    special = Special(
        dazed_rounds=action.dazed_rounds,
        stunned=action.stunned,
        paralysis=bool(action.paralysis),
        track_steps=action.track_steps,
        poison=poison,
    )
    if cond["status"] != "dead":
        effects, special_rolls = apply_special(cond, special, stream, action.target)
        rolls += [(r, action.target) for r in special_rolls]
        result["special"] = effects
    if action.paralysis is False:
        cond["paralyzed"] = False
        result.setdefault("special", []).append({"effect": "paralysis_ended"})
    result["status"] = cond["status"]
    return Resolved({"results": [result]}, conds, rolls)


def resolve_recover(
    actor: str,
    distribution: list[str],
    special_damage: bool,
    sheet: CypherSheet,
    conditions: dict[str, Condition],
    stream: Stream,
) -> Resolved:
    """001 RECUPERAR, B-10: the day's first rest, a turn's action in combat: 1d6 + tier
    points spread as the player says, no pool above its maximum; or, with every pool above
    0 (checked by turns), one step of special damage healed instead of points."""
    conds = copy.deepcopy(conditions)
    cond = conds[actor]
    cond["rests_taken"] = int(cond["rests_taken"]) + 1
    cond["recovered_this_combat"] = True
    if special_damage:
        before = cond["track_name"]
        cond["special_steps"] = max(0, int(cond["special_steps"]) - 1)
        cond.update(refreshed(cond))
        shown = {
            "option": "special_damage",
            "track_before": before,
            "track_after": cond["track_name"],
        }
        return Resolved({"recovery": shown, "success": True}, conds)
    rolled = roll(f"1d6+{sheet.tier}", stream, purpose=f"recovery roll of {actor}")
    got = recover(cond["pools"], cond["pools_max"], rolled.total, distribution)
    before = dict(cond["pools"])
    cond["pools"] = got.pools_after
    cond.update(refreshed(cond))
    shown = {
        "option": "points",
        "roll": rolled.dice[0][0],
        "tier": sheet.tier,
        "points": got.points,
        "applied": got.applied,
        "wasted": got.wasted,
        "pools_before": before,
        "pools_after": dict(cond["pools"]),
        "track_after": cond["track_name"],
    }
    return Resolved({"recovery": shown, "success": True}, conds, [(rolled, actor)])
