"""docs/api.md "Fields": start, read, list, and the audit log."""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import ConfigDict, Field, StringConstraints, model_validator

from gateway.auth import Principal, current_principal, reading_principal
from gateway.context import Gateway, gateway
from gateway.dispatch import ids_for, raise_if_rejected
from gateway.errors import ApiError
from gateway.field_errors import found_error
from gateway.gates import ask_states
from gateway.idempotency import Answer, idempotent
from gateway.ids import CombatId
from gateway.narration import storyteller
from gateway.paging import CursorParam, LimitParam, decode_cursor, encode_cursor
from gateway.player_view import maxima_of, player_combat, player_event
from gateway.principal import View
from gateway.routes.characters import load_sheet
from gateway.routes.settings import load_settings
from gateway.schemas.answers import Combat, CombatPage, CombatPending, LogPage
from gateway.views import CombatReader, public_event
from shared.actions_base import CharacterId, Square
from shared.api_types import ApiModel, Int
from shared.messages import CMD_COMBAT_START
from shared.payloads import Opening, StartCombat, StatesCheck, StatesChecked, Terrain
from shared.redis_streams import parse_stream_id, text
from shared.rulesets.registry import RulesetName
from shared.settings import CommunitySettings

router = APIRouter(prefix="/v1/combats", tags=["combats"])

Room = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]


