"""The checks services/turns runs before accepting a skill or a reaction, for the rules of
umh sections 5 - 12 (reach, areas, heights, natures' reaction requirements, defense kinds,
crowd control and altered states). Each raises :class:`shared.errors.RuleViolation` with its
code and rule reference, in the documented order of the rules; services/turns calls them and
owns everything about who may act, when and at what cost.

The contexts carry everything the checks may read; turns builds them from its state,
with the readings of the declaring combat (its grid metric, A-61; a REF under 1, A-22). A
context without squares (a combat without a grid) skips the geometric checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from shared.errors import RuleViolation
from shared.payloads import EffectView, Position
from shared.rulesets.umh import evasion
from shared.rulesets.umh.attributes import BelowOne
from shared.rulesets.umh.current import current_stats
from shared.rulesets.umh.grid import (
    Metric,
    Square,
    area_squares,
    direction,
    distance,
    is_diagonal,
)
from shared.rulesets.umh.grid import reaches_height as height_reachable
from shared.rulesets.umh.natures import RESISTIBLE, is_pure_mental, natures_of, ref_required
from shared.rulesets.umh.sheet import DefenseKind, Nature, Skill, SkillType, UmhSheet

DISORIENTED_REACH_LOSS = 3
"""umh 11.5.9 / A-27: a disoriented player's skills lose 3 squares of reach, minimum 1."""


@dataclass(frozen=True)
class Combatant:
    """A participant as the checks see him."""

    id: str
    side: str
    sheet: UmhSheet
    position: Position = field(default_factory=Position)
    effects: Sequence[EffectView] = ()
    blocks: frozenset[str] = frozenset()
    speed_left: float = 0.0

    def has(self, effect_type: str) -> bool:
        return any(effect.type == effect_type for effect in self.effects)

    @property
    def ref(self) -> float:
        return self.sheet.stats.ref

    def now(self, reading: BelowOne = "keep") -> dict[str, float]:
        """umh 2.6, 2.8, 11.5.4 - 11.5.5, 11.5.11: his STATs as the combat reads them now."""
        return current_stats(self.sheet, self.effects, reading)


@dataclass(frozen=True)
class Declaration:
    """A skill being declared (docs/api.md ``skill`` action).

    ``weapons``: the weapons the skill is used with at once (umh 12.1); ``detected``: the
    ids the actor detects by some means (umh 11.5.13); ``metric``: reading A-61, the
    declaring combat's.
    """

    actor: Combatant
    skill: Skill
    targets: Sequence[Combatant]
    squares: Sequence[tuple[int, int]] = ()
    combatants: Mapping[str, Combatant] = field(default_factory=dict)
    in_own_turn: bool = True
    weapons: Sequence[str] = ()
    detected: frozenset[str] = frozenset()
    metric: Metric = "chebyshev"


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


def effective_reach(actor: Combatant, skill: Skill) -> int:
    """umh 5.1.1, 11.5.9 / A-27: the skill's reach, 3 less while disoriented (minimum 1)."""
    if actor.has("desorientacion") and skill.reach > 0:
        return max(1, skill.reach - DISORIENTED_REACH_LOSS)
    return skill.reach


def check_declaration(declaration: Declaration) -> None:
    """umh 5 - 12 rules that forbid declaring this skill on these targets now.

    Order: ambidextrous (12.1), supplementary on an enemy (8.1.1.2), cone direction (6.1.1
    Cónico), then per target: concealed (11.5.13), height (10.2.1 - 10.2.2), reach or area
    (1.1.2, 5.1.1, 11.5.9).
    """
    actor, skill = declaration.actor, declaration.skill
    if len(declaration.weapons) > 1 and "ambidextrous" not in actor.sheet.traits:
        raise RuleViolation("not_ambidextrous", "umh 12.1", weapons=list(declaration.weapons))
    supplementary = skill.type is SkillType.SUPPLEMENTARY
    if supplementary:
        enemies = [t.id for t in declaration.targets if t.side != actor.side]
        if enemies:
            raise RuleViolation("supplementary_affects_enemy", "umh 8.1.1.2", targets=enemies)
    covered = _declared_area(declaration)
    for target in declaration.targets:
        if target.id == actor.id:
            continue
        if not supplementary:
            _check_visible(declaration, target)
        _check_height(actor, target, skill)
        _check_in_range(declaration, target, covered)


