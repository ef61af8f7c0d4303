"""One hit on one target, as the damage pipeline sees it, and the record of each step.

The pipeline never reads pydantic sheets: :func:`services.resolution.domain.resolve` turns
the attacker's skill, the target's sheet and the target's reaction into a
:class:`HitContext`, so every step is a small function of plain data.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from services.resolution.domain.exact import json_number


@dataclass(frozen=True)
class Reaction:
    """How a target answered the action: a defensive skill, RESISTIR, nothing, or too late."""

    skill: str | None = None
    resist: bool = False
    timed_out: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"skill": self.skill, "resist": self.resist, "timed_out": self.timed_out}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Reaction:
        return cls(
            skill=data.get("skill"),
            resist=bool(data.get("resist", False)),
            timed_out=bool(data.get("timed_out", False)),
        )


@dataclass(frozen=True)
class Defense:
    """The defensive skill that answered the hit (defensa interna / externa, umh 9.2.4-9.2.5)."""

    skill: str
    kind: str
    value: int


@dataclass(frozen=True)
class HitContext:
    """Everything the steps need to compute one hit on one target.

    ``defense`` is the defensive skill that applies, or ``None`` with ``defense_note``
    saying why none does (``"no_reaction"``, ``"timed_out"``, ...). ``reductions`` maps
    ``"general"`` or a nature (índole) to a percent, as on the sheet (umh 9.4.3).
    """

    skill: str
    damage: int
    natures: tuple[str, ...]
    direct: bool = True
    defense: Defense | None = None
    defense_note: str | None = "no_reaction"
    resistance: int = 0
    hardness: str | None = None
    reductions: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class StepRecord:
    """One line of a breakdown: which rule turned ``before`` into ``after``, and with what."""

    step: str
    rule: str
    before: Fraction
    after: Fraction
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "rule": self.rule,
            "before": json_number(self.before),
            "after": json_number(self.after),
            **self.details,
        }


Step = Callable[[HitContext, Fraction], StepRecord]
"""A pipeline step: the hit and the damage so far -> the record of what it did."""
