"""What services/states keeps of one cypher character between combats (seed 001 RECUPERAR):
his pools and track as his last combat left them, the rests of the day, the rest running.

At the interface the record is a JSON-ready dict; every entry point parses it once
(:meth:`CypherRecord.parse`, a new object) and dumps it once (:meth:`CypherRecord.to_dict`).
A record written before a field existed loads with its default; keys the runtime keeps
beside the record are carried over.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from services.states.domain.lines import HistoryLine, appended
from shared.rulesets.cypher.damage import Track
from shared.rulesets.cypher.sheet import Pools, Stat

HISTORY_MAX: Final = 100


class Rest(BaseModel):
    """A rest running (docs/rules.md 7.1 W14): its number in the day, when it started and ends,
    its roll's seed (committed when it started, B-8) and what the player asked for."""

    model_config = ConfigDict(extra="ignore")

    number: int
    started_ms: int
    due_ms: int
    seed: str
    commitment: str
    special_damage: bool = False
    distribution: list[Stat] = Field(default_factory=list)


class Disease(BaseModel):
    """A disease he carries (001 DAÑO ESPECIAL, enfermedad): its level, what a failed day
    does, his Armor when he caught it, when the next day's roll is due and its seed."""

    model_config = ConfigDict(extra="ignore")

    name: str
    level: int
    damage: int = 0
    steps: int = 0
    armor: int = 0
    next_ms: int
    seed: str
    commitment: str
    rolls: int = 0


class CypherRecord(BaseModel):
    """One cypher character of one community, as services/states keeps him."""

    model_config = ConfigDict(extra="allow")

    ruleset: str | None = "cypher"
    """None: another ruleset's record (umh keeps none) that a cypher combat touched."""
    character: str = ""
    in_combat: str | None = None
    pools: Pools | None = None
    pools_max: Pools | None = None
    tier: int = 1
    special_steps: int = 0
    track: int = 0
    track_name: Track = Track.UNHURT
    day: int | None = None
    rests_today: int = 0
    resting: Rest | None = None
    diseases: list[Disease] = Field(default_factory=list)
    history: list[HistoryLine] = Field(default_factory=list)
    day_boundary_minutes: int | None = None

    @classmethod
    def parse(cls, data: dict[str, Any]) -> CypherRecord:
        return cls.model_validate({"ruleset": None, **data})

    def to_dict(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        for key in ("ruleset", "day_boundary_minutes"):
            if data.get(key) is None:
                data.pop(key, None)
        if not data.get("diseases"):
            data.pop("diseases", None)
        return data

    def note(self, at_ms: int, change: str, **fields: Any) -> None:
        """A line of his history (the last :data:`HISTORY_MAX` are kept)."""
        line = HistoryLine(at_ms=at_ms, change=change, **fields)
        self.history = appended(self.history, line, HISTORY_MAX)