def _declared_area(declaration: Declaration) -> set[Square] | None:
    """umh 6.1.1: the squares the declared area covers (None: no area or no grid)."""
    actor, skill = declaration.actor, declaration.skill
    if skill.area is None or actor.position.square is None:
        return None
    here = actor.position.square
    aim = _aim(declaration)
    if aim is None:
        return None
    if skill.area.shape == "cone" and (is_diagonal(direction(here, aim)) or aim == here):
        raise RuleViolation("cone_diagonal", "umh 6.1.1 Cónico", toward=list(aim))
    if skill.area.shape == "special":
        return _special_area(declaration)
    return area_squares(skill.area.shape.value, skill.area.size, here, aim, declaration.metric)


def _special_area(declaration: Declaration) -> set[Square] | None:
    """umh 6.1.1 Área especial: its document shapes it, so the player declares the squares
    it covers, at most the area's ``size`` of them (None: no squares, targets by reach)."""
    squares = set(declaration.squares)
    size = declaration.skill.area.size if declaration.skill.area else 0
    if len(squares) > size:
        raise RuleViolation(
            "invalid_target", "umh 6.1.1 Área especial", total=len(squares), max=size
        )
    return squares or None


def _aim(declaration: Declaration) -> Square | None:
    """The epicentre or direction of an area: the first declared square, else target."""
    if declaration.squares:
        return declaration.squares[0]
    squares = [t.position.square for t in declaration.targets if t.position.square is not None]
    if squares:
        return squares[0]
    return declaration.actor.position.square


def _check_visible(declaration: Declaration, target: Combatant) -> None:
    """umh 11.5.13: a concealed player cannot be attacked while nobody detects him."""
    if not target.has("ocultacion"):
        return
    if "detection" in declaration.actor.sheet.traits or target.id in declaration.detected:
        return
    raise RuleViolation("target_concealed", "umh 11.5.13", target=target.id)


def _check_height(actor: Combatant, target: Combatant, skill: Skill) -> None:
    """umh 10.2.1 - 10.2.2 / A-39: reach 3 up to alzada, 5 up to voladora, 2 alzada -> voladora."""
    reach = effective_reach(actor, skill)
    if not height_reachable(actor.position.height, target.position.height, reach):
        raise RuleViolation(
            "target_unreachable_height",
            "umh 10.2.2" if target.position.height == "voladora" else "umh 10.2.1",
            target=target.id,
            reach=reach,
        )


def _check_in_range(
    declaration: Declaration, target: Combatant, covered: set[Square] | None
) -> None:
    """umh 1.1.2, 5.1.1, 6.1.1: the target stands within reach, or inside the area."""
    actor, skill = declaration.actor, declaration.skill
    here, there = actor.position.square, target.position.square
    if here is None or there is None:
        return
    if covered is not None and skill.area is not None and skill.area.shape.value != "on_target":
        if there not in covered:
            raise RuleViolation("target_out_of_range", "umh 6.1.1", target=target.id)
        return
    reach = effective_reach(actor, skill)
    aim = there if covered is None else (_aim(declaration) or there)
    if distance(here, aim, declaration.metric) > reach:
        raise RuleViolation("target_out_of_range", "umh 1.1.2", target=target.id, reach=reach)
    if covered is not None and there not in covered:
        raise RuleViolation("target_out_of_range", "umh 6.1.1", target=target.id)


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


__all__ = ["Combatant", "Declaration", "Reaction", "check_declaration", "check_reaction"]
