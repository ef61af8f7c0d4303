"""The checks services/turns runs before accepting a reaction to a pending hit (umh 7 - 11:
what may be reacted to, who may react, RESISTIR, defense kinds against the attack, natures'
reaction requirements and the evasion itself). Each raises
:class:`shared.errors.RuleViolation` with its code and rule reference, in the documented
order of the rules. The declaration of a skill is checked in :mod:`shared.rulesets.umh.checks`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from shared.errors import RuleViolation
from shared.rulesets.umh import evasion
from shared.rulesets.umh.attributes import BelowOne
from shared.rulesets.umh.checks import Combatant
from shared.rulesets.umh.grid import (
    Metric,
    distance,
)
from shared.rulesets.umh.natures import RESISTIBLE, is_pure_mental, natures_of, ref_required
from shared.rulesets.umh.sheet import DefenseKind, Nature, Skill, SkillType


@dataclass(frozen=True)
class Reaction:
    """A reaction to a pending hit (docs/api.md ``react`` action).

    ``targets``: who the attack targets (empty: the reactor only); ``squares``: the squares
    an area covers (empty: none or no grid); ``indirect``: the hit is an indirect tick;
    ``metric`` and ``stat_below_one``: readings A-61 and A-22, the combat's.
    """

    reactor: Combatant
    attacker: Combatant
    attack: Skill
    defense: Skill | None
    resist: bool = False
    to: tuple[int, int] | None = None
    redirect_to: Combatant | None = None
    attack_is_anticipation: bool = False
    combatants: Mapping[str, Combatant] = field(default_factory=dict)
    targets: Sequence[str] = ()
    squares: Sequence[tuple[int, int]] = ()
    indirect: bool = False
    metric: Metric = "chebyshev"
    stat_below_one: BelowOne = "keep"

    def ref_of(self, combatant: Combatant) -> float:
        """umh 2.6.1.1 / A-22: the REF the combat reads for ``combatant``."""
        return combatant.now(self.stat_below_one)["ref"]


def check_reaction(reaction: Reaction) -> None:
    """umh 7 - 11 rules that forbid this reaction (requirements, kinds, states).

    Order: what cannot be reacted to (8.2.3.2, 8.2.4.4, 8.1.1.3.1.2), who may react
    (8.1.1.3.1, 8.2.2.5, 8.2.3.3), RESISTIR (7.1.2.3 - 7.1.2.4), then for a defensive
    skill: kind against the attack (8.2.2 - 8.2.4, 8.1.1.3.1.1, 9.2.5.1), natures (7.1.1
    Mental, Daño al alma, Fuego infernal), REF requirements (7.1.1, reading A-98: only
    evasion falls back on 8.2.1.4, and not against a chronokinetic skill, which without 6
    REF must be resisted, T000-37) and the evasion itself (11.5.1, 11.5.6, 8.2.1.3 - 8.2.1.6).
    """
    attack, defense = reaction.attack, reaction.defense
    _check_reactable(reaction)
    _check_who_reacts(reaction)
    if reaction.resist:
        _check_resist(reaction)
        return
    if defense is None:
        return
    kind = defense.defense_kind
    if defense.type is not SkillType.DEFENSIVE or kind is None:
        return  # turns answers not_a_defense
    _check_kind(reaction, attack, defense, kind)
    _check_natures(attack, defense, kind)
    needed = ref_required(attack, kind)
    chrono = Nature.CRONOQUINETICA in natures_of(attack)
    ref = reaction.ref_of(reaction.reactor)
    if ref < needed and (kind is not DefenseKind.EVASION or chrono):
        raise RuleViolation(
            "reaction_requirement",
            _requirement_rule(attack),
            ref=ref,
            needed=None if needed == float("inf") else needed,
        )
    if kind is DefenseKind.EVASION:
        _check_evasion(reaction, defense)


def _check_reactable(reaction: Reaction) -> None:
    attack = reaction.attack
    if attack.type is SkillType.DEFENSIVE and attack.defense_kind in (
        DefenseKind.ANNULMENT,
        DefenseKind.REFLECTION,
    ):
        raise RuleViolation("not_reactable", "umh 8.2.3.2", skill=attack.name)
    if attack.defense_kind is DefenseKind.COUNTER and attack.melee:
        raise RuleViolation("not_reactable", "umh 8.2.4.4", skill=attack.name)
    if reaction.indirect:
        raise RuleViolation("cannot_defend_indirect", "umh 8.1.1.3.1.2")


def _check_who_reacts(reaction: Reaction) -> None:
    """umh 8.1.1.3.1, 8.2.2.5, 8.2.3.3: only targets defend, save the kinds that reach."""
    reactor, defense = reaction.reactor, reaction.defense
    if not reaction.targets or reactor.id in reaction.targets:
        return
    kind = defense.defense_kind if defense is not None else None
    reaching = (DefenseKind.ANTICIPATION, DefenseKind.ANNULMENT, DefenseKind.REFLECTION)
    if defense is None or (kind not in reaching and not defense.covers_allies):
        raise RuleViolation("not_targeted", "umh 8.1.1.3.1", reactor=reactor.id)
    here = reactor.position.square
    if here is None:
        return
    if kind in reaching:
        there, rule = reaction.attacker.position.square, "umh 8.2.2.5"
    else:
        allies = [reaction.combatants[t] for t in reaction.targets if t in reaction.combatants]
        near = [a.position.square for a in allies if a.position.square is not None]
        there = min(near, key=lambda s: distance(here, s, reaction.metric)) if near else None
        rule = "umh 8.1.1.3.1"
    if there is not None and distance(here, there, reaction.metric) > defense.reach:
        raise RuleViolation("target_out_of_range", rule, reach=defense.reach)


def _check_resist(reaction: Reaction) -> None:
    """umh 7.1.2.3 - 7.1.2.4, 7.1.1, 11.5.10: RESISTIR answers mental, psionic,
    chronokinetic and mystic skills, and an enamouring one when the reactor's VOL is above
    the enamourer's (A-44); never together with an internal defense (7.1.2.4)."""
    attack, defense = reaction.attack, reaction.defense
    if defense is not None and defense.defense_kind is DefenseKind.INTERNAL:
        raise RuleViolation("resist_not_allowed", "umh 7.1.2.4", skill=attack.name)
    enamours = any(e.kind == "state" and e.type.value == "enamoramiento" for e in attack.effects)
    reading = reaction.stat_below_one
    outwills = reaction.reactor.now(reading)["vol"] > reaction.attacker.now(reading)["vol"]
    if enamours and outwills:
        return  # umh 11.5.10 / A-44: VOL above the enamourer's annuls it
    if not natures_of(attack) & RESISTIBLE:
        raise RuleViolation("resist_not_allowed", "umh 7.1.2.3", skill=attack.name)


