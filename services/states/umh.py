"""The umh ruleset of services/states (seed 000): what outlives a combat for a character."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from services.states.domain import gates
from services.states.domain.aftermath import (
    CombatEntered,
    CombatOutcome,
    ParticipantOutcome,
    end_combat,
    enter_combat,
)
from services.states.domain.record import CharacterRecord
from services.states.domain.status import status_body
from services.states.ruleset import State
from shared.domain import Decision
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, COMBATANT_JOINED, Event
from shared.payloads import CombatEnded, StatesCheck, StatesChecked


def side_of(character: str, sides: Mapping[str, list[str]]) -> str | None:
    """The side (``attackers`` / ``defenders``) that lists ``character``, if any."""
    return next((side for side, members in sides.items() if character in members), None)


def combat_entered(
    character: str, event_type: str, payload: Mapping[str, Any], now_ms: int
) -> CombatEntered | None:
    """``combat.started`` or ``combatant.joined`` as seen by ``character`` (None: not his)."""
    if event_type == COMBAT_STARTED:
        side = side_of(character, payload["sides"])
        at_ms = int(payload.get("started_at_ms", now_ms))
        kind = "combat_started"
    else:
        side = payload["side"] if payload["character"] == character else None
        at_ms, kind = now_ms, "combatant_joined"
    if side is None:
        return None
    if "combat_id" not in payload:
        raise ValueError(f"{event_type} payload has no combat_id")
    return CombatEntered(combat_id=payload["combat_id"], side=side, at_ms=at_ms, kind=kind)


def combat_outcome(payload: Mapping[str, Any]) -> CombatOutcome:
    """Validate ``combat.ended`` at the boundary and take its domain form."""
    msg = CombatEnded.model_validate(payload)
    return CombatOutcome(
        combat_id=msg.combat_id,
        winner=msg.winner,
        reason=msg.reason,
        participants={
            cid: ParticipantOutcome(p.side, p.status, p.reached_zero_vit)
            for cid, p in msg.participants.items()
        },
        ended_at_ms=msg.ended_at_ms,
    )


class UmhAftermath:
    """:class:`services.states.ruleset.AftermathRuleset` for ``umh``."""

    name: str = "umh"

    def on_event(
        self,
        state: State | None,
        character: str,
        event_type: str,
        payload: dict[str, Any],
        *,
        now_ms: int,
    ) -> Decision[State]:
        """Entering a combat marks it; its end settles vigor (umh 4.1.4) once per combat.

        Keys the runtime keeps in the state beside the record are carried over unchanged.
        """
        record = CharacterRecord.from_dict(state) if state else None
        outcome: tuple[CharacterRecord, list[Event]] | None = None
        if event_type in (COMBAT_STARTED, COMBATANT_JOINED):
            changed = on_entered(record, character, event_type, payload, now_ms)
            outcome = (changed, []) if changed else None
        elif event_type == COMBAT_ENDED:
            outcome = on_ended(record, character, payload)
        if outcome is None:
            return Decision(None)
        return Decision({**(state or {}), **outcome[0].to_dict()}, outcome[1])

    def check(
        self,
        states: dict[str, State | None],
        query: StatesCheck,
        *,
        ended_combats: set[str],
        now_ms: int,
    ) -> StatesChecked:
        """``states.check`` (umh 1.1.1.2, 4.2, 4.5): the gates before starting or joining."""
        records = {c: CharacterRecord.from_dict(s) if s else None for c, s in states.items()}
        return gates.check(records, query, ended_combats=ended_combats, now_ms=now_ms)

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        """API.md ``GET /v1/characters/{id}/status``."""
        return status_body(CharacterRecord.from_dict(state) if state else None)


def on_entered(
    record: CharacterRecord | None,
    character: str,
    event_type: str,
    payload: Mapping[str, Any],
    now_ms: int,
) -> CharacterRecord | None:
    """``combat.started`` / ``combatant.joined``: the record once he is in the combat."""
    entered = combat_entered(character, event_type, payload, now_ms)
    if entered is None:
        return None
    return enter_combat(with_tenant(record, character, payload.get("tenant")), entered)


def on_ended(
    record: CharacterRecord | None, character: str, payload: Mapping[str, Any]
) -> tuple[CharacterRecord, list[Event]] | None:
    """``combat.ended``: the settled record and its ``aftermath.applied`` events."""
    outcome = combat_outcome(payload)
    if record is None and character not in outcome.participants:
        return None
    return end_combat(with_tenant(record, character, None), outcome)


def with_tenant(
    record: CharacterRecord | None, character: str, tenant: str | None
) -> CharacterRecord:
    """The record (a new one for a character never seen), with the tenant once known."""
    if record is None:
        return CharacterRecord(tenant=tenant, character=character)
    if record.tenant is None and tenant is not None:
        return replace(record, tenant=tenant)
    return record
