"""A declared action on its way to resolution: its defense windows, hit by hit (umh 2.4.2,
8.1.1.1.1, 8.2.2.4)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final

from services.turns.domain.umh.participant import clone

# Window statuses (umh 2.4.2).
OPEN: Final = "open"
ANSWERED: Final = "answered"
TIMED_OUT: Final = "timed_out"


@dataclass
class Reaction:
    """One window: a target's defense (umh 2.4.2, 8.1.1.3) or the attacker's answer to an
    anticipation (8.2.2.4). ``kind`` is the defense kind of the skill that answered it;
    ``reflected_by`` names the reflector when the window is on a reflected hit (8.2.5.2).
    Against a skill reactable several times (8.1.1.3) ``given`` counts the defensive skills
    given in the window and ``more`` holds the second and later ones, in order."""

    deadline_ms: int
    timer_id: str | None
    status: str = OPEN
    skill: str | None = None
    resist: bool = False
    kind: str | None = None
    to: list[int] | None = None
    redirect_to: str | None = None
    use_number: int | None = None
    pa_spent: int = 0
    reflected_by: str | None = None
    given: int = 0
    more: list[dict[str, Any]] = field(default_factory=list)

    @property
    def is_open(self) -> bool:
        return self.status == OPEN

    def to_dict(self) -> dict[str, Any]:
        return clone(dict(vars(self)))  # type: ignore[no-any-return]

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Reaction:
        known = {f.name for f in fields(cls)}
        return cls(**{k: clone(v) for k, v in d.items() if k in known})


@dataclass
class InFlight:
    """A declared action waiting for its windows, then for ``action.resolved``.

    A combo (``hits`` > 1) is resolved hit by hit: ``hit`` is the one whose windows are
    open; ``answers`` are the attacker's windows to answer anticipations, by anticipator.
    """

    attacker: str
    skill: str
    targets: list[str]
    opening: bool
    round: int
    turn_seq: int
    reactions: dict[str, Reaction] = field(default_factory=dict)
    resolution_requested: bool = False
    hit: int = 1
    hits: int = 1
    squares: list[list[int]] = field(default_factory=list)
    interference: bool = False
    offensive: bool = True
    pa_spent: int = 0
    answers: dict[str, Reaction] = field(default_factory=dict)
    weapons: list[str] = field(default_factory=list)
    weapon_effects: str | None = None
    teleport_to: list[int] | None = None
    teleport_height: str | None = None

    @property
    def all_reactions_in(self) -> bool:
        """umh 2.1.3 / A-100: every window answered or closed; the hit can resolve."""
        windows = [*self.reactions.values(), *self.answers.values()]
        return all(not r.is_open for r in windows)

    @property
    def has_windows(self) -> bool:
        return bool(self.reactions or self.answers)

    def to_dict(self) -> dict[str, Any]:
        data = {k: clone(v) for k, v in vars(self).items() if k not in ("reactions", "answers")}
        data["reactions"] = {k: v.to_dict() for k, v in self.reactions.items()}
        data["answers"] = {k: v.to_dict() for k, v in self.answers.items()}
        return data

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> InFlight:
        known = {f.name for f in fields(cls)} - {"reactions", "answers"}
        data = {k: clone(v) for k, v in d.items() if k in known}
        return cls(
            reactions={k: Reaction.from_dict(v) for k, v in d.get("reactions", {}).items()},
            answers={k: Reaction.from_dict(v) for k, v in d.get("answers", {}).items()},
            **data,
        )