def _check_kind(reaction: Reaction, attack: Skill, defense: Skill, kind: DefenseKind) -> None:
    """umh 8.2.2.2.1, 8.2.2.3, 8.2.2.4.1, 8.2.3.1, 8.2.4.1, 8.1.1.3.1.1, 9.2.5.1."""
    if kind is DefenseKind.ANTICIPATION:
        if attack.type is SkillType.DEFENSIVE and not reaction.attack_is_anticipation:
            raise RuleViolation("cannot_anticipate_defense", "umh 8.2.2.3", skill=attack.name)
        if reaction.attack_is_anticipation:
            raise RuleViolation("anticipation_chain", "umh 8.2.2.4.1", skill=attack.name)
        if not anticipable(attack, defense):
            raise RuleViolation(
                "cannot_anticipate_supplementary", "umh 8.2.2.2.1", skill=attack.name
            )
        return
    if kind in (DefenseKind.ANNULMENT, DefenseKind.REFLECTION):
        if attack.type is SkillType.DEFENSIVE or attack.joins_combat:
            raise RuleViolation("cannot_annul", "umh 8.2.3.1", skill=attack.name)
        if kind is DefenseKind.REFLECTION:
            _check_redirect(reaction, defense)
        return
    if kind is DefenseKind.COUNTER and (
        attack.type is not SkillType.OFFENSIVE or not attack.damage
    ):
        raise RuleViolation("counter_needs_direct_damage", "umh 8.2.4.1", skill=attack.name)
    # A counterattack's surplus is direct damage (8.2.4.3, A-52): its value is its defense.
    surplus = attack.defense if attack.defense_kind is DefenseKind.COUNTER else 0
    if kind in (DefenseKind.INTERNAL, DefenseKind.COUNTER) and not (attack.damage or surplus):
        raise RuleViolation("defense_type", "umh 8.1.1.3.1.1", kind=kind.value)
    if kind in (DefenseKind.INTERNAL, DefenseKind.COUNTER) and defense.firearm:
        raise RuleViolation("firearm_block", "umh 9.2.5.1", skill=defense.name)


