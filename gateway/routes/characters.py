"""API.md "Characters" and "Characters' aftermath"."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path
from fastapi.responses import JSONResponse

from gateway.auth import Principal, current_principal
from gateway.context import Gateway, gateway
from gateway.errors import ApiError
from shared.payloads import CharacterStatus
from shared.sheets import Sheet

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
    ],
}


async def load_sheet(gw: Gateway, tenant: str, character_id: str) -> dict[str, Any] | None:
    raw = await gw.redis.get(gw.keys.character_sheet(tenant, character_id))
    return None if raw is None else dict(json.loads(raw))


@router.put(
    "/{character_id}",
    responses={200: {"description": "replaced"}, 201: {"description": "created"}},
)
async def put_character(
    character_id: CharacterPath,
    sheet: Annotated[Sheet, Body(openapi_examples={"umh": {"value": UMH_EXAMPLE}})],
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> JSONResponse:
    """Store a character sheet (a snapshot is taken by each combat when it starts)."""
    key = gw.keys.character_sheet(principal.community_id, character_id)
    body = sheet.model_dump(mode="json")
    created = await gw.redis.set(key, json.dumps(body), nx=True)
    if not created:
        await gw.redis.set(key, json.dumps(body))
    return JSONResponse({"id": character_id, **body}, status_code=201 if created else 200)


@router.get("/{character_id}")
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
async def get_status(
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
