"""Defensive variations that stop the action itself (umh 8.2.2, 8.2.3, 8.2.5) and the
counterattack's surplus (8.2.4.3).

Order: annulments and reflections first (they need no damage, 8.2.3, 8.2.5.1), then
anticipations (they must damage, 8.2.2.1). A cancelled hit never reaches its targets.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from services.resolution.domain.umh.condition import Combatant, CombatCondition
from services.resolution.domain.umh.context import counter_value
from services.resolution.domain.umh.hit import Reaction
from services.resolution.domain.umh.readings import UmhReadings
from services.resolution.domain.umh.secondary import Where
from services.resolution.domain.umh.strike import Struck, strike
from shared.rulesets.umh.sheet import DefenseKind, Skill

REFUND_SHARE = Fraction(1, 2)
"""umh 3.2 / A-18: a fully anticipated skill gives back 50 % of its PA, floored, minimum 1."""


def anticipation_refund(cost: int, *, reacted: bool, first_hit: bool) -> int:
    """umh 3.2, 3.2.1 / A-18, A-53: ``max(1, floor(cost × 0.5))``; 0 when the anticipated
    player reacted to the anticipation, or when a combo already landed an impact."""
    if reacted or not first_hit:
        return 0
    return max(1, math.floor(cost * REFUND_SHARE))


@dataclass
class Stopped:
    """What the variations did before the hit: cancelled or not, and their own hits."""

    cancelled: bool = False
    reason: str | None = None
    refunds: dict[str, int] = field(default_factory=dict)
    strikes: list[Struck] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)


def kind_of(target: Combatant, reaction: Reaction) -> tuple[DefenseKind | None, Skill | None]:
    if not reaction.reacted or reaction.skill is None:
        return None, None
    skill = target.parsed_sheet().skill(reaction.skill)
    if skill is None or skill.defense_kind is None:
        return None, None
    return skill.defense_kind, skill


def stop_action(
    condition: CombatCondition,
    skill: Skill,
    attacker_id: str,
    reactions: Mapping[str, Reaction],
    answers: Mapping[str, Reaction],
    where: Where,
    readings: UmhReadings,
) -> Stopped:
    """umh 8.2.2 - 8.2.3, 8.2.5: annulled, reflected or anticipated (with damage)?"""
    stopped = Stopped()
    attacker = condition.participants[attacker_id]
    for target_id, reaction in reactions.items():
        target = condition.participants.get(target_id)
        kind, defense = kind_of(target, reaction) if target else (None, None)
        if kind in (DefenseKind.ANNULMENT, DefenseKind.REFLECTION) and not stopped.cancelled:
            stopped.cancelled, stopped.reason = True, kind.value
            stopped.notes.append({"by": target_id, "kind": kind.value, "rule": "umh 8.2.3.4"})
            if kind is DefenseKind.REFLECTION and target is not None:
                sent = _Sent(target_id, reaction, reactions)
                _reflect(stopped, condition, skill, attacker, sent, where, readings)
    if stopped.cancelled:
        return stopped
    for target_id, reaction in reactions.items():
        target = condition.participants.get(target_id)
        kind, defense = kind_of(target, reaction) if target else (None, None)
        if kind is DefenseKind.ANTICIPATION and defense is not None and target is not None:
            _anticipate(
                stopped,
                attacker,
                attacker_id,
                target,
                target_id,
                defense,
                skill,
                answers.get(target_id, Reaction()),
                where,
                readings,
            )
    return stopped


@dataclass(frozen=True)
class _Sent:
    """A reflection: who reflected, his answer, and every answer of the hit (the new
    target's among them)."""

    reflector: str
    reaction: Reaction
    reactions: Mapping[str, Reaction]


def _reflect(
    stopped: Stopped,
    condition: CombatCondition,
    skill: Skill,
    attacker: Combatant,
    sent: _Sent,
    where: Where,
    readings: UmhReadings,
) -> None:
    """umh 8.2.5.2 / 8.1.1.3.1: the skill goes back to its executor or to an opponent in
    reach; the original stays annulled whether or not the return hit deals damage. The new
    target defends it like any hit aimed at him (services/turns gave him a window): his
    defense applies, and his annulment stops it."""
    reflector = sent.reflector
    to = sent.reaction.redirect_to or where.attacker
    target = condition.participants.get(to)
    if target is None:
        return
    answer = sent.reactions.get(to, Reaction()) if to != reflector else Reaction()
    kind, _ = kind_of(target, answer)
    if kind is DefenseKind.ANNULMENT:
        stopped.notes.append({"by": to, "kind": kind.value, "rule": "umh 8.2.5.2"})
        return
    struck = strike(
        skill,
        attacker,
        target,
        answer,
        _moved(where, to),
        readings,
        first_hit=where.hit == 1,
        prefix=[
            {
                "step": "reflected",
                "rule": "umh 8.2.5.2",
                "by": reflector,
                "before": skill.damage,
                "after": skill.damage,
            }
        ],
    )
    stopped.strikes.append(struck)


def _anticipate(
    stopped: Stopped,
    attacker: Combatant,
    attacker_id: str,
    anticipator: Combatant,
    anticipator_id: str,
    defense: Skill,
    skill: Skill,
    answer: Reaction,
    where: Where,
    readings: UmhReadings,
) -> None:
    """umh 8.2.2.1, 8.2.2.4 / A-53: the anticipation strikes the attacker first; it stops
    his action only if it damages him, or whenever he reacted to it."""
    struck = strike(
        defense,
        anticipator,
        attacker,
        answer,
        _moved(where, attacker_id, by=anticipator_id),
        readings,
        prefix=[
            {
                "step": "anticipation",
                "rule": "umh 8.2.2",
                "by": anticipator_id,
                "before": defense.damage,
                "after": defense.damage,
            }
        ],
    )
    stopped.strikes.append(struck)
    reacted = answer.reacted
    if struck.result["damage"] > 0 or reacted:
        if not stopped.cancelled:
            stopped.cancelled, stopped.reason = True, "anticipation"
            refund = anticipation_refund(skill.pa, reacted=reacted, first_hit=where.hit == 1)
            stopped.refunds[attacker_id] = refund
        stopped.notes.append({"by": anticipator_id, "kind": "anticipation", "rule": "umh 8.2.2.1"})
    else:
        stopped.notes.append(
            {"by": anticipator_id, "kind": "anticipation", "rule": "umh 8.2.2.1", "failed": True}
        )


def counter_surplus(
    defense: Skill,
    met: Fraction | None,
    defender: Combatant,
    attacker: Combatant,
    where: Where,
    readings: UmhReadings,
    *,
    answer: Reaction | None = None,
) -> Struck | None:
    """umh 8.2.4.3 / A-52: the counter's value above the attack's becomes direct damage to
    the attacker, through his passive resistance and reductions; he cannot react to a melee
    counter (8.2.4.4); to another he answered in his window (``answer``: his defense)."""
    if met is None:
        return None
    surplus = math.floor(Fraction(counter_value(defense)) - met)
    if surplus <= 0:
        return None
    return strike(
        defense,
        defender,
        attacker,
        Reaction() if defense.melee or answer is None else answer,
        where,
        readings,
        first_hit=False,
        damage=surplus,
        prefix=[
            {
                "step": "counter",
                "rule": "umh 8.2.4.3",
                "before": json_int(met),
                "after": surplus,
                "counter": counter_value(defense),
            }
        ],
    )


def json_int(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def _moved(where: Where, target: str, *, by: str | None = None) -> Where:
    """The same hit aimed at ``target`` (``where`` is the attacker's: his height is known)."""
    height = where.height if target == where.target else "suelo"
    return Where(where.combat_id, where.action_id, where.hit, by or where.attacker, target, height)
