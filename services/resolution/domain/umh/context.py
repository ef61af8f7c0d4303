"""From the sheets, the condition and the reaction to one :class:`HitContext` (umh 7 - 11).

Decides, for one hit on one target: the boosters (first hit only, 8.1.1.1.3), the attack
modifiers (blind attacker, wet target, broken petrification or freezing), the immunity cut,
the mental share, what the reaction brings (RESISTIR, evasion, a numeric defense or a
counter) and which resistances and reductions stand. :class:`HitPlan` keeps what the
secondary effects need afterwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from services.resolution.domain.umh.boosters import (
    Booster,
    boost_percent,
    boosters_of,
    pick_boosters,
)
from services.resolution.domain.umh.condition import Combatant
from services.resolution.domain.umh.exact import exact
from services.resolution.domain.umh.hit import Defense, Further, HitContext, Modifier, Reaction
from services.resolution.domain.umh.nature_rules import (
    BLIND_ATTACKER,
    FROZEN_BREAK,
    PETRIFIED_BREAK,
    immunity_cut,
    mental_share,
    wet_modifier,
)
from services.resolution.domain.umh.readings import UmhReadings
from shared.rulesets.umh.current import current_stats
from shared.rulesets.umh.natures import RESISTIBLE, SONIC_EVASION_REF, ref_required
from shared.rulesets.umh.sheet import DefenseKind, Hardness, Nature, Skill, SkillType, UmhSheet
from shared.vocabulary import EffectKind

PASSIVE_BYPASSED_BY_BREAK = frozenset({"fisica", "elemental", "energetica"})
"""umh 11.4.12 - 11.4.13 / A-42: reductions the breaking physical attack ignores."""

RESIST_DAMAGE = frozenset({Nature.MENTAL, Nature.PSIONICA, Nature.CRONOQUINETICA})
"""RESISTIR takes damage to 0 for mental skills (7.1.1 Mental), the mental share of psionic
ones (7.1.2.3) and chronokinetic ones (7.1.1 Cronoquinética); against a mystic skill it
only annuls the crowd control (11.5.17)."""


@dataclass(frozen=True)
class HitPlan:
    """What the pipeline was told and what the effects need afterwards."""

    context: HitContext
    kind: str | None = None  # the defense kind that answered, if any
    effects_factor: Fraction = Fraction(1)
    round_up: bool = False
    evaded: bool = False
    resisted: bool = False
    breaks: tuple[str, ...] = ()
    defense_skill: Skill | None = None
    notes: tuple[str, ...] = field(default=())
    further_kinds: tuple[str | None, ...] = ()  # umh 8.1.1.3: the kinds of the later answers


def counter_value(defense: Skill) -> int:
    """umh 8.2.4.2 - 8.2.4.3 / A-52: a counterattack's one value (its defense, else damage)."""
    return defense.defense or defense.damage


def _modifiers(
    skill: Skill, attacker: Combatant, target: Combatant, attacker_sheet: UmhSheet
) -> tuple[list[Modifier], tuple[str, ...]]:
    natures = [n.value for n in skill.natures]
    found: list[Modifier] = []
    targeted = skill.area is None
    if (
        attacker.has(EffectKind.STATE, "ceguera")
        and targeted
        and "detection" not in attacker_sheet.traits
    ):
        found.append(BLIND_ATTACKER)
    if target.has(EffectKind.STATE, "mojado"):
        wet = wet_modifier(natures)
        if wet is not None:
            found.append(wet)
    breaks: tuple[str, ...] = ()
    if Nature.FISICA in skill.natures:
        if target.has(EffectKind.CONTROL, "petrificacion"):
            found.append(PETRIFIED_BREAK)
            breaks = ("petrificacion",)
        elif target.has(EffectKind.CONTROL, "congelacion"):
            found.append(FROZEN_BREAK)
            breaks = ("congelacion",)
    return found, breaks


def _ignores_passive(skill: Skill, hardness: Hardness | None) -> bool:
    """umh 9.3.4 - 9.3.5 / A-84: the skill names a hardness at least as high."""
    if skill.ignores_hardness is None:
        return False
    return hardness is None or skill.ignores_hardness.rank >= hardness.rank


def _temporary_reductions(target: Combatant) -> dict[str, Fraction]:
    table: dict[str, Fraction] = {}
    for effect in target.effects_of(EffectKind.REDUCTION):
        table[effect.type] = table.get(effect.type, Fraction(0)) + exact(effect.amount or 0)
    return table


def _amount_of(target: Combatant, kind: EffectKind) -> int:
    return sum(e.amount_int for e in target.effects_of(kind))


