"""What a combat leaves on one character: entering it, and its end (umh 4.1).

Pure functions ``record + fact -> new record (+ events)``; ``None`` means nothing changed,
so a redelivered or out-of-order fact is harmless.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from services.states.domain.record import CharacterRecord, HistoryEntry
from shared.messages import AFTERMATH_APPLIED, Event

VIGOR_LOST_AT_ZERO_VIT = 1
"""umh 4.1.4: by default, reaching 0 VIT in a combat costs 1 vigor point."""


@dataclass(frozen=True)
class CombatEntered:
    """The character entered a combat: at its start (``combat.started``) or by joining."""

    combat_id: str
    side: str
    at_ms: int
    kind: str  # "combat_started" | "combatant_joined"


@dataclass(frozen=True)
class ParticipantOutcome:
    side: str
    status: str
    reached_zero_vit: bool


@dataclass(frozen=True)
class CombatOutcome:
    """The domain form of ``combat.ended``."""

    combat_id: str
    winner: str | None
    reason: str
    participants: Mapping[str, ParticipantOutcome]
    ended_at_ms: int


def enter_combat(record: CharacterRecord, entered: CombatEntered) -> CharacterRecord | None:
    """umh 1.2.1, 1.2.4: the character is in ``combat_id`` from his start or his entry.

    Nothing changes if he is already marked in it, or if that combat already ended for him
    (a late or redelivered start must not put him back in a finished combat).
    """
    if record.in_combat == entered.combat_id or record.has_seen(entered.combat_id):
        return None
    entry = HistoryEntry(entered.at_ms, entered.kind, entered.combat_id, {"side": entered.side})
    return replace(record, in_combat=entered.combat_id).remember(entry)


def vigor_cost(outcome: ParticipantOutcome) -> int:
    """umh 4.1.4: 1 vigor point if his VIT reached 0 during the combat, else 0."""
    return VIGOR_LOST_AT_ZERO_VIT if outcome.reached_zero_vit else 0


def end_combat(
    record: CharacterRecord, ended: CombatOutcome
) -> tuple[CharacterRecord, list[Event]] | None:
    """umh 4.1.4, 4.1.7: leave the combat and pay its vigor cost, once per combat.

    A combat already settled for him changes nothing. A character who is not among its
    participants only leaves it (if the record still had him in it).
    """
    if record.has_seen(ended.combat_id):
        return None
    outcome = ended.participants.get(record.character)
    left = replace(record, in_combat=None) if record.in_combat == ended.combat_id else record
    if outcome is None:
        return (left, []) if left is not record else None
    cost = vigor_cost(outcome)
    detail: dict[str, Any] = {"winner": ended.winner, "reason": ended.reason, "side": outcome.side}
    detail.update(status=outcome.status, reached_zero_vit=outcome.reached_zero_vit)
    entries = [HistoryEntry(ended.ended_at_ms, "combat_ended", ended.combat_id, detail)]
    settled = replace(left, vigor_lost=left.vigor_lost + cost).mark_seen(ended.combat_id)
    if not cost:
        return settled.remember(*entries), []
    entries.append(vigor_entry(ended, cost))
    return settled.remember(*entries), [vigor_event(settled, ended.combat_id, cost)]


def vigor_entry(ended: CombatOutcome, cost: int) -> HistoryEntry:
    """umh 4.1.7: the vigor lost is written in the character's record."""
    detail = {"vigor_lost_delta": cost, "reason": "reached_zero_vit", "rule": "umh 4.1.4"}
    return HistoryEntry(ended.ended_at_ms, "vigor_lost", ended.combat_id, detail)


def vigor_event(record: CharacterRecord, combat_id: str, cost: int) -> Event:
    """umh 4.1.4: ``aftermath.applied`` with the delta and the new total."""
    return Event(
        AFTERMATH_APPLIED,
        {
            "character": record.character,
            "combat_id": combat_id,
            "vigor_lost_delta": cost,
            "vigor_lost": record.vigor_lost,
            "reason": "reached_zero_vit",
            "rule": "umh 4.1.4",
        },
    )
