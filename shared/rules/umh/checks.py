"""The checks services/turns runs before accepting a skill or a reaction, for the rules of
umh sections 5 - 12 (reach, areas, heights, natures' reaction requirements, defense kinds,
crowd control and altered states). Each raises :class:`shared.errors.RuleViolation` with its
code and rule reference, in the documented order of the rules; services/turns calls them and
owns everything about who may act, when and at what cost.

The contexts carry everything the checks may read; turns builds them from its state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from shared.payloads import EffectView, Position
from shared.sheets.umh import Skill, UmhSheet


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


@dataclass(frozen=True)
class Declaration:
    """A skill being declared (API.md ``skill`` action)."""

    actor: Combatant
    skill: Skill
    targets: Sequence[Combatant]
    squares: Sequence[tuple[int, int]] = ()
    combatants: Mapping[str, Combatant] = field(default_factory=dict)
    in_own_turn: bool = True


@dataclass(frozen=True)
class Reaction:
    """A reaction to a pending hit (API.md ``react`` action)."""

    reactor: Combatant
    attacker: Combatant
    attack: Skill
    defense: Skill | None
    resist: bool = False
    to: tuple[int, int] | None = None
    redirect_to: Combatant | None = None
    attack_is_anticipation: bool = False
    combatants: Mapping[str, Combatant] = field(default_factory=dict)


def check_declaration(declaration: Declaration) -> None:
    """umh 5 - 12 rules that forbid declaring this skill on these targets now.

    Not refereed yet: every declaration passes (the rules of that issue fill this in).
    """


def check_reaction(reaction: Reaction) -> None:
    """umh 7 - 11 rules that forbid this reaction (requirements, kinds, states).

    Not refereed yet: every reaction passes (the rules of that issue fill this in).
    """
