"""What services/states keeps of one l5r character between combats (seed 004 "Vacío"): his
Void pool as his last combat left it and when, his Void ring, Alentar received today (C-5).

At the interface the record is a JSON-ready dict; every entry point parses it once
(:meth:`L5rRecord.parse`, a new object) and dumps it once. A record written before a field
existed loads with its default; keys the runtime keeps beside the record are carried over.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from services.states.domain.lines import HistoryLine, appended

HISTORY_MAX: Final = 100


class Alentar(BaseModel):
    """Alentar received (C-5, per day): on which UTC day, how many points."""

    model_config = ConfigDict(extra="ignore")

    day: int
    received: int = 0


class L5rRecord(BaseModel):
    """One l5r character of one community; ``void_points`` is None until a combat gave him a
    pool."""

    model_config = ConfigDict(extra="allow")

    ruleset: str | None = "l5r"
    """None: another ruleset's record (umh keeps none) that an l5r combat touched."""
    character: str = ""
    history: list[HistoryLine] = Field(default_factory=list)
    void_points: int | None = None
    void_at_ms: int | None = None
    void_max: int | None = None
    in_combat: str | None = None
    alentar: Alentar | None = None

    @classmethod
    def parse(cls, data: dict[str, Any]) -> L5rRecord:
        return cls.model_validate({"ruleset": None, **data})

    def to_dict(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        for key in ("ruleset", "void_points", "void_at_ms", "void_max", "alentar"):
            if data.get(key) is None:
                data.pop(key, None)
        return data

    @property
    def has_pool(self) -> bool:
        return self.void_points is not None and self.void_max is not None

    def note(self, line: dict[str, Any]) -> None:
        """A line of his history (the last :data:`HISTORY_MAX` are kept)."""
        self.history = appended(self.history, HistoryLine(**line), HISTORY_MAX)
