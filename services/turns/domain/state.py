"""The umh combat as services/turns keeps it: dataclasses and their JSON (de)serialisation.

At the interface the state is a JSON-ready dict (the runtime stores it as is). Every entry
point parses it with :meth:`CombatState.from_dict`, which copies every container, works on
that copy and hands back :meth:`CombatState.to_dict`; so no function mutates its input.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from shared.errors import RuleViolation

Side = Literal["attackers", "defenders"]
Status = Literal["active", "down", "fled", "disconnected"]
SIDES: Final[tuple[Side, Side]] = ("attackers", "defenders")

PHASE_OPENING: Final = "opening"
PHASE_PREPARATION: Final = "preparation"
PHASE_FIGHTING: Final = "fighting"
PHASE_ENDED: Final = "ended"

# Participant statuses (API.md "Combats").
ACTIVE: Final = "active"
DOWN: Final = "down"

# Reaction (defense window) statuses (umh 2.4.2).
OPEN: Final = "open"
ANSWERED: Final = "answered"
TIMED_OUT: Final = "timed_out"


def other_side(side: str) -> Side:
    """umh 1.2.1: a combat has exactly two sides."""
    return "defenders" if side == "attackers" else "attackers"


@dataclass
class SkillInfo:
    """What turns needs to know of a skill of the sheet (umh 3.1.2, 8.1, 8.2)."""

    name: str
    pa: int
    type: str
    defense_kind: str | None = None
    hits: int = 1
    area: str | None = None
    cooldown_rounds: int = 0

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SkillInfo:
        return cls(**d)


@dataclass
class Participant:
    """One combatant: side, status and the counters turns owns (umh 1.2, 2.3.2, 3.1)."""

    side: Side
    vel: float
    pa: int
    movement_left: float
    joined_seq: int
    skills: dict[str, SkillInfo]
    status: Status = ACTIVE
    reached_zero_vit: bool = False
    cooldowns: dict[str, int] = field(default_factory=dict)
    uses: dict[str, int] = field(default_factory=lambda: {"annul_anticipate": 0})

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    def skill(self, name: str) -> SkillInfo | None:
        """A skill by name, case-insensitively (casefold), like ``UmhSheet.skill``."""
        return self.skills.get(name.casefold())

    def to_dict(self) -> dict[str, Any]:
        return {
            **vars(self),
            "skills": {k: v.to_dict() for k, v in self.skills.items()},
            "cooldowns": dict(self.cooldowns),
            "uses": dict(self.uses),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Participant:
        return cls(
            side=d["side"],
            vel=d["vel"],
            pa=d["pa"],
            movement_left=d["movement_left"],
            joined_seq=d["joined_seq"],
            skills={k: SkillInfo.from_dict(v) for k, v in d["skills"].items()},
            status=d["status"],
            reached_zero_vit=d["reached_zero_vit"],
            cooldowns=dict(d["cooldowns"]),
            uses=dict(d["uses"]),
        )


@dataclass
class Reaction:
    """One target's defense window on an action (umh 2.4.2, 8.1.1.3)."""

    deadline_ms: int
    timer_id: str | None
    status: str = OPEN
    skill: str | None = None
    resist: bool = False

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Reaction:
        return cls(**d)


