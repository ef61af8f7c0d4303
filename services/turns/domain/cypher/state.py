"""The cypher combat as services/turns keeps it (seed 001 ASALTO, ACCIÓN, INICIATIVA).

At the interface the state is a JSON-ready dict (the runtime stores it as is). Every entry
point parses it once with :meth:`CypherCombat.parse` (a new object: the input is never
changed), works on the typed combat and hands back :meth:`CypherCombat.to_dict`. A state
written before a field existed loads with that field's default; keys the platform keeps
beside the combat are carried over.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from shared.dice.combat import Dice
from shared.errors import RuleViolation
from shared.outcome import ArmedTimer
from shared.rulesets.cypher.conditions import OUT_OF_FIGHT, Condition
from shared.rulesets.cypher.sheet import CypherSheet
from shared.vocabulary import EndReason, Phase, Side


class TurnEnd(StrEnum):
    """Why a cypher turn ended (``turn.ended`` ``reason``)."""

    ACTED = "acted"
    PASSED = "passed"
    MOVED = "moved"
    FLED = "fled"
    TIMEOUT = "timeout"
    DOWN = "down"
    STUNNED = "stunned"
    RESUMED = "resumed"


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Pending(_Part):
    """The action being resolved (001 ACCIÓN): the turn waits for its ``action.resolved``."""

    action_id: str
    ends_turn: bool


class Turn(_Part):
    """The current turn: its actor and clock, whether he acted (one action, 001 ACCIÓN) and
    moved for free (B-20), the action in flight, dazed at its start (B-18)."""

    actor: str
    deadline_ms: int
    timer_id: str | None
    acted: bool = False
    free_moved: bool = False
    pending: Pending | None = None
    dazed_at_start: bool = False


class Settings(_Part):
    """The community settings copied at the start: the turn clock and B-23's reading."""

    turn_seconds: int
    literal_low_light: bool = False


class Result(_Part):
    """How the combat ended: the winning side (or none) and why."""

    winner: Side | None
    reason: EndReason


class CypherCombat(BaseModel):
    """The whole combat as turns owns it."""

    model_config = ConfigDict(extra="allow")

    id: str
    tenant: str
    room: str
    ruleset: str = "cypher"
    phase: Phase = Phase.FIGHTING
    round: int = 0
    sides: dict[Side, list[str]]
    order: list[str] = Field(default_factory=list)
    turn_index: int = 0
    turn: Turn | None = None
    turn_seq: int = 0
    initiative: dict[str, int] = Field(default_factory=dict)
    participants: dict[str, Condition]
    sheets: dict[str, CypherSheet]
    settings: Settings
    timers: dict[str, ArmedTimer] = Field(default_factory=dict)
    timer_seq: int = 0
    result: Result | None = None
    created_at_ms: int
    ended_at_ms: int | None = None
    reroll_next_round: bool = False
    defense_effort: dict[str, int] = Field(default_factory=dict)
    """B-7 on a defense roll: the Effort levels a PC put on his next Speed defense."""
    intrusions: dict[str, str] = Field(default_factory=dict)
    """B-12: a GM intrusion waiting for the character's next attack (its reason)."""
    dice: Dice | None = None

    @classmethod
    def parse(cls, data: dict[str, Any]) -> CypherCombat:
        return cls.model_validate(data)

    @field_serializer("sheets")
    def _sheets_as_given(self, sheets: dict[str, CypherSheet]) -> dict[str, Any]:
        return {character: sheet.as_given() for character, sheet in sheets.items()}

    def to_dict(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        for key in ("dice", "defense_effort", "intrusions"):
            if not data.get(key):
                data.pop(key, None)
        return data

    @property
    def ended(self) -> bool:
        return self.phase == Phase.ENDED

    def current_turn(self) -> Turn:
        assert self.turn is not None
        return self.turn

    def dice_of(self) -> Dice:
        assert self.dice is not None, "the handler puts the combat's dice in its state"
        return self.dice

    def side_out(self, side: Side) -> bool:
        """Every member of ``side`` is dead, debilitated or fled."""
        return all(self.participants[c].status in OUT_OF_FIGHT for c in self.sides[side])

    def fighter(self, character: str) -> Condition:
        """A participant who has not fled, or ``not_in_combat``."""
        found = self.participants.get(character)
        if found is None or found.status == "fled":
            raise RuleViolation("not_in_combat", "cypher ACCIÓN", character=character)
        return found
