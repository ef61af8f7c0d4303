"""The services/states commands the gateway sends: post-combat effects, requirements and a
moderator's adjustments (umh 4.1.2 - 4.1.3, 4.4, 4.5, moderation)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from shared.payloads import ServicePayload


class ApplyPostCombat(ServicePayload):
    """``aftermath.post_combat``: a winner's post-combat effect on a defeated rival (umh 4.1.2,
    4.1.3, 4.5.1), with a skill or, to imprison, the actor's ``cell``. ``actor_sheet`` (his
    current sheet) is used only when the target's record lacks the combat's snapshot of him."""

    combat_id: str
    actor: str
    target: str
    skill: str | None = None
    cell: bool = False
    actor_sheet: dict[str, Any] | None = None


class ClaimRequirement(ServicePayload):
    """``aftermath.requirement``: a combat requirement for a character (umh 4.4). ``sheets``:
    current sheets of participants, used only where the record lacks the combat's snapshot."""

    combat_id: str
    character: str
    kind: Literal["general", "profile", "skill"]
    name: str | None = None
    sheets: dict[str, dict[str, Any]] = Field(default_factory=dict)


AdjustableState = Literal[
    "immunity",
    "room_ban",
    "irrumpir_ban",
    "flee_cooldown",
    "imprisonment",
    "vigor",
    "post_combat_state",
    "carried",
]


class AdjustStatus(ServicePayload):
    """``aftermath.moderate``: a moderator lifts or shortens a timed state, with a reason.

    ``key`` names which one: the room of a room ban, the cooldown (``flee`` or
    ``flee:<skill>``), the post-combat state; for ``carried`` (umh 4.1.7) ``vit`` or an
    effect (id or type), none for all of it, and ``vit`` sets the VIT he carries."""

    character: str
    kind: AdjustableState
    key: str | None = None
    lift: bool = False
    until_ms: int | None = None
    vit: int | None = Field(None, ge=1)
    reason: str = Field(min_length=1, max_length=500)
    moderator: str | None = None
