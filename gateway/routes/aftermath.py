"""What outlives a combat (services/states): post-combat effects, combat requirements, a
moderator's adjustments, and a character's history (docs/api.md "Aftermath").

Like actions: the body is validated here, the command goes to services/states routed by a
room (the combat's, or ``character:<id>`` for a character's own commands) and the answer
waits for its commit; after 5 s it is 202 and the change shows in the history.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import ConfigDict, Field, StringConstraints, model_validator

from gateway.auth import Principal, current_principal, moderator
from gateway.context import Gateway, gateway
from gateway.dispatch import ids_for, raise_if_rejected
from gateway.errors import ApiError
from gateway.idempotency import Answer, idempotent, narrated
from gateway.ids import CombatId
from gateway.routes.characters import CharacterPath, load_sheet
from gateway.routes.combats import reader
from gateway.routes.settings import load_settings
from gateway.schemas.answers import AftermathAnswer, AftermathPending, History
from gateway.views import CombatReader, public_event
from shared.actions_base import CharacterId, SkillName
from shared.aftermath_commands import (
    AdjustableState,
    AdjustStatus,
    ApplyPostCombat,
    ClaimRequirement,
)
from shared.api_types import ApiModel, Bool, Int
from shared.messages import (
    CMD_CHARACTER,
    CMD_MODERATE,
    CMD_POST_COMBAT,
    CMD_REQUIREMENT,
)
from shared.payloads import (
    CharacterStatus,
)

router = APIRouter(tags=["aftermath"])

Name = Annotated[str, StringConstraints(min_length=1, max_length=80)]
Key = Annotated[str, StringConstraints(min_length=1, max_length=120)]


class PostCombatBody(ApiModel):
    """A winner's post-combat effect on a defeated rival (umh 4.1.2, 4.1.3, 4.5.1)."""

    model_config = ConfigDict(extra="forbid")

    actor: CharacterId
    target: CharacterId
    skill: SkillName | None = None
    cell: Bool = Field(False, description="imprison with the actor's cell (umh 4.5.1)")

    @model_validator(mode="after")
    def _skill_or_cell(self) -> PostCombatBody:
        if (self.skill is None) == (not self.cell):
            raise ValueError("name a post-combat skill, or cell: true to imprison (umh 4.5.1)")
        return self


class RequirementBody(ApiModel):
    """A combat requirement (umh 4.4): the general one, a profile's or a skill's."""

    model_config = ConfigDict(extra="forbid")

    character: CharacterId
    kind: Literal["general", "profile", "skill"]
    name: Name | None = None

    @model_validator(mode="after")
    def _named(self) -> RequirementBody:
        if (self.kind == "general") != (self.name is None):
            raise ValueError("a profile or skill requirement names it; the general one does not")
        return self


class AdjustBody(ApiModel):
    """A moderator lifts (``lift: true``) or shortens (``until``) one timed state, or sets
    the VIT a character carries into his next combat (``vit``, kind ``carried``, umh 4.1.7)."""

    model_config = ConfigDict(extra="forbid")

    kind: AdjustableState
    key: Key | None = Field(
        None,
        description="the room of a room ban, the cooldown (flee, flee:<skill>), the state; "
        "carried: vit or an effect (id or type), none for all",
    )
    room: Key | None = Field(None, description="same as key, for a room ban")
    lift: Bool = False
    until: datetime | None = None
    vit: Int | None = Field(None, ge=1, description="carried: the VIT he keeps (umh 4.1.7)")
    reason: Annotated[str, StringConstraints(min_length=1, max_length=500)]

    @model_validator(mode="after")
    def _lift_or_until(self) -> AdjustBody:
        if self.vit is not None and self.kind != "carried":
            raise ValueError("vit is set only on what a character carries (kind carried)")
        if [self.lift, self.until is not None, self.vit is not None].count(True) != 1:
            raise ValueError("either lift: true, a new until or (kind carried) a vit")
        if self.until is not None and self.until.tzinfo is None:
            raise ValueError("until needs a time zone (RFC 3339)")
        if self.kind == "room_ban" and not (self.key or self.room):
            raise ValueError("a room ban names its room")
        return self

    def command(self, character: str, moderator: str | None) -> AdjustStatus:
        """The ``aftermath.moderate`` command for services/states."""
        return AdjustStatus(
            character=character,
            kind=self.kind,
            key=self.key or self.room,
            lift=self.lift,
            until_ms=int(self.until.timestamp() * 1000) if self.until is not None else None,
            vit=self.vit,
            reason=self.reason,
            moderator=moderator,
        )