@dataclass
class _Answer:
    defense: Defense | None = None
    note: str | None = "no_reaction"
    evasion: str | None = None
    resisted: bool = False
    effects_resisted: bool = False
    kind: str | None = None
    skill: Skill | None = None
    factor: Fraction = Fraction(1)
    round_up: bool = False


def outwills_enamouring(skill: Skill, target_vol: float, attacker_vol: float) -> bool:
    """umh 11.5.10 / A-44: an enamouring skill is annulled by RESISTIR when the target's
    VOL now (increases, fear: 2.8, 11.5.11) is strictly above the enamourer's."""
    enamours = any(e.kind == "state" and e.type.value == "enamoramiento" for e in skill.effects)
    return enamours and target_vol > attacker_vol


def _answer(
    skill: Skill,
    reaction: Reaction,
    target_sheet: UmhSheet,
    now: tuple[Mapping[str, float], Mapping[str, float]],
) -> _Answer:
    """umh 8.2, 9.2, 7.1: what the reaction brings to this hit; ``now``: the target's and
    the attacker's STATs as the combat reads them (``shared.rulesets.umh.current``)."""
    target_now, attacker_now = now
    answer = _Answer()
    if reaction.timed_out:
        answer.note = "timed_out"
        return answer
    if reaction.resist:
        natures = frozenset(skill.natures)
        outwilled = outwills_enamouring(skill, target_now["vol"], attacker_now["vol"])
        answer.resisted = bool(natures & RESIST_DAMAGE)
        answer.effects_resisted = bool(natures & RESISTIBLE) or outwilled
        answer.note = "resisted" if answer.effects_resisted else "resist_ignored"
        return answer
    if reaction.skill is None:
        return answer
    defense = reaction.lent or target_sheet.skill(reaction.skill)
    if defense is None:
        answer.note = "unknown_skill"
        return answer
    if defense.type is not SkillType.DEFENSIVE or defense.defense_kind is None:
        answer.note = "not_a_defense"
        return answer
    kind = defense.defense_kind
    answer.kind, answer.skill = kind.value, defense
    if kind is DefenseKind.EVASION:
        _evasion(skill, target_now["ref"], answer)
    elif kind in (DefenseKind.INTERNAL, DefenseKind.EXTERNAL):
        answer.defense = Defense(defense.name, kind.value, defense.defense, defense.all_angles)
        answer.note = None
    elif kind is DefenseKind.COUNTER:
        answer.defense = Defense(defense.name, kind.value, counter_value(defense), True)
        answer.note = None
    else:
        answer.note = f"{kind.value}_without_effect"
    return answer


def _evasion(skill: Skill, ref: float, answer: _Answer) -> None:
    """umh 8.2.1, 8.2.1.4 / A-98, 7.1.3.1 / A-29 - A-30: a met evasion avoids all; an unmet
    one lets 50 % in as integral damage with halved effects; a sonic one without 3 REF
    lets the rounded-up half in even when it succeeds. ``ref`` is the evader's REF as the
    combat reads it (A-22)."""
    met = ref >= ref_required(skill, DefenseKind.EVASION)
    sonic = Nature.SONORA in skill.natures
    answer.note = None
    if sonic and (ref < SONIC_EVASION_REF or not met):
        answer.evasion, answer.factor, answer.round_up = "half_up", Fraction(1, 2), True
    elif met:
        answer.evasion, answer.factor = "full", Fraction(0)
    else:
        answer.evasion, answer.factor = "half_down", Fraction(1, 2)


def _picked_boosters(skill: Skill, attacker: Combatant, sheet: UmhSheet) -> tuple[Booster, ...]:
    """umh 7.3 / A-31, A-32: the sheet's passive boosters and the attacker's booster effects."""
    temporary = [(e.type, float(e.amount or 0)) for e in attacker.effects_of(EffectKind.BOOSTER)]
    passive = {n.value: values for n, values in sheet.boosters.items()}
    return pick_boosters([n.value for n in skill.natures], boosters_of(passive, temporary))


def _effects_factor(
    cut: Fraction, answers: list[_Answer], modifiers: list[Modifier], sonic: bool
) -> tuple[Fraction, bool]:
    """The share of the skill's effects that lands and whether it rounds up: immunity (9.5,
    A-37), evasion (8.2.1.4), blind attacker (11.5.6), sonic past a defense (7.1.3.1, A-29);
    ``answers``: the reaction's, then its further defenses (8.1.1.3), each one's share."""
    factor = 1 - cut
    for answer in answers:
        factor *= answer.factor
    if BLIND_ATTACKER in modifiers:
        factor *= Fraction(1, 2)
    unshielded = sonic and any(a.defense is not None and not a.defense.all_angles for a in answers)
    if unshielded:
        factor *= Fraction(1, 2)
    return factor, any(a.round_up for a in answers) or unshielded


