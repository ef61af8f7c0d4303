"""One character's record of what outlives his combats: the state of services/states.

The runtime stores it as a JSON-ready dict; :class:`CharacterRecord` is its domain form.
Lists are bounded so that a character who fights for years keeps a small record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

MAX_COMBATS_SEEN: Final = 200
"""Ended combats remembered to refuse a redelivered ``combat.ended`` (or a late start)."""

MAX_HISTORY: Final = 100
"""History entries kept, newest last."""


@dataclass(frozen=True)
class HistoryEntry:
    """One line of the character's history: when, what, in which combat, and details."""

    at_ms: int
    kind: str
    combat_id: str
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "at_ms": self.at_ms,
            "kind": self.kind,
            "combat_id": self.combat_id,
            "detail": dict(self.detail),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HistoryEntry:
        return cls(
            at_ms=int(data["at_ms"]),
            kind=data["kind"],
            combat_id=data["combat_id"],
            detail=data.get("detail", {}),
        )


@dataclass(frozen=True)
class CharacterRecord:
    """Vigor lost, the combat he is in, the combats already settled, and his history."""

    tenant: str | None
    character: str
    vigor_lost: int = 0
    in_combat: str | None = None
    combats_seen: tuple[str, ...] = ()
    history: tuple[HistoryEntry, ...] = ()

    def has_seen(self, combat_id: str) -> bool:
        return combat_id in self.combats_seen

    def mark_seen(self, combat_id: str) -> CharacterRecord:
        return replace(self, combats_seen=(*self.combats_seen, combat_id)[-MAX_COMBATS_SEEN:])

    def remember(self, *entries: HistoryEntry) -> CharacterRecord:
        return replace(self, history=(*self.history, *entries)[-MAX_HISTORY:])

    def to_dict(self) -> dict[str, Any]:
        return {
            "tenant": self.tenant,
            "character": self.character,
            "vigor_lost": self.vigor_lost,
            "in_combat": self.in_combat,
            "combats_seen": list(self.combats_seen),
            "history": [entry.to_dict() for entry in self.history],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CharacterRecord:
        return cls(
            tenant=data.get("tenant"),
            character=data["character"],
            vigor_lost=int(data.get("vigor_lost", 0)),
            in_combat=data.get("in_combat"),
            combats_seen=tuple(data.get("combats_seen", ())),
            history=tuple(HistoryEntry.from_dict(e) for e in data.get("history", ())),
        )
