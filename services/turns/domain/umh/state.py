"""The umh combat as services/turns keeps it: dataclasses and their JSON (de)serialisation.

At the interface the state is a JSON-ready dict (the runtime stores it as is). Every entry
point parses it with :meth:`CombatState.from_dict`, which copies every container, works on
that copy and hands back :meth:`CombatState.to_dict`; so no function mutates its input.
Participants live in ``participant.py``, actions in flight in ``inflight.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Final, Literal

from services.turns.domain.umh.inflight import InFlight
from services.turns.domain.umh.participant import Participant, Side, clone
from shared.errors import RuleViolation
from shared.outcome import ArmedTimer
from shared.rulesets.umh.attributes import BelowOne
from shared.rulesets.umh.grid import Metric
from shared.vocabulary import EndReason, Phase


class TurnEnd(StrEnum):
    """Why an own turn ended (``turn.ended`` ``reason``, umh 2.3.3, 2.3.5, 4.1.1, 4.3.3)."""

    PASSED = "passed"
    TIMEOUT = "timeout"
    DOWN = "down"
    FLED = "fled"
    DISCONNECTED = "disconnected"


SIDES: Final[tuple[Side, Side]] = ("attackers", "defenders")
SIDE_SLOTS: Final = 3
"""umh 1.2.3: at most three participants per side unless a skill raises it."""


def other_side(side: str) -> Side:
    """umh 1.2.1: a combat has exactly two sides."""
    return "defenders" if side == "attackers" else "attackers"


def _known(cls: type, d: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(cls)}
    return {k: clone(v) for k, v in d.items() if k in names}


@dataclass
class Turn:
    """The current own turn (umh 2.3): its clock runs, or is paused (2.4.2, 2.5)."""

    actor: str
    deadline_ms: int | None
    timer_id: str | None
    paused_remaining_ms: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Turn:
        return cls(**_known(cls, d))


@dataclass(frozen=True)
class Readings:
    """The readings of docs/rules.md 6.1 marked "config" that turns applies: the combat's copy of
    ``CommunitySettings.umh.readings`` (shared/settings.py), the recommended one by default.

    - ``lone_fighter_bucket_cap`` (A-15): the +2 PA never take the lone fighter past the
      round's PA (``economy.lone_fighter_bucket``);
    - ``cooldown_from_next_round`` (A-19): a cooldown of n rounds used in round r ends at
      r + n + 1; False: r + n (``limits.note_use``);
    - ``annul_anticipate_counter`` (A-20): "per_skill" counts each annulment / anticipation
      on its own; "shared": one counter for all (``limits.reaction_counter``);
    - ``stat_below_one`` (A-22): a VEL / REF under 1 is kept ("keep") or raised to 1
      ("clamp") (``roster.new_participant``, the checks' ``Reaction``);
    - ``grid_metric`` (A-61): "chebyshev" or "manhattan" (``rulechecks``, the challenge's
      reach in ``opening``);
    - ``preparation_ends_when_ready`` (A-99): the preparation round ends once everyone is
      ready (``preparation.ready``).
    """

    lone_fighter_bucket_cap: bool = True
    cooldown_from_next_round: bool = True
    annul_anticipate_counter: Literal["per_skill", "shared"] = "per_skill"
    stat_below_one: BelowOne = "keep"
    grid_metric: Metric = "chebyshev"
    preparation_ends_when_ready: bool = True

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Readings:
        return cls(**_known(cls, d))


@dataclass
class Settings:
    """The community settings copied into the combat at its start (docs/rules.md 7.1, 6.1).

    ``readings`` holds the readings of docs/rules.md 6.1 marked "config" (a state written before
    they were copied loads with the recommended ones).
    """

    turn_seconds: int
    defense_seconds: int
    preparation_seconds: int
    pa_per_round: int
    disconnect_seconds: int = 600
    join_veto_seconds: int = 300
    uses_per_combat_annul_anticipate: int = 5
    timezone: str = "Europe/Madrid"
    readings: Readings = field(default_factory=Readings)

    def to_dict(self) -> dict[str, Any]:
        return {**vars(self), "readings": self.readings.to_dict()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Settings:
        plain = _known(cls, d)
        plain["readings"] = Readings.from_dict(d.get("readings") or {})
        return cls(**plain)


@dataclass
class Result:
    """How the combat ended (umh 4.1.1): the winning side (or None) and why."""

    winner: Side | None
    reason: EndReason
    annul_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {**vars(self), "reason": str(self.reason)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Result:
        known = _known(cls, d)
        return cls(**{**known, "reason": EndReason(known["reason"])})


@dataclass
class PendingJoin:
    """An IRRUMPIR waiting out its veto window (umh 1.2.4.1): visible, not yet a participant."""

    side: Side
    via: str
    sheet: dict[str, Any]
    requested_at_ms: int
    seq: int
    deadline_ms: int
    timer_id: str | None
    vetoes: list[str] = field(default_factory=list)
    weekly_uses: dict[str, int] = field(default_factory=dict)
    skill: str | None = None
    square: list[int] | None = None
    carried: dict[str, Any] | None = None  # umh 4.1.7: what services/states said he carries

    def to_dict(self) -> dict[str, Any]:
        return clone(dict(vars(self)))  # type: ignore[no-any-return]

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PendingJoin:
        return cls(**_known(cls, d))


@dataclass
class Interference:
    """An interference turn inside the current general turn (umh 2.5): free (move and one
    skill, 2.5.3.1) or predetermined (only ``skill``, plus supplementaries, 2.5.3.2)."""

    holder: str
    kind: str
    granted_by: str
    skill: str | None = None
    deadline_ms: int | None = None
    timer_id: str | None = None
    skills_used: int = 0

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Interference:
        return cls(**_known(cls, d))


NESTED: Final = frozenset(
    {
        "participants",
        "settings",
        "turn",
        "actions",
        "timers",
        "result",
        "pending_joins",
        "interference",
        "interference_queue",
    }
)
"""The fields of :class:`CombatState` that are dataclasses of their own."""


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
    phase: Phase = Phase.OPENING
    round: int = 0
    positions: dict[str, list[int]] = field(default_factory=dict)
    terrain: dict[str, Any] | None = None  # umh 11.6.1: the room's size and obstacles
    terrain_effects: list[dict[str, Any]] = field(default_factory=list)
    """umh 4.1.5.1: the skills kept on squares of the grid (``terrain.py``)."""
    heights: dict[str, str] = field(default_factory=dict)
    home_heights: dict[str, str] = field(default_factory=dict)
    aloft: list[str] = field(default_factory=list)
    opening_answers: dict[str, str] = field(default_factory=dict)
    """umh 1.3.5: the defensive skill each target answered the opening attack with."""
    opening_more: dict[str, list[str]] = field(default_factory=dict)
    """umh 1.3.5 / 8.1.1.3: the further ones, against a skill reactable several times."""
    """umh 7.1.1 Teletransportadora: teleported up high, back on the ground after an action."""
    """umh 10.2.3: where those who closed in this turn stand outside it (``approach``)."""
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
    opening_skill: str | None = None
    prisoner_challenge: bool = False
    slot_boosts: dict[str, int] = field(default_factory=dict)
    pending_joins: dict[str, PendingJoin] = field(default_factory=dict)
    join_seq: int = 0
    pact_offers: list[str] = field(default_factory=list)
    stalemate_rounds: int = 0
    round_offensive: bool = False
    round_timeouts: bool = False
    interference: Interference | None = None
    interference_queue: list[Interference] = field(default_factory=list)
    end_reason: str | None = None
    """Why a side was beaten while a hit was being resolved: the end waits for it (2.1.3)."""
    spent_windows: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    """umh 8.1.1.3: the windows that took every answer a skill reactable several times
    allows, by action and reactor (``[hit, answers]``; the last few actions only)."""

    # --- queries ---------------------------------------------------------------------
    def participant(self, character: str) -> Participant:
        """The participant ``character`` or ``not_in_combat``."""
        found = self.participants.get(character)
        if found is None:
            raise RuleViolation("not_in_combat", None, character=character)
        return found

    def active_members(self, side: str) -> list[str]:
        """The side's members who may act now (standing and connected)."""
        return [c for c in self.sides[side] if self.participants[c].active]

    def fighting_members(self, side: str) -> list[str]:
        """The side's members who still count (umh 4.1.1, 4.3.3: within the grace too)."""
        return [c for c in self.sides[side] if self.participants[c].in_fight]

    def resolving(self) -> bool:
        """umh 2.1.3: a hit whose windows are all in is being resolved (no answer yet)."""
        return any(a.resolution_requested for a in self.actions.values())

    def awaiting_defense(self) -> bool:
        """umh 2.4.2 / A-100: an action with windows is still open or not yet resolved."""
        return any(a.has_windows for a in self.actions.values())

    def capacity(self, side: str) -> int:
        """umh 1.2.3: three places per side, plus one slot-raising skill's places."""
        return SIDE_SLOTS + self.slot_boosts.get(side, 0)

    def slots_used(self, side: str) -> int:
        """umh 1.2.5 / A-12: everyone who ever entered (fled and fallen too), plus the
        IRRUMPIR entries waiting out their veto window."""
        pending = sum(1 for j in self.pending_joins.values() if j.side == side)
        return len(self.sides[side]) + pending

    # --- (de)serialisation -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy that shares nothing mutable with this object."""
        data = {k: clone(v) for k, v in vars(self).items() if k not in NESTED}
        data.update(
            participants={k: v.to_dict() for k, v in self.participants.items()},
            settings=self.settings.to_dict(),
            turn=self.turn.to_dict() if self.turn else None,
            actions={k: v.to_dict() for k, v in self.actions.items()},
            timers={k: v.to_dict() for k, v in self.timers.items()},
            result=self.result.to_dict() if self.result else None,
            pending_joins={k: v.to_dict() for k, v in self.pending_joins.items()},
            interference=self.interference.to_dict() if self.interference else None,
            interference_queue=[i.to_dict() for i in self.interference_queue],
        )
        return data

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CombatState:
        names = {f.name for f in fields(cls)} - NESTED
        plain = {k: clone(v) for k, v in d.items() if k in names}
        turn, result, interference = d.get("turn"), d.get("result"), d.get("interference")
        plain.update(
            phase=Phase(d.get("phase", Phase.OPENING)),
            participants={k: Participant.from_dict(v) for k, v in d["participants"].items()},
            settings=Settings.from_dict(d["settings"]),
            turn=Turn.from_dict(turn) if turn is not None else None,
            actions={k: InFlight.from_dict(v) for k, v in d["actions"].items()},
            timers={k: ArmedTimer.from_dict(v) for k, v in d["timers"].items()},
            result=Result.from_dict(result) if result is not None else None,
            pending_joins={
                k: PendingJoin.from_dict(v) for k, v in d.get("pending_joins", {}).items()
            },
            interference=Interference.from_dict(interference) if interference else None,
            interference_queue=[Interference.from_dict(i) for i in d.get("interference_queue", [])],
        )
        return cls(**plain)
