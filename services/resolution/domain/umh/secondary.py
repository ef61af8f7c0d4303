"""What a hit leaves besides its damage (umh 7.1.1.4 - 7.1.1.6, 8.1.1.1, 9.7, 10.2.6, 11).

Order for one target, once the damage is known: degradable pools worn (shield 9.7.3,
coatings 9.2.6), states that the hit ends (sleep 11.4.1.2, petrification and freezing
11.4.12 - 11.4.13), the skill's secondary effects if they land (A-95, 9.7.4 - 9.7.6,
8.1.1.3.1.1), the nature side effects of an internal defense (7.1.1.4 - 7.1.1.6), the
RESISTIR immunity (11.5.17), then a knockdown from a height (10.2.6, 11.5.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from services.resolution.domain.umh.condition import Combatant
from services.resolution.domain.umh.context import HitPlan
from services.resolution.domain.umh.effect import Effect
from services.resolution.domain.umh.effects import (
    STUNNING,
    add,
    break_states,
    cancel_maintained,
    make_effect,
    remove,
    view_of,
)
from services.resolution.domain.umh.nature_rules import burn_amount, reduced_effect
from services.resolution.domain.umh.pipeline import Breakdown
from services.resolution.domain.umh.positions import fall_damage, knocked_down_by_control
from services.resolution.domain.umh.readings import UmhReadings
from shared.messages import Event
from shared.rulesets.umh.natures import is_intrusion
from shared.rulesets.umh.sheet import Nature, Skill, SkillType
from shared.vocabulary import EffectKind

DISORIENTED_ACTIONS = 3
"""umh 11.5.9 / A-27: a disorientation with no stated duration lasts 3 actions."""


@dataclass
class Landing:
    """One target after the secondary effects: condition, events, what landed or not."""

    combatant: Combatant
    events: list[Event] = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=list)
    refused: list[dict[str, Any]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    fell_to_ground: bool = False


@dataclass(frozen=True)
class Where:
    """Who hits whom, in which action, from where (for ids and events)."""

    combat_id: str
    action_id: str
    hit: int
    attacker: str
    target: str
    height: str = "suelo"
    terrain_defense: int = 0  # umh 8.2.1.4: the external defense kept under the target


def _wear(landing: Landing, kind: EffectKind, absorbed: Fraction, where: Where) -> None:
    """umh 9.7.3 / 9.2.6: a shield or coating loses what it absorbed; at 0 it breaks."""
    left = absorbed
    for effect in landing.combatant.effects_of(kind):
        if left <= 0:
            return
        amount = effect.amount_int
        taken = min(Fraction(amount), left)
        left -= taken
        if amount - taken <= 0:
            landing.combatant, event = remove(
                landing.combatant, effect, "broken", where.combat_id, where.target
            )
            landing.events.append(event)
        else:
            worn = replace(effect, amount=int(amount - taken))
            effects = tuple(worn if e is effect else e for e in landing.combatant.effects)
            landing.combatant = replace(landing.combatant, effects=effects)


def secondary_effects_land(
    skill: Skill, plan: HitPlan, breakdown: Breakdown, shield_before: int, readings: UmhReadings
) -> tuple[bool, str | None]:
    """umh 8.1.1.1 / A-95, 8.1.1.3.1.1, 9.5, 9.7.4 - 9.7.6: do the skill's effects land?"""
    if plan.evaded or plan.effects_factor == 0:
        return False, "evaded" if plan.evaded else "immune"
    if plan.resisted:
        return False, "resisted"
    intrusion = is_intrusion(skill) or (readings.intrusion_literal and bool(skill.effects))
    if shield_before > 0 and intrusion:
        if skill.damage == 0:
            return False, "mental_shield"
        destroyed = breakdown.after("shield") is not None and _absorbed(breakdown) >= shield_before
        if not destroyed:
            return False, "mental_shield"
    if skill.damage > 0:
        return (breakdown.damage > 0, None if breakdown.damage > 0 else "no_damage")
    if plan.kind in ("external", "internal"):
        return False, "defended"
    return True, None


def _absorbed(breakdown: Breakdown) -> int:
    record = next((s for s in breakdown.steps if s.step == "shield"), None)
    return 0 if record is None else int(record.before - record.after)


def _scaled(value: int, plan: HitPlan) -> int:
    if plan.effects_factor == 1:
        return value
    return reduced_effect(value, plan.effects_factor, round_up=plan.round_up)


def _skill_effects(skill: Skill, plan: HitPlan, damage: int, where: Where) -> list[Effect]:
    """The skill's own effects, scaled (8.2.1.4 / A-87, 9.5 / A-37, 11.5.6, 7.1.3.1)."""
    found: list[Effect] = []
    key = f"{where.action_id}:{where.hit}:{where.target}"
    for spec in skill.effects:
        common: dict[str, Any] = {"key": key, "source": where.attacker, "skill": skill.name}
        if spec.kind == "indirect":
            if spec.percent is not None:
                amount = int(Fraction(damage) * Fraction(str(spec.percent)) / 100)
            else:
                amount = _scaled(spec.amount or 0, plan)
            ticks = _scaled(spec.actions, plan)
            found.append(
                make_effect(
                    EffectKind.INDIRECT, spec.type.value, amount=amount, actions=ticks, **common
                )
            )
        elif spec.kind in ("control", "state"):
            stated: int | None = spec.actions
            if stated is None and spec.type.value == "desorientacion":
                stated = DISORIENTED_ACTIONS
            duration = None if stated is None else _scaled(stated, plan)
            limb = getattr(spec, "limb", None)
            found.append(
                make_effect(
                    EffectKind(spec.kind), spec.type.value, actions=duration, limb=limb, **common
                )
            )
        # boosters, reductions and regenerations are a supplementary skill's (resolve.py)
    return found