@dataclass
class InFlight:
    """A declared action waiting for its reactions and then for ``action.resolved``."""

    attacker: str
    skill: str
    targets: list[str]
    opening: bool
    round: int
    turn_seq: int
    reactions: dict[str, Reaction] = field(default_factory=dict)
    resolution_requested: bool = False

    @property
    def all_reactions_in(self) -> bool:
        """umh 2.1.3 / A-100: every window answered or closed; the action can resolve."""
        return all(r.status != OPEN for r in self.reactions.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            **vars(self),
            "targets": list(self.targets),
            "reactions": {k: v.to_dict() for k, v in self.reactions.items()},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> InFlight:
        return cls(
            attacker=d["attacker"],
            skill=d["skill"],
            targets=list(d["targets"]),
            opening=d["opening"],
            round=d["round"],
            turn_seq=d["turn_seq"],
            reactions={k: Reaction.from_dict(v) for k, v in d["reactions"].items()},
            resolution_requested=d["resolution_requested"],
        )


@dataclass
class Turn:
    """The current own turn (umh 2.3): its clock runs, or is paused by a defense (2.4.2)."""

    actor: str
    deadline_ms: int | None
    timer_id: str | None
    paused_remaining_ms: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Turn:
        return cls(**d)


@dataclass
class ArmedTimer:
    """A timer the state expects to be armed; ``CombatState.timers`` is the source of truth."""

    kind: str
    due_ms: int
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "due_ms": self.due_ms, "data": copy.deepcopy(self.data)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ArmedTimer:
        return cls(kind=d["kind"], due_ms=d["due_ms"], data=copy.deepcopy(d["data"]))


@dataclass
class Settings:
    """The community settings copied into the combat at its start (RULES.md 7.1, A-16)."""

    turn_seconds: int
    defense_seconds: int
    preparation_seconds: int
    pa_per_round: int

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        return cls(**d)


@dataclass
class Result:
    """How the combat ended (umh 4.1.1): the winning side (or None) and why."""

    winner: Side | None
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Result:
        return cls(**d)


@dataclass
class CombatState:
    """The whole combat as turns owns it."""

    id: str
    tenant: str
    room: str
    initiator: str
    sides: dict[str, list[str]]
    participants: dict[str, Participant]
    settings: Settings
    created_at_ms: int
    ruleset: str = "umh"
    phase: str = PHASE_OPENING
    round: int = 0
    positions: dict[str, list[int]] = field(default_factory=dict)
    turn_order: list[str] = field(default_factory=list)
    turn_index: int = 0
    turn_seq: int = 0
    turn: Turn | None = None
    actions: dict[str, InFlight] = field(default_factory=dict)
    timers: dict[str, ArmedTimer] = field(default_factory=dict)
    timer_seq: int = 0
    phase_deadline_ms: int | None = None
    result: Result | None = None
    ended_at_ms: int | None = None

    # --- queries ---------------------------------------------------------------------
    def participant(self, character: str) -> Participant:
        """The participant ``character`` or ``not_in_combat``."""
        found = self.participants.get(character)
        if found is None:
            raise RuleViolation("not_in_combat", None, character=character)
        return found

    def active_members(self, side: str) -> list[str]:
        return [c for c in self.sides[side] if self.participants[c].active]

    def awaiting_defense(self) -> bool:
        """umh 2.4.2 / A-100: an action with reactions is still open or not yet resolved."""
        return any(a.reactions for a in self.actions.values())

    # --- (de)serialisation -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy that shares nothing mutable with this object."""
        return {
            **vars(self),
            "sides": {k: list(v) for k, v in self.sides.items()},
            "participants": {k: v.to_dict() for k, v in self.participants.items()},
            "settings": self.settings.to_dict(),
            "positions": {k: list(v) for k, v in self.positions.items()},
            "turn_order": list(self.turn_order),
            "turn": self.turn.to_dict() if self.turn else None,
            "actions": {k: v.to_dict() for k, v in self.actions.items()},
            "timers": {k: v.to_dict() for k, v in self.timers.items()},
            "result": self.result.to_dict() if self.result else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CombatState:
        turn = d["turn"]
        result = d["result"]
        return cls(
            id=d["id"],
            tenant=d["tenant"],
            room=d["room"],
            initiator=d["initiator"],
            sides={k: list(v) for k, v in d["sides"].items()},
            participants={k: Participant.from_dict(v) for k, v in d["participants"].items()},
            settings=Settings.from_dict(d["settings"]),
            created_at_ms=d["created_at_ms"],
            ruleset=d["ruleset"],
            phase=d["phase"],
            round=d["round"],
            positions={k: list(v) for k, v in d["positions"].items()},
            turn_order=list(d["turn_order"]),
            turn_index=d["turn_index"],
            turn_seq=d["turn_seq"],
            turn=Turn.from_dict(turn) if turn is not None else None,
            actions={k: InFlight.from_dict(v) for k, v in d["actions"].items()},
            timers={k: ArmedTimer.from_dict(v) for k, v in d["timers"].items()},
            timer_seq=d["timer_seq"],
            phase_deadline_ms=d["phase_deadline_ms"],
            result=Result.from_dict(result) if result is not None else None,
            ended_at_ms=d["ended_at_ms"],
        )
