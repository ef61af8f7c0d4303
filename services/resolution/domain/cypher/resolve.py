"""Resolving one cypher action (seed 001): the roll, its difficulty, the damage, the track.

Pure: the dice come as a stream, the conditions typed (:class:`Condition`). Each function
returns a :class:`Resolved`: the ``action.resolved`` payload (every step shown), the new
conditions (copies: the ones given are never changed), and the rolls made (for
``dice.rolled``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.resolution.domain.cypher.attempt import check
from services.resolution.domain.cypher.harm import apply_special, spend_effort, take_damage
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import Roll, roll
from shared.dice.streams import Stream
from shared.rulesets.cypher import difficulty as dif
from shared.rulesets.cypher.actions import (
    CypherAttack,
    CypherGenericAction,
    CypherInflict,
    CypherMove,
)
from shared.rulesets.cypher.conditions import Condition, Status
from shared.rulesets.cypher.damage import effort_cost, recover
from shared.rulesets.cypher.sheet import Attack, CypherSheet, Poison, Special, Stat


@dataclass
class Resolved:
    payload: dict[str, Any]
    conditions: dict[str, Condition]
    rolls: list[tuple[Roll, str]] = field(default_factory=list)


def copied(conditions: dict[str, Condition]) -> dict[str, Condition]:
    return {c: cond.model_copy(deep=True) for c, cond in conditions.items()}


def defense_effort(his: Condition, sheet: CypherSheet, asked: int) -> int:
    """B-7 on a defense roll: the levels he asked for (at most his sheet's Effort), lowered
    to what his Speed pool pays now."""
    levels = min(asked, sheet.effort)
    while levels > 0:
        cost = effort_cost(levels, sheet.edges.speed, impaired=his.impaired)
        if his.pool("speed") >= cost:
            return levels
        levels -= 1
    return 0


def npc_attack(
    action: CypherAttack,
    sheets: dict[str, CypherSheet],
    mine: Condition,
    his: Condition,
    steps: list[dif.Step],
    stream: Stream,
    asked: int,
) -> tuple[dict[str, Any], list[tuple[Roll, str]]]:
    """001 ATACAR (NPC on a PC): the PC rolls a Speed defense at the NPC's level, the steps
    turned round (an attacker dazed: one step easier); a stunned PC still defends (B-15).
    The Effort he declared for it (``cypher.defend``, B-7) is paid from Speed first and eases
    his roll; it is spent only when he rolls (a difficulty 0 needs no roll, nor Effort)."""
    me, him = sheets[action.actor], sheets[action.target]
    turned = [dif.Step(s.name, -s.steps, s.rule) for s in steps]
    if mine.dazed:
        turned.append(dif.Step("attacker_dazed", -1, "cypher DAÑO ESPECIAL, B-18"))
    base = dif.defense_of(me)
    levels = defense_effort(his, him, asked)
    if dif.difficulty(base, turned, dazed=his.dazed, effort=0) == 0:
        levels = 0
    paid = spend_effort(his, him, "speed", levels)
    defense, rolled = check(
        base,
        turned,
        stream,
        RollPurpose.DEFENSE,
        dazed=his.dazed,
        effort=levels,
        is_impaired=his.impaired,
    )
    shown = {**defense, "defense_roll": True, "defended": defense["success"]}
    shown["success"] = not defense["success"]
    if asked:
        shown["defense_effort"] = {
            **paid,
            "character": action.target,
            "asked": asked,
            "rolled": rolled is not None,
        }
    return shown, [] if rolled is None else [(rolled, action.target)]


def own_attack(
    action: CypherAttack,
    him: CypherSheet,
    mine: Condition,
    steps: list[dif.Step],
    attack: Attack,
    stream: Stream,
) -> tuple[dict[str, Any], list[tuple[Roll, str]]]:
    """001 ATACAR: the attacker rolls against the target's difficulty (B-1), his Effort
    easing it (B-7), dazed one step harder (B-18)."""
    attempt, rolled = check(
        dif.defense_of(him),
        steps,
        stream,
        RollPurpose.ATTACK,
        dazed=mine.dazed,
        effort=action.effort,
        is_impaired=mine.impaired,
    )
    return {"defense_roll": False, **attempt}, [] if rolled is None else [(rolled, action.actor)]


def resolve_attack(
    action: CypherAttack,
    sheets: dict[str, CypherSheet],
    conditions: dict[str, Condition],
    stream: Stream,
    *,
    literal_low_light: bool = False,
    defense_effort: int = 0,
    intrusion: bool = False,
) -> Resolved:
    """001 ATACAR: Effort paid first (B-7); darkness not located misses with no roll (B-12)
    unless 1 XP is spent or the GM intrudes (``intrusion``: it is rolled at the darkness'
    steps);
    a PC (or an NPC on an NPC) rolls against the target's difficulty; an NPC attacking a PC
    makes the PC roll (:func:`npc_attack`). A hit deals the attack's fixed damage."""
    conds = copied(conditions)
    me, him = sheets[action.actor], sheets[action.target]
    attack = me.attack(action.attack)
    assert attack is not None
    mine, his = conds[action.actor], conds[action.target]
    stat = dif.attack_stat(attack, action.stat)
    steps = dif.attack_steps(me, attack, action.circumstances, literal_low_light=literal_low_light)
    effort = spend_effort(mine, me, stat, action.effort)
    payload: dict[str, Any] = {"attack": attack.name, "stat": stat, "effort": effort}
    rolls: list[tuple[Roll, str]] = []
    if dif.automatic_miss(action.circumstances) and intrusion:
        steps.append(dif.Step("gm_intrusion", 0, "cypher ILUMINACIÓN (oscuridad), B-12"))
        payload["intrusion_used"] = True
    if dif.automatic_miss(action.circumstances) and not intrusion:
        payload.update(roll=None, success=False, automatic="darkness_not_located", steps=[])
    elif me.kind == "npc" and him.kind == "pc":
        shown, rolls = npc_attack(action, sheets, mine, his, steps, stream, defense_effort)
        payload.update(shown)
    else:
        shown, rolls = own_attack(action, him, mine, steps, attack, stream)
        payload.update(shown)
    result: dict[str, Any] = {"target": action.target, "hit": bool(payload["success"])}
    if payload["success"]:
        result.update(hit_damage(his, attack, stream, action.target, rolls))
    payload["results"] = [result]
    return Resolved(payload, conds, rolls)


def hit_damage(
    cond: Condition, attack: Attack, stream: Stream, who: str, rolls: list[tuple[Roll, str]]
) -> dict[str, Any]:
    """001 DAÑO: the attack's fixed damage, then its special damage on a survivor."""
    shown = take_damage(cond, attack.damage, attack.damage_type, ignores_armor=attack.ignores_armor)
    if attack.special is not None and cond.status != Status.DEAD:
        effects, special_rolls = apply_special(cond, attack.special, stream, who)
        rolls += [(r, who) for r in special_rolls]
        shown["special"] = effects
    shown["status"] = str(cond.status)
    return shown


def resolve_action(
    action: CypherGenericAction,
    sheets: dict[str, CypherSheet],
    conditions: dict[str, Condition],
    stream: Stream,
) -> Resolved:
    """001 ACCIÓN: a pool below the minimum spend fails automatically (T001-21), else the
    minimum is spent and the d20 meets 3 x difficulty (0: automatic success)."""
    conds = copied(conditions)
    cond, sheet = conds[action.actor], sheets[action.actor]
    payload: dict[str, Any] = {"stat": action.stat, "description": action.description}
    if cond.kind == "pc" and action.minimum_spend:
        have = cond.pool(action.stat)
        if have < action.minimum_spend:
            payload.update(
                minimum_spend=action.minimum_spend,
                pool=have,
                roll=None,
                success=False,
                automatic="minimum_spend_not_met",
            )
            return Resolved(payload, conds)
        cond.set_pool(action.stat, have - action.minimum_spend)
        payload["minimum_spend"] = action.minimum_spend
    payload["effort"] = spend_effort(cond, sheet, action.stat, action.effort)
    attempt, rolled = check(
        action.difficulty,
        [],
        stream,
        RollPurpose.ACTION,
        dazed=cond.dazed,
        effort=action.effort,
        is_impaired=cond.impaired,
    )
    cond.refresh()
    payload.update(attempt)
    return Resolved(payload, conds, [(rolled, action.actor)] if rolled else [])


def resolve_long_move(
    action: CypherMove, conditions: dict[str, Condition], stream: Stream
) -> Resolved:
    """001 DISTANCIA (long move), B-21: a Speed action at difficulty 4 plus terrain steps,
    unless the GM waives the roll; failing it, the character slips and stays where he was."""
    conds = copied(conditions)
    cond = conds[action.actor]
    if not action.roll:
        return Resolved(
            {"distance": "long", "roll": None, "success": True, "automatic": "waived"}, conds
        )
    steps = [dif.Step("terrain", action.terrain_steps, "cypher DISTANCIA (long move)")]
    attempt, rolled = check(
        4,
        [s for s in steps if s.steps],
        stream,
        RollPurpose.LONG_MOVE,
        dazed=cond.dazed,
        effort=0,
        is_impaired=cond.impaired,
    )
    return Resolved(
        {"distance": "long", **attempt}, conds, [(rolled, action.actor)] if rolled else []
    )


def declared_special(action: CypherInflict) -> Special:
    """The special damage a GM declares (001 DAÑO ESPECIAL), as an attack would carry it."""
    poison = None
    if action.poison_level is not None:
        poison = Poison(
            level=action.poison_level,
            damage=action.poison_damage,
            steps=action.poison_steps,
            paralysis=action.poison_paralysis,
        )
    return Special(
        dazed_rounds=action.dazed_rounds,
        stunned=action.stunned,
        paralysis=bool(action.paralysis),
        track_steps=action.track_steps,
        poison=poison,
    )


def resolve_inflict(
    action: CypherInflict, conditions: dict[str, Condition], stream: Stream
) -> Resolved:
    """001 DAÑO (automatic steps), DAÑO DIVERSO, DAÑO ESPECIAL declared by the GM: the
    damage, then the special damage on a survivor; ``paralysis: false`` ends a paralysis."""
    conds = copied(conditions)
    cond = conds[action.target]
    result: dict[str, Any] = {"target": action.target, "reason": action.reason}
    rolls: list[tuple[Roll, str]] = []
    if action.damage:
        result["damage"] = take_damage(
            cond, action.damage, action.damage_type, ignores_armor=action.ignores_armor
        )
    if cond.status != Status.DEAD:
        effects, special_rolls = apply_special(
            cond, declared_special(action), stream, action.target
        )
        rolls += [(r, action.target) for r in special_rolls]
        result["special"] = effects
    if action.paralysis is False:
        cond.paralyzed = False
        result.setdefault("special", []).append({"effect": "paralysis_ended"})
    result["status"] = str(cond.status)
    return Resolved({"results": [result]}, conds, rolls)


def resolve_recover(
    actor: str,
    distribution: list[Stat],
    special_damage: bool,
    sheet: CypherSheet,
    conditions: dict[str, Condition],
    stream: Stream,
) -> Resolved:
    """001 RECUPERAR, B-10: the day's first rest, a turn's action in combat: 1d6 + tier
    points spread as the player says, no pool above its maximum; or, with every pool above
    0 (checked by turns), one step of special damage healed instead of points."""
    conds = copied(conditions)
    cond = conds[actor]
    cond.rests_taken += 1
    cond.recovered_this_combat = True
    if special_damage:
        before = str(cond.track_name)
        cond.special_steps = max(0, cond.special_steps - 1)
        cond.refresh()
        healed = {"option": "special_damage", "track_before": before}
        healed["track_after"] = str(cond.track_name)
        return Resolved({"recovery": healed, "success": True}, conds)
    assert cond.pools is not None and cond.pools_max is not None
    rolled = roll(f"1d6+{sheet.tier}", stream, purpose=RollPurpose.RECOVERY)
    got = recover(cond.pools, cond.pools_max, rolled.total, distribution)
    before_pools = cond.pools.model_dump()
    cond.pools = got.pools_after
    cond.refresh()
    shown: dict[str, Any] = {
        "option": "points",
        "roll": rolled.dice[0][0],
        "tier": sheet.tier,
        "points": got.points,
        "applied": got.applied,
        "wasted": got.wasted,
        "pools_before": before_pools,
        "pools_after": cond.pools.model_dump(),
        "track_after": str(cond.track_name),
    }
    return Resolved({"recovery": shown, "success": True}, conds, [(rolled, actor)])
