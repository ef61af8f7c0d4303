"""Payloads of the messages between the gateway and the services, and between services.

These pydantic models are the contract at the boundary; domains convert them to their own
dataclasses. Field names are the ones frontends see in events and in the combat log.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from shared.actions import Action
from shared.settings import CommunitySettings


class _Payload(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Opening(_Payload):
    """How the combat opens (umh 1.1.1): a challenge or an offensive skill."""

    kind: Literal["challenge", "skill"]
    skill: str | None = None
    targets: list[str] = Field(default_factory=list)


class StartCombat(_Payload):
    """``combat.start``: gateway -> turns. Sheets are snapshots taken at the start."""

    combat_id: str
    ruleset: str
    attacker: str
    defenders: list[str]
    opening: Opening
    positions: dict[str, tuple[int, int]] | None = None
    sheets: dict[str, dict[str, Any]]
    settings: CommunitySettings
    moderator: bool = False
    weekly_uses: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="umh 2.3.4.2: from services/states at the start"
    )
    prisoner_challenge: bool = Field(False, description="umh 4.5.4 (from services/states)")


class ActOnCombat(_Payload):
    """``combat.act``: gateway -> turns, one action of API.md "Actions"."""

    action_id: str = Field(pattern=r"^a_[0-9a-f]{32}$")
    action: Action
    if_match: int | None = None
    moderator: bool = False
    # For a join: the joiner's sheet snapshot and what services/states answered.
    sheet: dict[str, Any] | None = None
    weekly_uses: dict[str, int] = Field(default_factory=dict)


class TimerFired(_Payload):
    """``timer.fired``: the scheduler -> the service that armed the timer."""

    timer_id: str
    kind: str
    due_ms: int
    data: dict[str, Any] = Field(default_factory=dict)


class ReactionChoice(_Payload):
    """How one target answered (or did not answer) an action."""

    skill: str | None = None
    resist: bool = False
    timed_out: bool = False


class ResolutionRequested(_Payload):
    """``resolution.requested``: turns -> resolution, once every reaction is in."""

    action_id: str
    attacker: str
    skill: str
    targets: list[str]
    reactions: dict[str, ReactionChoice] = Field(default_factory=dict)
    round: int = 0


class StatesCheck(_Payload):
    """``states.check``: the gateway asks services/states before a combat starts, someone
    joins or someone flees (umh 1.1.1.2, 4.2, 4.5). Read-only: nothing is committed."""

    purpose: Literal["start", "join", "flee"]
    combat_id: str | None = None
    characters: list[str] = Field(min_length=1, max_length=16)
    attacker: str | None = None
    defenders: list[str] = Field(default_factory=list)
    challenge: bool = False
    via: Literal["irrumpir", "llamada_de_auxilio", "skill"] | None = None
    skill: str | None = None


class Refusal(_Payload):
    character: str
    code: str
    rule: str | None = None
    until: str | None = None


class StatesChecked(_Payload):
    """``states.checked``: the answer; the first refusal becomes the request's 422."""

    allowed: bool
    refusals: list[Refusal] = Field(default_factory=list)
    weekly_uses: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="umh 2.3.4.2: uses this week, per character and skill"
    )
    prisoner_challenge: bool = Field(
        False, description="umh 4.5.4: the attacker is a prisoner challenging his captors"
    )


class RoomBan(_Payload):
    room: str
    until: str


class CharacterStatus(_Payload):
    """API.md ``GET /v1/characters/{id}/status``: what outlives a combat (services/states)."""

    in_combat: str | None = None
    vigor_lost: int = 0
    immune_until: str | None = None
    room_bans: list[RoomBan] = Field(default_factory=list)
    intrude_banned_until: str | None = None
    cooldowns: dict[str, str] = Field(default_factory=dict)
    imprisoned_until: str | None = None
    weekly_uses: dict[str, int] = Field(default_factory=dict)
    requirements_earned: list[dict[str, Any]] = Field(default_factory=list)


class CombatEndedParticipant(_Payload):
    side: Literal["attackers", "defenders"]
    status: Literal["active", "down", "fled", "disconnected"]
    reached_zero_vit: bool = False


class CombatEnded(_Payload):
    """``combat.ended``: turns -> everyone (states applies the aftermath)."""

    combat_id: str
    ruleset: str
    winner: Literal["attackers", "defenders"] | None
    reason: str
    participants: dict[str, CombatEndedParticipant]
    ended_at_ms: int
