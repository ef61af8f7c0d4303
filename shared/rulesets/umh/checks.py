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
from shared.rulesets.umh.sheet import Skill, SkillType, UmhSheet

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


__all__ = ["Combatant", "Declaration", "check_declaration", "effective_reach"]
