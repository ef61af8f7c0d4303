"""Hits on several targets, combos that follow an evader, and collisions (umh 8.1.1.1.4,
8.1.1.3.2, 11.6).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from services.resolution.domain.umh.condition import Combatant, CombatCondition
from services.resolution.domain.umh.context import hit_context
from services.resolution.domain.umh.effects import add, make_effect, view_of
from services.resolution.domain.umh.exact import json_number
from services.resolution.domain.umh.hit import Defense, Reaction
from services.resolution.domain.umh.pipeline import compute_damage
from services.resolution.domain.umh.positions import (
    COLLISION_STUN,
    collision_share,
    collision_shares,
    push,
)
from services.resolution.domain.umh.readings import UmhReadings
from services.resolution.domain.umh.secondary import Where
from services.resolution.domain.umh.steps import booster_step, modifier_step, pierced
from services.resolution.domain.umh.strike import Struck, strike
from shared.payloads import Position
from shared.rulesets.umh.attributes import below_one
from shared.rulesets.umh.grid import Square, distance
from shared.rulesets.umh.sheet import Skill
from shared.vocabulary import EffectKind

if TYPE_CHECKING:
    from services.resolution.domain.umh.resolve import ActionRequest, Tally


def where_for(condition: CombatCondition, request: ActionRequest, target: str, by: str) -> Where:
    """Who hits whom, in which hit of which action, at which height (for ids and falls)."""
    position = request.positions.get(target)
    height = position.height if position else "suelo"
    defense = request.terrain_defenses.get(target, 0)
    return Where(condition.combat_id, request.action_id, request.hit, by, target, height, defense)


def multi_impact(skill: Skill, targets: Sequence[str]) -> bool:
    """umh 8.1.1.3.2: several impacts spread over several targets, not an area.

    The sheet has no flag for it: a skill without an area, with more than one impact
    (``hits``) and more than one target is read as multiple impacts on several targets
    (a contract gap reported with issue 4).
    """
    return skill.area is None and skill.hits > 1 and len(targets) > 1


def _pool(
    condition: CombatCondition,
    request: ActionRequest,
    skill: Skill,
    targets: Sequence[str],
    readings: UmhReadings,
) -> tuple[list[str], Fraction, Defense | None]:
    """umh 8.1.1.3.2 / A-51: who shares the volley (not the evaders), its summed damage
    after boosters and attack modifiers, and the best numeric defense any of them brought
    (against a skill reactable several times, 8.1.1.3, each block of a target is a candidate
    and an evasion among his answers makes him an evader)."""
    attacker = condition.participants[request.attacker]
    pooled: list[str] = []
    total, best = Fraction(0), None
    for target_id in targets:
        reaction = request.reactions.get(target_id, Reaction())
        target = condition.participants[target_id]
        plan = hit_context(skill, attacker, target, reaction, readings, first_hit=request.hit == 1)
        further = plan.context.further
        if plan.context.evasion is not None or any(f.evasion is not None for f in further):
            continue
        pooled.append(target_id)
        total += compute_damage(plan.context, (booster_step, modifier_step)).steps[-1].after
        for defense in (plan.context.defense, *(f.defense for f in further)):
            if defense is not None and (best is None or defense.value > best.value):
                best = defense
    return pooled, total, best


def shared_strikes(
    condition: CombatCondition,
    request: ActionRequest,
    skill: Skill,
    targets: Sequence[str],
    readings: UmhReadings,
) -> dict[str, Struck]:
    """umh 8.1.1.3.2 / A-51: every impact's damage is summed; the best numeric defense any
    target brought meets the sum (with pierce / ignore, 9.2.2 - 9.2.3); what gets through
    is split equally (each share floored) and each share goes on through its target's own
    immunity, resistance and reductions. Evaders are struck on their own."""
    pooled, total, best = _pool(condition, request, skill, targets, readings)
    if not pooled:
        return {}
    value = Fraction(best.value if best else 0)
    through = pierced(total, value, Fraction(str(skill.ignore_defense_pct)), skill.pierces_defense)
    share = math.floor(through / len(pooled))
    prefix = {
        "step": "multi_impact",
        "rule": "umh 8.1.1.3.2",
        "before": json_number(total),
        "after": share,
        "defense": best.skill if best else None,
        "defense_value": json_number(value),
        "targets": len(pooled),
    }
    attacker = condition.participants[request.attacker]
    return {
        target_id: strike(
            skill,
            attacker,
            condition.participants[target_id],
            Reaction(),
            where_for(condition, request, target_id, request.attacker),
            readings,
            first_hit=False,
            damage=share,
            prefix=[prefix],
        )
        for target_id in pooled
    }


def follows(
    condition: CombatCondition, request: ActionRequest, skill: Skill, moved: Mapping[str, Position]
) -> bool:
    """umh 8.1.1.1.4: after an evasion takes a target out of reach, the combo goes on only
    if the executor can move close enough with the speed he has left this round (turns
    sends it; without it, his sheet's VEL as the combat reads it, A-22); squares in the
    combat's grid metric (A-61)."""
    here = request.positions.get(request.attacker)
    if here is None or here.square is None:
        return True
    readings = condition.readings
    left = request.movement_left.get(request.attacker)
    if left is None:
        sheet_vel = condition.participants[request.attacker].parsed_sheet().stats.vel
        left = below_one(sheet_vel, readings.stat_below_one)
    vel = left
    for target_id, position in moved.items():
        if target_id not in request.targets or position.square is None:
            continue
        gap = distance(here.square, position.square, readings.metric) - skill.reach
        if gap > vel:
            return False
    return True


def collide(
    condition: CombatCondition,
    request: ActionRequest,
    skill: Skill,
    target_id: str,
    out: Tally,
    readings: UmhReadings,
) -> None:
    """umh 11.6 / A-77: a push of ``skill.push`` squares; running into another player, the
    pushed one takes the collision's damage and 1 action of physical stun (100 %), the one
    he hits 50 % (25 % when companions or pets share his square, 11.6.1.2), crowd control
    never below 1; running into an obstacle or the room's edge, the pushed one alone takes
    it (11.6.1)."""
    here, origin = request.positions.get(target_id), request.positions.get(request.attacker)
    if here is None or here.square is None or origin is None or origin.square is None:
        return
    occupied: dict[Square, str] = {
        p.square: who
        for who, p in request.positions.items()
        if p.square is not None and who != target_id
    }
    pushed = push(
        here.square,
        origin.square,
        skill.push,
        occupied,
        obstacles=request.obstacles,
        room=request.room,
    )
    out.moved[target_id] = Position(square=pushed.end, height=here.height)
    if pushed.wall:  # umh 11.6.1: an obstacle or the room's edge takes no share
        _collision_hit(condition, request, skill, target_id, Fraction(1), out)
        return
    if pushed.hit is None:
        return
    companions = condition.participants[pushed.hit].parsed_sheet().companions
    for who, share in ((target_id, Fraction(1)), (pushed.hit, collision_shares(companions))):
        _collision_hit(condition, request, skill, who, share, out)


def _collision_hit(
    condition: CombatCondition,
    request: ActionRequest,
    skill: Skill,
    who: str,
    share: Fraction,
    out: Tally,
) -> None:
    """umh 11.6.1 - 11.6.2 / A-77: ``share`` of the collision's damage and its physical stun
    (crowd control never below 1, and under the one-CC rules of 11.5.16 - 11.5.18)."""
    current = out.changed.get(who) or condition.participants[who]
    if current.is_down:
        return
    damage = collision_share(skill.collision_damage, share, control=False)
    stun = collision_share(COLLISION_STUN, share, control=True)
    before = current.vit
    current = current.with_vit(before - damage)
    effect = make_effect(
        EffectKind.CONTROL,
        "aturdimiento",
        key=f"{request.action_id}:{who}:collision",
        actions=stun,
        source=request.attacker,
        skill=skill.name,
    )
    current, events, reason = add(
        current, effect, combat_id=condition.combat_id, who=who, action_id=request.action_id
    )
    out.events += events
    out.changed[who] = current
    step = {"step": "collision", "rule": "umh 11.6.1", "before": before, "after": current.vit}
    step.update(damage=damage, share=json_number(share * 100), stun=stun, refused=reason)
    _record(out, who, step, current, None if reason else view_of(effect).model_dump(mode="json"))


def _record(
    out: Tally, who: str, step: dict[str, Any], current: Combatant, effect: dict[str, Any] | None
) -> None:
    """Add a collision to ``who``'s result row (a new row if the hit did not target him)."""
    row = next((r for r in out.results if r["target"] == who), None)
    if row is None:
        row = {"target": who, "steps": [], "damage": 0, "vit_before": step["before"], "effects": []}
        out.results.append(row)
    row["steps"] = [*row["steps"], step]
    row["damage"] = row.get("damage", 0) + step["damage"]
    row["vit_after"] = current.vit
    if effect is not None:
        row["effects"] = [*row.get("effects", []), effect]
    if current.is_down and not row.get("down"):
        row["down"] = True
        out.downs.append((who, "collision"))


def grow(condition: CombatCondition, request: ActionRequest, skill: Skill, out: Tally) -> None:
    """umh 8.3.1: the user grows to occupy every square within ``skill.grows`` of his own;
    each other fighter standing there is displaced straight away from him until he is out
    of that area, or stops at the room's edge, an obstacle or another fighter (11.6.1). No
    collision is dealt: the seed names only the displacement."""
    here = request.positions.get(request.attacker)
    if not skill.grows or here is None or here.square is None:
        return
    metric = condition.readings.metric
    squares = {
        who: p.square
        for who, p in request.positions.items()
        if p.square is not None and who in condition.participants
    }
    for who in sorted(squares):
        start = squares[who]
        gap = distance(here.square, start, metric)
        if who == request.attacker or gap > skill.grows:
            continue
        occupied = {sq: other for other, sq in squares.items() if other != who}
        pushed = push(
            start,
            here.square,
            skill.grows - gap + 1,
            occupied,
            obstacles=request.obstacles,
            room=request.room,
        )
        squares[who] = pushed.end
        height = request.positions[who].height
        out.moved[who] = Position(square=pushed.end, height=height)
