"""One hit on one target, as the damage pipeline sees it, and the record of each step.

The pipeline never reads pydantic sheets: :mod:`services.resolution.domain.umh.context` turns
the attacker's skill, the target's sheet and condition and the target's reaction into a
:class:`HitContext`, so every step is a small function of plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from services.resolution.domain.umh.exact import json_number
from shared.rulesets.umh.sheet import Skill

Square = tuple[int, int]


@dataclass(frozen=True)
class Reaction:
    """How a target answered the action: a defensive skill, RESISTIR, nothing, or too late."""

    skill: str | None = None
    resist: bool = False
    timed_out: bool = False
    to: Square | None = None
    redirect_to: str | None = None
    # umh 8.1.1.3.1: a defense an ally lent (his skill, from his sheet, covering this target).
    covered_by: str | None = None
    lent: Skill | None = None
    # umh 8.1.1.3: the further defenses against a skill reactable several times, in order.
    more: tuple[Reaction, ...] = ()

    @property
    def reacted(self) -> bool:
        return not self.timed_out and (self.skill is not None or self.resist)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "skill": self.skill,
            "resist": self.resist,
            "timed_out": self.timed_out,
        }
        if self.to is not None:
            data["to"] = list(self.to)
        if self.redirect_to is not None:
            data["redirect_to"] = self.redirect_to
        if self.covered_by is not None:
            data["covered_by"] = self.covered_by
        if self.more:
            data["more"] = [answer.to_dict() for answer in self.more]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Reaction:
        to = data.get("to")
        return cls(
            skill=data.get("skill"),
            resist=bool(data.get("resist", False)),
            timed_out=bool(data.get("timed_out", False)),
            to=(int(to[0]), int(to[1])) if to else None,
            redirect_to=data.get("redirect_to"),
            more=tuple(cls.from_dict(answer) for answer in data.get("more") or ()),
        )


@dataclass(frozen=True)
class Defense:
    """The defensive skill that answered the hit (umh 9.2.1, 9.2.4 - 9.2.5, 8.2.4)."""

    skill: str
    kind: str
    value: int
    all_angles: bool = False


@dataclass(frozen=True)
class Further:
    """A second or later defense against a skill reactable several times (umh 8.1.1.3): an
    evasion (``evasion`` as on :class:`HitContext`) or a block (``defense``)."""

    skill: str | None
    evasion: str | None = None
    defense: Defense | None = None
    note: str | None = None
    spares_mental: bool = False


@dataclass(frozen=True)
class Modifier:
    """A multiplier on the attack before any defense (boosters aside): blind (11.5.6),
    wet (11.5.12), a broken petrification or freezing (11.4.12 - 11.4.13)."""

    name: str
    rule: str
    factor: Fraction


@dataclass(frozen=True)
class HitContext:
    """Everything the steps need to compute one hit on one target.

    ``defense`` is the defensive skill that applies, or ``None`` with ``defense_note``
    saying why none does; ``further`` are the defenses given after it against a skill
    reactable several times (umh 8.1.1.3), in order. ``reductions`` maps ``"general"`` or a
    nature to a percent, as on the sheet (passive, umh 9.4.3); ``temporary_reductions`` come
    from skills (not capped).
    ``mental_share`` is the part of the damage that is mental (1 mental, 1/2 psionic).
    """

    skill: str
    damage: int
    natures: tuple[str, ...]
    direct: bool = True
    boost_percent: Fraction = Fraction(0)
    boosters: tuple[tuple[str, float], ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    immunity_cut: Fraction = Fraction(0)
    mental_share: Fraction = Fraction(0)
    resisted: bool = False
    evasion: str | None = None  # None | "full" | "half_down" | "half_up"
    defense: Defense | None = None
    defense_note: str | None = "no_reaction"
    spares_mental: bool = False
    further: tuple[Further, ...] = ()
    sonic: str | None = None  # None | "recommended" | "literal"
    ignore_percent: Fraction = Fraction(0)
    pierces: bool = False
    terrain_defense: int = 0
    coating: int = 0
    resistance: int = 0
    hardness: str | None = None
    ignores_passive: bool = False
    bypass_passive: bool = False
    shield: int = 0
    reductions: Mapping[str, float] = field(default_factory=dict)
    temporary_reductions: Mapping[str, Fraction] = field(default_factory=dict)
    excluded_reductions: frozenset[str] = frozenset()
    only_reductions: frozenset[str] | None = None


@dataclass(frozen=True)
class Flow:
    """The damage so far and, of it, the mental part (umh 7.1.2.1, 9.7.3)."""

    amount: Fraction
    mental: Fraction = Fraction(0)


@dataclass(frozen=True)
class StepRecord:
    """One line of a breakdown: which rule turned ``before`` into ``after``, and with what."""

    step: str
    rule: str
    before: Fraction
    after: Fraction
    details: Mapping[str, Any] = field(default_factory=dict)
    mental: Fraction | None = None

    def flow(self, previous: Flow) -> Flow:
        """The flow after this step: the mental part never exceeds the amount."""
        mental = previous.mental if self.mental is None else self.mental
        return Flow(self.after, max(Fraction(0), min(mental, self.after)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "rule": self.rule,
            "before": json_number(self.before),
            "after": json_number(self.after),
            **self.details,
        }


Step = Callable[[HitContext, Flow], StepRecord | None]
"""A pipeline step: the hit and the flow so far -> what it did, or None when it does not
apply to this hit (only the defense, resistance, reduction and floor steps always show)."""