class CharacterCommandBody(ApiModel):
    """A ruleset's own command on a character out of combat, ``type`` = ``<ruleset>.<name>``
    (cypher: ``cypher.rest``); the other fields are the ruleset's (docs/api.md)."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [{"type": "cypher.rest", "distribution": ["might", "speed"]}]
        },
    )

    type: Annotated[str, StringConstraints(pattern=r"^[a-z0-9]{1,16}\.[a-z_]{1,40}$")]


async def states_view(gw: Gateway, tenant: str, character: str) -> dict[str, Any]:
    """The read model services/states publishes for a character (status and history)."""
    raw = await gw.redis.get(gw.keys.character("states", tenant, character).view)
    model = json.loads(raw) if raw else {}
    if "status" not in model:  # never seen, or a flat status written before this issue
        model = {"status": CharacterStatus.model_validate(model).model_dump(mode="json")}
    return {"status": model["status"], "history": model.get("history", [])}


async def to_states(
    gw: Gateway,
    *,
    type_: str,
    tenant: str,
    room: str,
    combat_id: str | None,
    key: str | None,
    payload: dict[str, Any],
    character: str,
) -> Answer:
    """Send one command to services/states and answer once it committed (202 after 5 s)."""
    correlation_id = ids_for(tenant, key, type_, "r")
    outcome = await gw.client.send(
        type_,
        payload,
        tenant=tenant,
        room=room,
        combat_id=combat_id,
        correlation_id=correlation_id,
        message_id=ids_for(tenant, key, f"{type_}-command", "m"),
    )
    raise_if_rejected(outcome)
    location = {"Location": f"/v1/characters/{character}/history"}
    if not outcome.complete:
        return Answer(202, {"correlation_id": correlation_id, "status": "pending"}, location)
    view = await states_view(gw, tenant, character)
    body = {
        "correlation_id": correlation_id,
        "character": character,
        "events": [public_event(e) for e in outcome.events],
        "status": view["status"],
    }
    return Answer(200, body, location)


AFTERMATH_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"model": AftermathAnswer, "description": "services/states committed it"},
    202: {"model": AftermathPending, "description": "still being processed (Location: history)"},
}


async def ended_combat(combats: CombatReader, combat_id: str, tenant: str) -> dict[str, Any]:
    """The combat, which must exist (404) and have ended (umh 4.1.3, 4.4: after the end)."""
    combat = await combats.view(combat_id, tenant)
    if combat is None:
        raise ApiError("not_found")
    if combat["phase"] != "ended":
        raise ApiError("wrong_phase", rule="umh 4.1.3", details={"phase": combat["phase"]})
    return combat


def participant(combat: dict[str, Any], character: str) -> None:
    if character not in combat.get("participants", {}):
        raise ApiError("not_in_combat", details={"character": character})


@router.post("/v1/combats/{combat_id}/post_combat", responses=AFTERMATH_ANSWERS)
async def post_combat(
    combat_id: CombatId,
    body: PostCombatBody,
    request: Request,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    combats: Annotated[CombatReader, Depends(reader)],
) -> JSONResponse:
    """A winner applies a post-combat effect to a defeated rival (umh 4.1.2, 4.1.3, 4.5.1)."""
    tenant = principal.community_id

    async def operation(key: str | None) -> Answer:
        combat = await ended_combat(combats, combat_id, tenant)
        participant(combat, body.actor)
        participant(combat, body.target)
        command = ApplyPostCombat(
            combat_id=combat_id,
            actor=body.actor,
            target=body.target,
            skill=body.skill,
            cell=body.cell,
            actor_sheet=await load_sheet(gw, tenant, body.actor),
        )
        return await to_states(
            gw,
            type_=CMD_POST_COMBAT,
            tenant=tenant,
            room=combat["room"],
            combat_id=combat_id,
            key=key,
            payload=command.model_dump(mode="json"),
            character=body.target,
        )

    return await idempotent(
        request,
        gw,
        tenant,
        body.model_dump(mode="json"),
        operation,
        present=narrated(request, gw, tenant),
    )


@router.post("/v1/combats/{combat_id}/requirements", responses=AFTERMATH_ANSWERS)
async def claim_requirement(
    combat_id: CombatId,
    body: RequirementBody,
    request: Request,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    combats: Annotated[CombatReader, Depends(reader)],
) -> JSONResponse:
    """A combat requirement earned in this combat (umh 4.4.1 - 4.4.5)."""
    tenant = principal.community_id

    async def operation(key: str | None) -> Answer:
        combat = await ended_combat(combats, combat_id, tenant)
        participant(combat, body.character)
        sheets = {}
        for character in combat.get("participants", {}):
            sheet = await load_sheet(gw, tenant, character)
            if sheet is not None:
                sheets[character] = sheet
        command = ClaimRequirement(
            combat_id=combat_id,
            character=body.character,
            kind=body.kind,
            name=body.name,
            sheets=sheets,
        )
        return await to_states(
            gw,
            type_=CMD_REQUIREMENT,
            tenant=tenant,
            room=combat["room"],
            combat_id=combat_id,
            key=key,
            payload=command.model_dump(mode="json"),
            character=body.character,
        )

    return await idempotent(
        request,
        gw,
        tenant,
        body.model_dump(mode="json"),
        operation,
        present=narrated(request, gw, tenant),
    )


@router.post("/v1/characters/{character_id}/status/adjust", responses=AFTERMATH_ANSWERS)
async def adjust_status(
    character_id: CharacterPath,
    body: AdjustBody,
    request: Request,
    principal: Annotated[Principal, Depends(moderator)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> JSONResponse:
    """Moderator only: lift or shorten a timed state, with a reason kept in the history."""
    tenant = principal.community_id

    async def operation(key: str | None) -> Answer:
        if await load_sheet(gw, tenant, character_id) is None:
            raise ApiError("not_found")
        command = body.command(character_id, principal.key_id)
        return await to_states(
            gw,
            type_=CMD_MODERATE,
            tenant=tenant,
            room=f"character:{character_id}",
            combat_id=None,
            key=key,
            payload=command.model_dump(mode="json"),
            character=character_id,
        )

    return await idempotent(
        request,
        gw,
        tenant,
        body.model_dump(mode="json"),
        operation,
        present=narrated(request, gw, tenant),
    )


@router.post("/v1/characters/{character_id}/commands", responses=AFTERMATH_ANSWERS)
async def character_command(
    character_id: CharacterPath,
    body: CharacterCommandBody,
    request: Request,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> JSONResponse:
    """A ruleset's own command on a character out of combat (cypher: a rest, 001 RECUPERAR),
    refereed by services/states; its sheet's ruleset must be the command's."""
    tenant = principal.community_id
    ruleset = body.type.split(".", 1)[0]

    async def operation(key: str | None) -> Answer:
        sheet = await load_sheet(gw, tenant, character_id)
        if sheet is None:
            raise ApiError("not_found")
        if sheet.get("ruleset") != ruleset:
            raise ApiError("ruleset_mismatch", details={"expected": sheet.get("ruleset")})
        return await to_states(
            gw,
            type_=CMD_CHARACTER,
            tenant=tenant,
            room=f"character:{character_id}",
            combat_id=None,
            key=key,
            payload={
                "ruleset": ruleset,
                "character": character_id,
                "moderator": principal.is_moderator,
                "sheet": sheet,
                "settings": (await load_settings(gw, tenant)).model_dump(mode="json"),
                "command": body.model_dump(mode="json"),
            },
            character=character_id,
        )

    return await idempotent(
        request,
        gw,
        tenant,
        body.model_dump(mode="json"),
        operation,
        present=narrated(request, gw, tenant),
    )


@router.get("/v1/characters/{character_id}/history", responses={200: {"model": History}})
async def character_history(
    character_id: CharacterPath,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> dict[str, Any]:
    """Every change to the character's aftermath with its rule and reason, oldest first
    (moderators' adjustments included); the last 100 are kept."""
    tenant = principal.community_id
    if await load_sheet(gw, tenant, character_id) is None:
        raise ApiError("not_found")
    view = await states_view(gw, tenant, character_id)
    return {"character": character_id, "history": view["history"]}
