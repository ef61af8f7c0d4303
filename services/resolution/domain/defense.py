"""Which defense a target's reaction brings to the pipeline (umh 9.2.1, 9.2.4-9.2.5)."""

from __future__ import annotations

from typing import Final

from services.resolution.domain.hit import Defense, Reaction
from shared.sheets.umh import DefenseKind, SkillType, UmhSheet

NUMERIC_DEFENSE_KINDS: Final = frozenset({DefenseKind.INTERNAL, DefenseKind.EXTERNAL})
"""Defense kinds whose numeric defense this slice subtracts (defensa interna / externa).

Evasion, anticipation, annulment, counter and reflection (umh 8.2) come in later issues.
"""


def chosen_defense(reaction: Reaction, target: UmhSheet) -> tuple[Defense | None, str | None]:
    """umh 9.2.1: the numeric defense of the defensive skill the target answered with.

    In this order: a timed-out window applies none (umh 2.4.2); RESISTIR applies none here
    (its natures come later, umh 7.1.x); no skill named applies none; a skill the target
    lacks, a non-defensive skill, or a kind other than internal / external applies none.
    Returns the defense, or ``None`` and the reason.
    """
    if reaction.timed_out:
        return None, "timed_out"
    if reaction.resist:
        return None, "resisted"
    if reaction.skill is None:
        return None, "no_reaction"
    skill = target.skill(reaction.skill)
    if skill is None:
        return None, "unknown_skill"
    if skill.type is not SkillType.DEFENSIVE or skill.defense_kind is None:
        return None, "not_a_defense"
    if skill.defense_kind not in NUMERIC_DEFENSE_KINDS:
        return None, "kind_not_refereed"
    return Defense(skill=skill.name, kind=skill.defense_kind.value, value=skill.defense), None
