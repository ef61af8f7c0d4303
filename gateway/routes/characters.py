"""docs/api.md "Endpoints" and "Characters' aftermath"."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Query
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from gateway.auth import Principal, current_principal
from gateway.context import Gateway, gateway
from gateway.errors import ApiError
from gateway.field_errors import found_error, pending_errors
from gateway.gates import SheetLoader
from gateway.paging import CursorParam, LimitParam, decode_cursor, encode_cursor
from gateway.schemas.answers import Character, CharacterPage
from shared.payloads import CharacterStatus
from shared.redis_streams import text
from shared.sheets import SHEET_ADAPTER, Sheet

router = APIRouter(prefix="/v1/characters", tags=["characters"])

CharacterPath = Annotated[str, Path(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]

UMH_EXAMPLE: dict[str, Any] = {
    "name": "Ana",
    "ruleset": "umh",
    "stats": {"vit": 1000, "vel": 6, "ref": 3, "vol": 2, "fue": 100, "rank": 2, "vigor": 5},
    "resistance": {"value": 100, "hardness": "acero"},
    "reductions": {"general": 10, "fisica": 5},
    "boosters": {"fisica": [20]},
    "immunities": ["mental"],
    "traits": ["ambidextrous"],
    "alliance": "clan-x",
    "skills": [
        {
            "name": "Puño",
            "tier": 1,
            "pa": 1,
            "type": "offensive",
            "natures": ["fisica"],
            "damage": 120,
            "reach": 1,
        },
        {
            "name": "Bloqueo",
            "tier": 1,
            "pa": 1,
            "type": "defensive",
            "defense_kind": "internal",
            "natures": ["fisica"],
            "defense": 80,
        },
        {
            "name": "Carga",
            "tier": 1,
            "pa": 2,
            "type": "supplementary",
            "natures": ["fisica"],
            "physical_preparation": True,
        },
        {
            "name": "Presagio",
            "tier": 1,
            "pa": 1,
            "type": "defensive",
            "defense_kind": "anticipation",
            "natures": ["fisica"],
            "damage": 50,
            "precognition": True,
        },
        {
            "name": "Tajo cercenador",
            "tier": 2,
            "pa": 4,
            "type": "offensive",
            "natures": ["fisica"],
            "damage": 200,
            "reach": 1,
            "effects": [{"kind": "state", "type": "amputacion", "limb": "brazo"}],
        },
    ],
}


async def load_sheet(gw: Gateway, tenant: str, character_id: str) -> dict[str, Any] | None:
    """The stored sheet, validated again; 409 ``sheet_invalid`` when it no longer validates."""
    raw = await gw.redis.get(gw.keys.character_sheet(tenant, character_id))
    if raw is None:
        return None
    try:
        sheet = json.loads(raw)
        SHEET_ADAPTER.validate_python(sheet)
    except (ValueError, ValidationError) as exc:
        errors = (
            pending_errors(exc.errors(), "sheet")
            if isinstance(exc, ValidationError)
            else [found_error("sheet", "json_invalid", english="not JSON")]
        )
        raise ApiError(
            "sheet_invalid",
            details={"character": character_id, "errors": errors, "repair": "PUT the sheet"},
        ) from exc
    return dict(sheet)


def sheets_of(gw: Gateway, tenant: str) -> SheetLoader:
    """The community's stored sheets, for the gates."""

    async def load(character_id: str) -> dict[str, Any] | None:
        return await load_sheet(gw, tenant, character_id)

    return load


@router.put(
    "/{character_id}",
    responses={
        200: {"model": Character, "description": "replaced"},
        201: {"model": Character, "description": "created"},
    },
)
async def put_character(
    character_id: CharacterPath,
    sheet: Annotated[Sheet, Body(openapi_examples={"umh": {"value": UMH_EXAMPLE}})],
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> JSONResponse:
    """Store a character sheet (a snapshot is taken by each combat when it starts)."""
    key = gw.keys.character_sheet(principal.community_id, character_id)
    body = sheet.model_dump(mode="json", by_alias=True)  # the names the contract documents
    stored = json.dumps(body, allow_nan=False)  # before any write: a failure changes nothing
    created = await gw.redis.set(key, stored, nx=True)
    if not created:
        await gw.redis.set(key, stored)
    await gw.redis.zadd(gw.keys.characters_index(principal.community_id), {character_id: 0})
    return JSONResponse({"id": character_id, **body}, status_code=201 if created else 200)


@router.get("", responses={200: {"model": CharacterPage}})
async def list_characters(
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    q: Annotated[
        str | None,
        Query(min_length=1, max_length=80, description="part of the id or the name, any case"),
    ] = None,
    limit: LimitParam = 50,
    cursor: CursorParam = None,
) -> dict[str, Any]:
    """The community's characters by id (``id``, ``name``, ``ruleset``); ``q`` keeps those
    whose id or name contains it; page with ``cursor``."""
    tenant = principal.community_id
    position = decode_cursor(cursor, "id")
    low = "-" if position is None else f"({position['id']}"
    needle = q.casefold() if q else None
    found: list[dict[str, Any]] = []
    offset = 0
    while len(found) < limit:
        ids = [
            text(raw)
            for raw in await gw.redis.zrangebylex(
                gw.keys.characters_index(tenant), low, "+", start=offset, num=4 * limit
            )
        ]
        if not ids:
            break
        offset += len(ids)
        sheets = await gw.redis.mget([gw.keys.character_sheet(tenant, cid) for cid in ids])
        for cid, raw in zip(ids, sheets, strict=True):
            sheet = json.loads(raw) if raw is not None else None
            if not isinstance(sheet, dict):
                continue
            name = str(sheet.get("name", ""))
            if needle is not None and needle not in f"{cid}\n{name}".casefold():
                continue
            found.append({"id": cid, "name": name, "ruleset": sheet.get("ruleset")})
            if len(found) >= limit:
                break
    more = len(found) >= limit
    return {
        "characters": found,
        "next_cursor": encode_cursor({"id": found[-1]["id"]}) if more else None,
    }


@router.get("/{character_id}", responses={200: {"model": Character}})
async def get_character(
    character_id: CharacterPath,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> dict[str, Any]:
    sheet = await load_sheet(gw, principal.community_id, character_id)
    if sheet is None:
        raise ApiError("not_found")
    return {"id": character_id, **sheet}


@router.get("/{character_id}/status", response_model=CharacterStatus)
async def get_character_status(
    character_id: CharacterPath,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> CharacterStatus:
    """What outlives a combat for this character (kept by services/states)."""
    tenant = principal.community_id
    if await load_sheet(gw, tenant, character_id) is None:
        raise ApiError("not_found")
    raw = await gw.redis.get(gw.keys.character("states", tenant, character_id).view)
    if not raw:
        return CharacterStatus()
    model = json.loads(raw)  # {"status", "history"}; a flat status before the aftermath issue
    return CharacterStatus.model_validate(model.get("status", model))
