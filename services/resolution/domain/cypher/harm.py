"""What a cypher action does to a combatant's condition (seed 001 DAÑO, ARMADURA, DAÑO
ESPECIAL, INDICADOR; B-4, B-7, B-15, B-17, B-18, B-24): Effort paid, damage taken, special
damage. Each function changes the :class:`Condition` it is given (a copy the caller owns)
and returns what it did, as shown in ``action.resolved``."""

from __future__ import annotations

from typing import Any

from services.resolution.domain.cypher.attempt import check
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import Roll
from shared.dice.streams import Stream
from shared.rulesets.cypher.conditions import Condition
from shared.rulesets.cypher.damage import apply_damage, armor_applied, effort_cost
from shared.rulesets.cypher.sheet import CypherSheet, Poison, Special, Stat


def spend_effort(cond: Condition, sheet: CypherSheet, stat: Stat, levels: int) -> dict[str, Any]:
    """B-7: Effort's cost comes off the stat's pool before the roll (checked by turns); a pool
    it empties moves the spender down the damage track at once (001 INDICADOR, B-4)."""
    if cond.kind != "pc" or levels <= 0:
        return {"levels": 0, "cost": 0, "pool": stat}
    cost = effort_cost(levels, int(getattr(sheet.edges, stat)), impaired=cond.impaired)
    before = cond.pool(stat)
    cond.set_pool(stat, max(0, before - cost))
    cond.refresh()
    return {
        "levels": levels,
        "cost": cost,
        "pool": stat,
        "before": before,
        "after": cond.pool(stat),
    }


def take_damage(
    cond: Condition, amount: int, damage_type: str, *, ignores_armor: bool
) -> dict[str, Any]:
    """001 DAÑO / ARMADURA: Armor first (B-17), then NPC health or the PC's cascade (B-4)."""
    dealt = armor_applied(amount, cond.armor, damage_type, ignores_armor=ignores_armor)
    shown: dict[str, Any] = {
        "raw": amount,
        "armor": 0 if ignores_armor or damage_type != "might" else cond.armor,
        "damage": dealt,
        "damage_type": damage_type,
        "track_before": str(cond.track_name),
    }
    if cond.kind == "npc":
        before = int(cond.health or 0)
        cond.health = max(0, before - dealt)
        shown.update(health_before=before, health_after=cond.health)
    else:
        assert cond.pools is not None
        before_pools = cond.pools.model_dump()
        cond.pools, moves = apply_damage(cond.pools, dealt, damage_type)
        shown.update(
            pools_before=before_pools,
            pools_after=cond.pools.model_dump(),
            cascade=[m.as_dict() for m in moves],
        )
    cond.refresh()
    shown["track_after"] = str(cond.track_name)
    return shown


def apply_special(
    cond: Condition, special: Special, stream: Stream, who: str
) -> tuple[list[dict[str, Any]], list[Roll]]:
    """001 DAÑO ESPECIAL, in this order: dazed for N rounds (B-18), stunned (next turn lost,
    B-15), paralysis, automatic steps down the track, poison (B-24, :func:`poisoned`)."""
    shown: list[dict[str, Any]] = []
    dazed_before = cond.dazed  # the blow's own daze comes after its poison
    if special.dazed_rounds:
        cond.dazed_turns = max(cond.dazed_turns, special.dazed_rounds)
        shown.append({"effect": "dazed", "rounds": special.dazed_rounds})
    if special.stunned:
        cond.stunned = True
        shown.append({"effect": "stunned"})
    if special.paralysis:
        cond.paralyzed = True
        shown.append({"effect": "paralyzed"})
    if special.track_steps:
        cond.special_steps += special.track_steps
        shown.append({"effect": "track_steps", "steps": special.track_steps})
    rolls: list[Roll] = []
    if special.poison is not None:
        entry, rolls = poisoned(cond, special.poison, stream, who, dazed=dazed_before)
        shown.append(entry)
    cond.refresh()
    return shown, rolls


def poisoned(
    cond: Condition, poison: Poison, stream: Stream, who: str, *, dazed: bool
) -> tuple[dict[str, Any], list[Roll]]:
    """001 DAÑO ESPECIAL (veneno), B-24: a Might defense roll at the poison's level (dazed
    before the blow: one step harder); failing it, the Might damage, the steps
    down the track and the paralysis. Its damage is Might damage (001 DAÑO: damage not
    specified is Might damage), so Armor reduces it like any damage (001 ARMADURA names
    the only exceptions: Speed, Intellect and environmental damage)."""
    result, rolled = check(
        poison.level,
        [],
        stream,
        RollPurpose.POISON_DEFENSE,
        dazed=dazed,
        effort=0,
        is_impaired=cond.impaired,
    )
    entry: dict[str, Any] = {"effect": "poison", "level": poison.level, "defense": result}
    if not result["success"]:
        if poison.damage:
            entry["damage"] = take_damage(cond, poison.damage, "might", ignores_armor=False)
        if poison.steps:
            cond.special_steps += poison.steps
        if poison.paralysis:
            cond.paralyzed = True
    return entry, [] if rolled is None else [rolled]
