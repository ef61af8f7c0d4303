"""The l5r combat as services/turns keeps it (seed 004 "Resolución de combate").

At the interface the state is a JSON-ready dict (the runtime stores it as is). Every entry
point parses it once with :meth:`L5rCombat.parse` (a new object: the input is never changed),
works on the typed combat and hands back :meth:`L5rCombat.to_dict`. A state written before a
field existed loads with that field's default; keys the platform keeps beside the combat are
carried over. The combatants are :class:`~services.turns.domain.l5r.fighter.Fighter`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from services.turns.domain.l5r.fighter import Fighter
from shared.dice.combat import Dice
from shared.errors import RuleViolation
from shared.outcome import ArmedTimer
from shared.rulesets.l5r.actions import Protect
from shared.rulesets.l5r.settings import L5rSettings
from shared.vocabulary import SIDES, EndReason, Phase, Side

RULESET: Final = "l5r"


class TurnEnd(StrEnum):
    """Why an l5r turn ended (``turn.ended`` ``reason``)."""

    PASS = "pass"
    TIMEOUT = "timeout"
    GOLPE_FINAL = "golpe_final"
    FLED = "fled"


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Turn(_Part):
    """Paso 2: whose turn it is, whether his stance came first, its clock."""

    actor: str
    stance_declared: bool = False
    timer_id: str | None = None
    deadline_ms: int | None = None


class PendingAttack(_Part):
    """The attack being resolved: the turn waits for its ``action.resolved``."""

    action_id: str
    attacker: str
    target: str
    protect: Protect | None = None


class Settings(L5rSettings):
    """The community settings copied at the start: the clocks and the readings of docs/rules.md
    6.3 marked "config"."""

    model_config = ConfigDict(extra="ignore")

    turn_seconds: int
    preparation_seconds: int


class Result(_Part):
    """How the combat ended (Paso 3)."""

    winner: Side | None
    reason: EndReason
    annul_reason: str | None = None


class L5rCombat(BaseModel):
    """The whole combat as turns owns it."""

    model_config = ConfigDict(extra="allow")

    id: str
    tenant: str
    room: str
    ruleset: str = RULESET
    phase: Phase = Phase.PREPARATION
    round: int = 0
    order: list[str] = Field(default_factory=list)
    turn_index: int = -1
    turn_seq: int = 0
    turn: Turn | None = None
    sides: dict[Side, list[str]]
    participants: dict[str, Fighter]
    settings: Settings
    timers: dict[str, ArmedTimer] = Field(default_factory=dict)
    timer_seq: int = 0
    pending: PendingAttack | None = None
    swap_offers: dict[str, str] = Field(default_factory=dict)
    swap_open: bool = True
    result: Result | None = None
    created_at_ms: int
    ended_at_ms: int | None = None
    resolved: list[str] = Field(default_factory=list)
    phase_deadline_ms: int | None = None
    dice: Dice | None = None

    @classmethod
    def parse(cls, data: dict[str, Any]) -> L5rCombat:
        return cls.model_validate(data)

    def to_dict(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        if data.get("dice") is None:
            data.pop("dice", None)
        return data

    @property
    def ended(self) -> bool:
        return self.phase == Phase.ENDED

    def dice_of(self) -> Dice:
        assert self.dice is not None, "the handler puts the combat's dice in its state"
        return self.dice

    def current_turn(self) -> Turn:
        assert self.turn is not None
        return self.turn

    def participant(self, cid: str) -> Fighter:
        found = self.participants.get(cid)
        if found is None:
            raise RuleViolation("not_in_combat", None, character=cid)
        return found

    def opponents(self, cid: str) -> list[str]:
        side = self.participants[cid].side
        return [c for c, p in self.participants.items() if p.side != side]

    def beaten(self) -> list[Side]:
        """A side none of whose members can fight (all Down, Out, dead or gone)."""
        return [
            side
            for side in SIDES
            if not any(p.can_fight for p in self.participants.values() if p.side == side)
        ]
