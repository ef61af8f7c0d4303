"""Resolving one action: every target's breakdown, the new condition, the events.

``resolution.requested`` arrives once every reaction is in (turns owns the windows). For an
offensive skill each target gets the umh 9.1.1 pipeline; supplementary and defensive skills
change nothing in this slice. One ``action.resolved`` is emitted, then one
``combatant.down`` per target this action brought to 0 VIT (umh 4.1.1.2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from services.resolution.domain.condition import Combatant, CombatCondition
from services.resolution.domain.defense import chosen_defense
from services.resolution.domain.hit import HitContext, Reaction, Step
from services.resolution.domain.pipeline import UMH_DAMAGE_STEPS, compute_damage, vitality_step
from shared.messages import ACTION_RESOLVED, COMBATANT_DOWN, Event
from shared.sheets.umh import Skill, SkillType, UmhSheet


@dataclass(frozen=True)
class ActionRequest:
    """The domain form of ``resolution.requested``."""

    action_id: str
    attacker: str
    skill: str
    targets: tuple[str, ...]
    reactions: Mapping[str, Reaction] = field(default_factory=dict)
    round: int = 0


def hit_context(skill: Skill, target: UmhSheet, reaction: Reaction) -> HitContext:
    """umh 9.1.1: what the pipeline needs from the skill, the target's sheet and reaction.

    A skill's stated damage is direct damage (indirect damage comes with effects, umh 11.2).
    """
    defense, note = chosen_defense(reaction, target)
    return HitContext(
        skill=skill.name,
        damage=skill.damage,
        natures=tuple(nature.value for nature in skill.natures),
        direct=True,
        defense=defense,
        defense_note=note,
        resistance=target.resistance.value,
        hardness=target.resistance.hardness.value if target.resistance.hardness else None,
        reductions={str(key): value for key, value in target.reductions.items()},
    )


def hit_target(
    skill: Skill,
    target_id: str,
    target: Combatant,
    reaction: Reaction,
    steps: Sequence[Step] = UMH_DAMAGE_STEPS,
) -> tuple[dict[str, Any], Combatant]:
    """umh 9.1.1, 4.1.1.2: one target's result and his new condition.

    A target already at 0 VIT takes nothing more: he is listed with no steps and 0 damage.
    ``down`` is true only when this hit brought him to 0.
    """
    result: dict[str, Any] = {"target": target_id, "reaction": reaction.to_dict()}
    if target.is_down:
        result.update(steps=[], damage=0, vit_before=target.vit, vit_after=target.vit)
        result.update(down=False, already_down=True)
        return result, target
    breakdown = compute_damage(hit_context(skill, target.parsed_sheet(), reaction), steps)
    vitality = vitality_step(target.vit, breakdown.damage)
    hurt = target.with_vit(int(vitality.after))
    result.update(steps=[*breakdown.steps_as_dicts(), vitality.to_dict()])
    result.update(damage=breakdown.damage, vit_before=target.vit, vit_after=hurt.vit)
    result.update(down=hurt.is_down, already_down=False)
    return result, hurt


@dataclass
class _Outcome:
    results: list[dict[str, Any]] = field(default_factory=list)
    changed: dict[str, Combatant] = field(default_factory=dict)
    ignored: list[str] = field(default_factory=list)

    @property
    def downs(self) -> list[str]:
        return [result["target"] for result in self.results if result["down"]]


def hit_targets(
    condition: CombatCondition, request: ActionRequest, skill: Skill, steps: Sequence[Step]
) -> _Outcome:
    """umh 9.1.1: every target in the order declared; one named twice is hit once.

    A target who is not in the combat is only listed as ignored.
    """
    outcome = _Outcome()
    for target_id in dict.fromkeys(request.targets):
        target = condition.participants.get(target_id)
        if target is None:
            outcome.ignored.append(target_id)
            continue
        reaction = request.reactions.get(target_id, Reaction())
        result, outcome.changed[target_id] = hit_target(skill, target_id, target, reaction, steps)
        outcome.results.append(result)
    return outcome


def resolve_action(
    condition: CombatCondition,
    request: ActionRequest,
    steps: Sequence[Step] = UMH_DAMAGE_STEPS,
) -> tuple[CombatCondition, list[Event]]:
    """umh 9.1.1, 4.1.1.2: apply one action and report it.

    Offensive skills hit every target; supplementary and defensive ones have no results in
    this slice. An attacker or skill that cannot be found resolves to no results with an
    ``error`` (turns validated both, so this only guards a broken contract).
    """
    attacker = condition.participants.get(request.attacker)
    skill = attacker.parsed_sheet().skill(request.skill) if attacker else None
    payload: dict[str, Any] = {
        "action_id": request.action_id,
        "attacker": request.attacker,
        "skill": skill.name if skill else request.skill,
        "round": request.round,
    }
    if skill is None:
        code = "unknown_character" if attacker is None else "unknown_skill"
        payload.update(results=[], downs=[], error={"code": code, "rule": None})
        return condition.after_action(request.action_id, {}), [Event(ACTION_RESOLVED, payload)]
    offensive = skill.type is SkillType.OFFENSIVE
    outcome = hit_targets(condition, request, skill, steps) if offensive else _Outcome()
    payload.update(results=outcome.results, downs=outcome.downs)
    if outcome.ignored:
        payload["ignored_targets"] = outcome.ignored
    events = [Event(ACTION_RESOLVED, payload), *down_events(request, outcome.downs)]
    return condition.after_action(request.action_id, outcome.changed), events


def down_events(request: ActionRequest, downs: Sequence[str]) -> list[Event]:
    """umh 4.1.1.2: one ``combatant.down`` for each combatant this action brought to 0 VIT."""
    return [
        Event(
            COMBATANT_DOWN,
            {"character": down, "action_id": request.action_id, "by": request.attacker},
        )
        for down in downs
    ]