class OpeningBody(ApiModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["challenge", "skill"]
    skill: Annotated[str, StringConstraints(min_length=1, max_length=80)] | None = None
    targets: list[CharacterId] = Field(default_factory=list, max_length=8)

    @model_validator(mode="after")
    def _skill_named(self) -> OpeningBody:
        if self.kind == "skill" and not self.skill:
            raise ValueError("a skill opening names its skill (umh 1.1.1.1)")
        if self.kind == "challenge" and (self.skill or self.targets):
            raise ValueError("a challenge names no skill nor targets (umh 1.1.1.2)")
        return self


class TerrainBody(ApiModel):
    """umh 11.6.1: the room of a combat on a grid; a push stops at its edge and obstacles."""

    model_config = ConfigDict(extra="forbid")

    size: tuple[Int, Int] | None = Field(
        None, description="[width, height] in squares: columns 0..width-1, rows 0..height-1"
    )
    obstacles: list[Square] = Field(
        default_factory=list, max_length=500, description="squares no one can walk on"
    )

    @model_validator(mode="after")
    def _inside(self) -> TerrainBody:
        if self.size is not None and not all(1 <= n <= 1000 for n in self.size):
            raise ValueError("the room measures 1 to 1000 squares a side (umh 11.6.1)")
        if self.size is not None and any(not _within(s, self.size) for s in self.obstacles):
            raise ValueError("an obstacle lies outside the room (umh 11.6.1)")
        return self


def _within(square: tuple[int, int], size: tuple[int, int]) -> bool:
    return 0 <= square[0] < size[0] and 0 <= square[1] < size[1]


class StartCombatBody(ApiModel):
    model_config = ConfigDict(extra="forbid")

    room: Room
    ruleset: RulesetName
    attacker: CharacterId
    defenders: list[CharacterId] = Field(min_length=1, max_length=8)
    opening: OpeningBody
    positions: dict[CharacterId, Square] | None = Field(None, max_length=32)
    terrain: TerrainBody | None = Field(
        None, description="umh 11.6.1: the room's size and obstacles (a combat on a grid)"
    )

    @model_validator(mode="after")
    def _terrain_fits(self) -> StartCombatBody:
        if self.terrain is None:
            return self
        if self.positions is None:
            raise ValueError("a terrain needs positions: a combat on a grid (umh 11.6.1)")
        blocked = set(self.terrain.obstacles)
        size = self.terrain.size
        for square in self.positions.values():
            if square in blocked or (size is not None and not _within(square, size)):
                raise ValueError("a fighter stands on an obstacle or outside the room")
        return self

    def gate(self, combat_id: str) -> StatesCheck:
        """What services/states is asked before the start (umh 1.1.1.2, 4.2, 4.5)."""
        return StatesCheck(
            purpose="start",
            ruleset=self.ruleset,
            combat_id=combat_id,
            characters=[self.attacker, *self.defenders],
            attacker=self.attacker,
            defenders=self.defenders,
            challenge=self.opening.kind == "challenge",
        )

    def command(
        self,
        combat_id: str,
        sheets: dict[str, dict[str, Any]],
        settings: CommunitySettings,
        gate: StatesChecked,
        *,
        moderator: bool,
    ) -> StartCombat:
        """The ``combat.start`` command: the body, the sheets' snapshot and the gate's answer."""
        return StartCombat(
            combat_id=combat_id,
            ruleset=self.ruleset,
            attacker=self.attacker,
            defenders=self.defenders,
            opening=Opening.model_validate(self.opening.model_dump()),
            positions=self.positions,
            terrain=Terrain.model_validate(self.terrain.model_dump()) if self.terrain else None,
            sheets=sheets,
            settings=settings,
            moderator=moderator,
            weekly_uses=gate.weekly_uses,
            prisoner_challenge=gate.prisoner_challenge,
            carried=gate.carried,
        )


async def reader(gw: Annotated[Gateway, Depends(gateway)]) -> CombatReader:
    return CombatReader(gw.redis, gw.keys)


@router.post(
    "",
    status_code=201,
    responses={
        201: {"model": Combat, "description": "started"},
        202: {"model": CombatPending, "description": "still being processed: poll Location"},
    },
)
async def start_combat(
    body: StartCombatBody,
    request: Request,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    combats: Annotated[CombatReader, Depends(reader)],
) -> JSONResponse:
    """Start a combat: an out-of-combat attack or a challenge (umh 1.1.1)."""
    tenant = principal.community_id

    async def operation(key: str | None) -> Answer:
        sheets: dict[str, dict[str, Any]] = {}
        for character in [body.attacker, *body.defenders]:
            sheet = await load_sheet(gw, tenant, character)
            if sheet is None:
                raise ApiError("unknown_character", details={"character": character})
            sheets[character] = sheet
        settings = await load_settings(gw, tenant)
        combat_id = ids_for(tenant, key, "combat", "c")
        gate = await ask_states(
            gw.client, tenant=tenant, room=body.room, query=body.gate(combat_id)
        )
        command = body.command(combat_id, sheets, settings, gate, moderator=principal.is_moderator)
        outcome = await gw.client.send(
            CMD_COMBAT_START,
            command.model_dump(mode="json"),
            tenant=tenant,
            room=body.room,
            combat_id=combat_id,
            correlation_id=ids_for(tenant, key, "combat-correlation", "r"),
            message_id=ids_for(tenant, key, "combat-command", "m"),
        )
        raise_if_rejected(outcome)
        location = {"Location": f"/v1/combats/{combat_id}"}
        combat = await combats.view(combat_id, tenant)
        if not outcome.complete or combat is None:
            return Answer(202, {"id": combat_id, "status": "pending"}, location)
        started = int(outcome.events[0].occurred_at.timestamp() * 1000) if outcome.events else 0
        async with gw.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(gw.keys.combats_index(tenant), {combat_id: started}, nx=True)
            pipe.zadd(gw.keys.room_index(tenant, body.room), {combat_id: started}, nx=True)
            pipe.zadd(gw.keys.rooms_index(tenant), {body.room: 0}, nx=True)
            await pipe.execute()
        return Answer(201, fill_vitality(combat, sheets, gate), location)

    return await idempotent(request, gw, tenant, body.model_dump(mode="json"), operation)


def fill_vitality(
    combat: dict[str, Any], sheets: dict[str, dict[str, Any]], gate: StatesChecked
) -> dict[str, Any]:
    """umh: before resolution has read the sheets, everyone has his whole VIT or what he
    carries from his last combat (4.1.7; the other rulesets have no VIT: their own fields
    come from their services)."""
    for cid, part in combat.get("participants", {}).items():
        stats = sheets.get(cid, {}).get("stats")
        if part.get("vit") is None and isinstance(stats, dict) and "vit" in stats:
            carried = gate.carried.get(cid)
            vit = stats["vit"]
            if carried is not None and carried.vit is not None:
                vit = min(vit, carried.vit)
            part["vit"], part["vit_max"] = vit, stats["vit"]
    return combat


ViewParam = Annotated[
    View | None,
    Query(
        description="player: without what the community's visibility settings hide "
        "(docs/views.md); a viewer key or a player stream token always gets it"
    ),
]


async def readable_combat(
    combats: CombatReader, principal: Principal, combat_id: str
) -> dict[str, Any]:
    """The combat in its full view, if the principal may read it (404 otherwise)."""
    combat = await combats.view(combat_id, principal.community_id)
    if combat is None or not principal.may_read(str(combat.get("room")), combat_id):
        raise ApiError("not_found")
    return combat


@router.get("/{combat_id}", responses={200: {"model": Combat}})
async def get_combat(
    combat_id: CombatId,
    principal: Annotated[Principal, Depends(reading_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    combats: Annotated[CombatReader, Depends(reader)],
    view: ViewParam = None,
) -> dict[str, Any]:
    combat = await readable_combat(combats, principal, combat_id)
    if principal.view_of(view) == "player":
        settings = await load_settings(gw, principal.community_id)
        return player_combat(combat, settings.visibility)
    return combat


@router.get("", responses={200: {"model": CombatPage}})
async def list_combats(
    principal: Annotated[Principal, Depends(reading_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    combats: Annotated[CombatReader, Depends(reader)],
    room: Annotated[Room | None, Query()] = None,
    active: Annotated[bool | None, Query()] = None,
    limit: LimitParam = 50,
    cursor: CursorParam = None,
    view: ViewParam = None,
) -> dict[str, Any]:
    """The community's combats, newest first; ``room`` and ``active`` filter them; page with
    ``cursor`` (the previous page's ``next_cursor``)."""
    tenant = principal.community_id
    position = decode_cursor(cursor, "at", "id")
    visibility = None
    if principal.view_of(view) == "player":
        visibility = (await load_settings(gw, tenant)).visibility
    index = gw.keys.room_index(tenant, room) if room else gw.keys.combats_index(tenant)
    top = "+inf" if position is None else position["at"]
    found: list[dict[str, Any]] = []
    last: dict[str, Any] | None = None
    offset = 0
    while len(found) < limit:
        batch = await gw.redis.zrevrangebyscore(
            index, top, "-inf", start=offset, num=4 * limit, withscores=True
        )
        if not batch:
            break
        offset += len(batch)
        for raw, score in cast(list[tuple[Any, float]], batch):
            combat_id, at = text(raw), int(score)
            if position is not None and at == position["at"] and combat_id >= position["id"]:
                continue  # on the previous page (ties are ordered by id, descending)
            combat = await combats.view(combat_id, tenant)
            if combat is None:
                continue
            if active is not None and (combat["phase"] != "ended") != active:
                continue
            if not principal.may_read(str(combat.get("room")), combat["id"]):
                continue
            found.append(combat if visibility is None else player_combat(combat, visibility))
            last = {"at": at, "id": combat_id}
            if len(found) >= limit:
                break
    more = len(found) >= limit and last is not None
    return {"combats": found, "next_cursor": encode_cursor(last) if more and last else None}


@router.get("/{combat_id}/log", responses={200: {"model": LogPage}})
async def get_combat_log(
    combat_id: CombatId,
    request: Request,
    response: Response,
    principal: Annotated[Principal, Depends(reading_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    combats: Annotated[CombatReader, Depends(reader)],
    after: Annotated[str | None, Query(max_length=100)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 1000,
    view: ViewParam = None,
) -> dict[str, Any]:
    """Every event of the combat in order (the audit log), each with its ``text`` in the
    answer's language; page with ``after``."""
    tenant = principal.community_id
    if after is not None and parse_stream_id(after) is None:
        found = found_error("query.after", "stream_id")
        raise ApiError("invalid_request", details={"errors": [found]})
    combat = await readable_combat(combats, principal, combat_id)
    entries = await combats.log(combat_id, after=after, limit=limit)
    teller, lang, headers = await storyteller(request, gw, tenant)
    response.headers.update(headers)
    events = [{"log_id": sid, **public_event(env)} for sid, env in entries]
    if principal.view_of(view) == "player":
        visibility = (await load_settings(gw, tenant)).visibility
        maxima = maxima_of(combat)
        events = [player_event(event, visibility, maxima) for event in events]
    return {
        "combat_id": combat_id,
        "events": await teller.tell_all(events, lang),
        "next": entries[-1][0] if len(entries) == limit else None,
    }
