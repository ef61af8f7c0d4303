"""One skill striking one combatant: plan, pipeline, VIT, ledger, secondary effects.

Used for the targets of an action, for a counterattack's surplus (umh 8.2.4.3), for an
anticipation's damage (8.2.2.1) and for a reflected hit (8.2.5.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from services.resolution.domain.umh.condition import Combatant
from services.resolution.domain.umh.context import HitPlan, hit_context
from services.resolution.domain.umh.effects import cancel_maintained
from services.resolution.domain.umh.hit import Reaction
from services.resolution.domain.umh.nature_rules import hellfire_split
from services.resolution.domain.umh.pipeline import Breakdown, compute_damage, vitality_step
from services.resolution.domain.umh.readings import UmhReadings
from services.resolution.domain.umh.released import lasting_skills
from services.resolution.domain.umh.secondary import Landing, Where, land
from shared.messages import Event
from shared.rulesets.umh.sheet import Nature, Skill


@dataclass
class Struck:
    """The result row (HitResult fields) and the target's new condition."""

    result: dict[str, Any]
    combatant: Combatant
    events: list[Event] = field(default_factory=list)
    plan: HitPlan | None = None
    breakdown: Breakdown | None = None
    landing: Landing | None = None

    @property
    def down(self) -> bool:
        return bool(self.result["down"])


def _book(combatant: Combatant, skill: Skill, breakdown: Breakdown) -> Combatant:
    """umh 7.1.1 Mental / Daño al alma / Fuego infernal: damage whose regeneration is limited."""
    natures = set(skill.natures)
    soul = 0
    if Nature.ALMA in natures:
        soul = breakdown.damage
    elif Nature.FUEGO_INFERNAL in natures:
        soul, _ = hellfire_split(breakdown.damage)
    return combatant.booked(mental=breakdown.mental, soul=soul)


def strike(
    skill: Skill,
    attacker: Combatant,
    target: Combatant,
    reaction: Reaction,
    where: Where,
    readings: UmhReadings,
    *,
    first_hit: bool = True,
    damage: int | None = None,
    prefix: Sequence[dict[str, Any]] = (),
) -> Struck:
    """umh 9.1.1, 4.1.1.2 and the secondary effects: ``skill`` on ``target``.

    A target already at 0 VIT takes nothing more: he is listed with no steps and 0 damage.
    ``down`` is true only when this hit brought him to 0.
    """
    result: dict[str, Any] = {"target": where.target, "reaction": reaction.to_dict()}
    if target.is_down:
        result.update(steps=[], damage=0, vit_before=target.vit, vit_after=target.vit)
        result.update(down=False, already_down=True, effects=[])
        return Struck(result, target)
    plan = hit_context(
        skill, attacker, target, reaction, readings, first_hit=first_hit, damage=damage
    )
    if where.terrain_defense:  # umh 8.2.1.4: an external defense kept on the terrain
        plan = replace(plan, context=replace(plan.context, terrain_defense=where.terrain_defense))
    breakdown = compute_damage(plan.context)
    vitality = vitality_step(target.vit, breakdown.damage)
    hurt = _book(target.with_vit(int(vitality.after)), skill, breakdown)
    landing = land(skill, plan, breakdown, hurt, where, readings)
    steps = [*prefix, *breakdown.steps_as_dicts(), vitality.to_dict(), *landing.steps]
    if landing.effects or landing.refused:
        steps.append(
            {
                "step": "effects",
                "rule": "umh 8.1.1.1",
                "applied": landing.effects,
                "refused": landing.refused,
            }
        )
    after = landing.combatant
    if after.is_down:
        lasting = lasting_skills(after)  # umh 4.1.5.2
        after, fallen = cancel_maintained(
            after, where.target, where.combat_id, "fallen", lasting=lasting
        )
        landing.events += fallen
    result.update(steps=steps, damage=breakdown.damage + sum(s["damage"] for s in landing.steps))
    result.update(vit_before=target.vit, vit_after=after.vit, down=after.is_down)
    result.update(already_down=False, effects=landing.effects)
    return Struck(result, after, landing.events, plan, breakdown, landing)