def _nature_side_effects(
    skill: Skill,
    plan: HitPlan,
    breakdown: Breakdown,
    target: Combatant,
    where: Where,
    readings: UmhReadings,
) -> list[Effect]:
    """umh 7.1.1.4 - 7.1.1.6 / A-28: water wets, fire burns 10 % of the pre-block damage
    for 3 actions unless fireproof, electricity paralyses 1 action unless insulated, when
    an internal defense met the skill."""
    if plan.kind != "internal" or plan.effects_factor == 0:
        return []
    traits = set(target.parsed_sheet().traits)
    key = f"{where.action_id}:{where.hit}:{where.target}:nature"
    common: dict[str, Any] = {"key": key, "source": where.attacker, "skill": skill.name}
    natures = set(skill.natures)
    found: list[Effect] = []
    if Nature.AGUA in natures:
        found.append(
            make_effect(EffectKind.STATE, "mojado", actions=readings.wet_actions, **common)
        )
    if natures & {Nature.FUEGO, Nature.FUEGO_INFERNAL} and "fireproof" not in traits:
        pre_block = breakdown.amount_before("defense") or Fraction(0)
        amount, actions = burn_amount(pre_block, readings)
        if amount > 0:
            found.append(
                make_effect(
                    EffectKind.INDIRECT, "quemadura", amount=amount, actions=actions, **common
                )
            )
    if Nature.ELECTRICA in natures and "insulated" not in traits:
        found.append(make_effect(EffectKind.CONTROL, "paralisis", actions=1, **common))
    return found


def land(
    skill: Skill,
    plan: HitPlan,
    breakdown: Breakdown,
    target: Combatant,
    where: Where,
    readings: UmhReadings,
) -> Landing:
    """Everything a hit leaves on one target after its damage (order in the module doc)."""
    shield_before = sum(e.amount_int for e in target.effects_of(EffectKind.SHIELD))
    landing = Landing(target)
    for kind, step in ((EffectKind.SHIELD, "shield"), (EffectKind.COATING, "coating")):
        record = next((s for s in breakdown.steps if s.step == step), None)
        if record is not None:
            _wear(landing, kind, record.before - record.after, where)
    if not plan.evaded and plan.breaks:
        landing.combatant, events = break_states(
            landing.combatant, plan.breaks, where.combat_id, where.target
        )
        landing.events += events
    lands, why = secondary_effects_land(skill, plan, breakdown, shield_before, readings)
    new = _skill_effects(skill, plan, breakdown.damage, where) if lands else []
    if why is not None and skill.effects:
        landing.refused.append({"effects": "skill", "reason": why})
    new += _nature_side_effects(skill, plan, breakdown, target, where, readings)
    offensive = skill.type is SkillType.OFFENSIVE
    if (
        offensive
        and (breakdown.damage > 0 or new)
        and landing.combatant.has(EffectKind.CONTROL, "dormido")
    ):
        landing.combatant, events = break_states(
            landing.combatant, ("dormido",), where.combat_id, where.target
        )
        landing.events += events
    resist_key = f"{where.attacker}:{skill.name}"
    for effect in new:
        _put(landing, effect, where, resist_key, target)
    controls = any(e.kind == "control" for e in skill.effects)
    if plan.resisted and controls and set(skill.natures) & {Nature.MISTICA, Nature.MENTAL}:
        immune = (*landing.combatant.resist_immune, resist_key)
        landing.combatant = replace(landing.combatant, resist_immune=immune)
    return landing


def _put(
    landing: Landing, effect: Effect, where: Where, resist_key: str, target: Combatant
) -> None:
    landing.combatant, events, reason = add(
        landing.combatant,
        effect,
        combat_id=where.combat_id,
        who=where.target,
        action_id=where.action_id,
        resist_key=resist_key,
    )
    landing.events += events
    if reason is not None:
        refused = {"type": effect.type, "kind": str(effect.kind), "reason": reason}
        landing.refused.append(refused)
        return
    landing.effects.append(view_of(effect).model_dump(mode="json"))
    if effect.kind == EffectKind.CONTROL:
        if effect.type in STUNNING:
            landing.combatant, events = cancel_maintained(
                landing.combatant, where.target, where.combat_id, "broken"
            )
            landing.events += events
        _knockdown(landing, where, target)


def _knockdown(landing: Landing, where: Where, target: Combatant) -> None:
    """umh 10.2.6, 11.5.2, 11.5.3 / A-9, A-41: crowd control in the air knocks him down."""
    traits = set(target.parsed_sheet().traits)
    if not knocked_down_by_control(where.height, mystic_suspension="mystic_suspension" in traits):
        return
    effect = make_effect(
        EffectKind.STATE,
        "derribo",
        key=f"{where.action_id}:{where.hit}:{where.target}:fall",
        source=where.attacker,
        skill=None,
    )
    landing.combatant, events, reason = add(
        landing.combatant,
        effect,
        combat_id=where.combat_id,
        who=where.target,
        action_id=where.action_id,
    )
    if reason is not None:
        return
    landing.events += events
    landing.effects.append(view_of(effect).model_dump(mode="json"))
    fall = fall_damage(
        where.height, landing.combatant.vit_max, superhuman="superhuman_resistance" in traits
    )
    before = landing.combatant.vit
    landing.combatant = landing.combatant.with_vit(before - fall)
    rule = "umh 11.5.3.1" if where.height == "voladora" else "umh 11.5.3.2"
    landing.steps.append(
        {
            "step": "fall",
            "rule": rule,
            "before": before,
            "after": landing.combatant.vit,
            "damage": fall,
            "from": where.height,
        }
    )
    landing.fell_to_ground = True