def _further(skill: Skill, answers: list[_Answer]) -> tuple[Further, ...]:
    """umh 8.1.1.3: the later answers as the pipeline's ``further`` step takes them."""
    psionic = Nature.PSIONICA in skill.natures
    return tuple(
        Further(
            skill=a.skill.name if a.skill else None,
            evasion=a.evasion,
            defense=a.defense,
            note=a.note,
            spares_mental=psionic and a.kind == "internal",
        )
        for a in answers
    )


def _target_side(skill: Skill, target: Combatant, sheet: UmhSheet, broken: bool) -> dict[str, Any]:
    """umh 9.2.6, 9.3, 9.4, 9.7: what the target's sheet and condition oppose to the hit."""
    hardness = sheet.resistance.hardness
    hellfire = Nature.FUEGO_INFERNAL in skill.natures
    return {
        "coating": _amount_of(target, EffectKind.COATING),
        "resistance": sheet.resistance.value,
        "hardness": hardness.value if hardness else None,
        "ignores_passive": _ignores_passive(skill, hardness),
        "bypass_passive": broken,
        "shield": _amount_of(target, EffectKind.SHIELD),
        "reductions": _reductions(sheet.reductions),
        "temporary_reductions": _temporary_reductions(target),
        "excluded_reductions": PASSIVE_BYPASSED_BY_BREAK if broken else frozenset(),
        "only_reductions": frozenset({"fuego_infernal"}) if hellfire else None,
    }


def hit_context(
    skill: Skill,
    attacker: Combatant,
    target: Combatant,
    reaction: Reaction,
    readings: UmhReadings,
    *,
    first_hit: bool = True,
    damage: int | None = None,
) -> HitPlan:
    """umh 9.1.1 and everything before it: the plan of one hit on one target.

    ``damage`` overrides the skill's stated damage (a reflected hit, a counter's surplus,
    a share of a multi-impact); boosters apply only to the first hit of a combo (8.1.1.1.3).
    """
    a_sheet, t_sheet = attacker.parsed_sheet(), target.parsed_sheet()
    natures = tuple(n.value for n in skill.natures)
    picked = _picked_boosters(skill, attacker, a_sheet) if first_hit else ()
    modifiers, breaks = _modifiers(skill, attacker, target, a_sheet)
    reading = readings.stat_below_one
    now = (
        current_stats(t_sheet, target.effects, reading),
        current_stats(a_sheet, attacker.effects, reading),
    )
    answer = _answer(skill, reaction, t_sheet, now)
    later = [_answer(skill, again, t_sheet, now) for again in reaction.more]
    cut = immunity_cut(natures, [n.value for n in t_sheet.immunities], readings)
    sonic = Nature.SONORA in skill.natures
    amount = skill.damage if damage is None else damage
    context = HitContext(
        skill=skill.name,
        damage=amount,
        natures=natures,
        direct=amount > 0,
        boost_percent=boost_percent(picked),
        boosters=tuple((b.nature, float(b.percent)) for b in picked),
        modifiers=tuple(modifiers),
        immunity_cut=cut,
        mental_share=mental_share(natures),
        resisted=answer.resisted,
        evasion=answer.evasion,
        defense=answer.defense,
        defense_note=answer.note,
        spares_mental=Nature.PSIONICA in skill.natures and answer.kind == "internal",
        further=_further(skill, later),
        sonic=("literal" if readings.sonic_literal else "recommended") if sonic else None,
        ignore_percent=exact(skill.ignore_defense_pct),
        pierces=skill.pierces_defense,
        **_target_side(skill, target, t_sheet, bool(breaks)),
    )
    factor, round_up = _effects_factor(cut, [answer, *later], modifiers, sonic)
    return HitPlan(
        context=context,
        kind=answer.kind,
        effects_factor=factor,
        round_up=round_up,
        evaded=any(a.evasion == "full" for a in [answer, *later]),
        resisted=answer.effects_resisted,
        breaks=breaks,
        defense_skill=answer.skill,
        further_kinds=tuple(a.kind for a in later),
    )


def _reductions(table: Mapping[Any, float]) -> dict[str, float]:
    return {str(getattr(key, "value", key)): value for key, value in table.items()}