def anticipable(attack: Skill, anticipation: Skill) -> bool:
    """umh 8.2.2.2 / 8.2.2.2.1: a supplementary skill can be anticipated when it has a
    physical preparation, or when the anticipation reads the user's mind or foresees
    (precognition); any other skill that is not defensive, always."""
    if attack.type is not SkillType.SUPPLEMENTARY:
        return True
    return attack.physical_preparation or anticipation.precognition


def _check_redirect(reaction: Reaction, defense: Skill) -> None:
    """umh 8.2.5.2: a reflection goes back to its executor or to an opponent in reach."""
    other = reaction.redirect_to
    if other is None or other.id == reaction.attacker.id:
        return
    if other.side == reaction.reactor.side:
        raise RuleViolation("invalid_target", "umh 8.2.5.2", target=other.id)
    here, there = reaction.reactor.position.square, other.position.square
    if here is None or there is None:
        return
    if distance(here, there, reaction.metric) > defense.reach:
        raise RuleViolation("target_out_of_range", "umh 8.2.5.2", target=other.id)


def _check_natures(attack: Skill, defense: Skill, kind: DefenseKind) -> None:
    """umh 7.1.1 Daño al alma, Fuego infernal, Mental (A-76)."""
    natures = natures_of(attack)
    if Nature.ALMA in natures and not defense.against_soul:
        raise RuleViolation("defense_not_applicable", "umh 7.1.1 Daño al alma", skill=defense.name)
    if Nature.FUEGO_INFERNAL in natures:
        internal_ok = kind is DefenseKind.INTERNAL and defense.against_hellfire
        allowed = kind in (DefenseKind.EVASION, DefenseKind.EXTERNAL) or internal_ok
        if not allowed and kind not in (DefenseKind.ANTICIPATION, DefenseKind.ANNULMENT):
            raise RuleViolation(
                "defense_not_applicable", "umh 7.1.1 Fuego infernal", skill=defense.name
            )
    if is_pure_mental(attack) and Nature.MENTAL not in natures_of(defense):
        raise RuleViolation("defense_not_applicable", "umh 7.1.1 Mental", skill=defense.name)


def _requirement_rule(attack: Skill) -> str:
    natures = natures_of(attack)
    if Nature.CRONOQUINETICA in natures:
        return "umh 7.1.1 Cronoquinética"
    if Nature.OSCURIDAD in natures:
        return "umh 7.1.1.3"
    if Nature.LUZ in natures:
        return "umh 7.1.1.2"
    return "umh 7.1.1"


def _check_evasion(reaction: Reaction, defense: Skill) -> None:
    """umh 11.5.6, 11.5.1, then the squares of 8.2.1.3, 8.2.1.5, 8.2.1.6."""
    reactor, attacker = reaction.reactor, reaction.attacker
    ref = reaction.ref_of(reactor)
    if reactor.has("ceguera") and ref < reaction.ref_of(attacker):
        raise RuleViolation("blind_cannot_evade", "umh 11.5.6", ref=ref)
    legs_blocked = "evade_with_legs" in reactor.blocks or any(
        reactor.has(state) for state in ("inmovilizacion", "derribo", "inhabilitacion_piernas")
    )
    if defense.needs_legs and legs_blocked:
        raise RuleViolation("immobilized", "umh 11.5.1", skill=defense.name)
    here, there = reactor.position.square, attacker.position.square
    if reaction.to is None or here is None or there is None:
        return
    covered = set(reaction.squares) or {here}
    cone = reaction.attack.area is not None and reaction.attack.area.shape.value == "cone"
    evasion.check_move(here, reaction.to, there, covered, cone=cone, metric=reaction.metric)


__all__ = ["Reaction", "anticipable", "check_reaction"]
