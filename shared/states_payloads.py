"""Payloads of services/states: the aftermath gates asked before a start, a join or a
flight, a character's status, and the end of a combat as states reads it. Re-exported by
:mod:`shared.payloads`, where the other services' payloads are."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from shared.carried import Carried
from shared.payload_base import ServicePayload
from shared.vocabulary import EndReason, PublicStatus, Side


class StatesCheck(ServicePayload):
    """``states.check``: the gateway asks services/states before a combat starts, someone
    joins or someone flees (umh 1.1.1.2, 4.2, 4.5). Read-only: nothing is committed."""

    purpose: Literal["start", "join", "flee"]
    ruleset: str = "umh"
    combat_id: str | None = None
    characters: list[str] = Field(min_length=1, max_length=16)
    attacker: str | None = None
    defenders: list[str] = Field(default_factory=list)
    challenge: bool = False
    via: Literal["irrumpir", "llamada_de_auxilio", "skill"] | None = None
    skill: str | None = None


class Refusal(ServicePayload):
    character: str
    code: str
    rule: str | None = None
    until: str | None = None


class StatesChecked(ServicePayload):
    """``states.checked``: the answer; the first refusal becomes the request's 422."""

    allowed: bool
    refusals: list[Refusal] = Field(default_factory=list)
    weekly_uses: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="umh 2.3.4.2: uses this week, per character and skill"
    )
    prisoner_challenge: bool = Field(
        False, description="umh 4.5.4: the attacker is a prisoner challenging his captors"
    )
    carried: dict[str, Carried] = Field(
        default_factory=dict, description="umh 4.1.7: what each one carries from his last combat"
    )


class RoomBan(ServicePayload):
    room: str
    until: str


class CharacterStatus(ServicePayload):
    """docs/api.md ``GET /v1/characters/{id}/status``: what outlives a combat (services/states)."""

    in_combat: str | None = None
    vigor_lost: int = 0
    immune_until: str | None = None
    room_bans: list[RoomBan] = Field(default_factory=list)
    intrude_banned_until: str | None = None
    cooldowns: dict[str, str] = Field(default_factory=dict)
    imprisoned_until: str | None = None
    weekly_uses: dict[str, int] = Field(default_factory=dict)
    requirements_earned: list[dict[str, Any]] = Field(default_factory=list)
    post_combat_states: list[dict[str, Any]] = Field(
        default_factory=list, description="umh 4.1.2, 4.3.1: {state, by, combat_id, until}"
    )
    vigor_recovers_at: str | None = Field(None, description="umh 4.1.6: all lost points at once")
    carried: dict[str, Any] | None = Field(
        None,
        description="umh 4.1.7: what he takes into his next combat "
        "{combat_id, vit, vit_max, effects, recovers_at}",
    )
    ruleset_status: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="what a ruleset keeps besides, by ruleset name"
    )


class CombatEndedParticipant(ServicePayload):
    side: Side
    status: PublicStatus
    reached_zero_vit: bool = False
    rank: int | None = None
    alliance: str | None = None


class CombatEnded(ServicePayload):
    """``combat.ended``: turns -> everyone (states applies the aftermath).

    ``reason``: ``defeat`` (a side all down or out, umh 4.1.1.2), ``fled`` (a side all fled
    or down, 4.1.1.1), ``pact`` (4.1.1.3), ``stalemate`` (2.3.3.1: both sides lose),
    ``disconnected`` (a side out after the grace, 4.3.3), ``annulled`` (a moderator, 4.2.4).
    """

    combat_id: str
    ruleset: str
    winner: Side | None
    reason: EndReason
    participants: dict[str, CombatEndedParticipant]
    ended_at_ms: int
    room: str | None = None
    annul_reason: str | None = None
    dice_seed: str | None = Field(None, description="the combat's dice seed, revealed")
