"""API.md "Settings": per community, defaults from the rules; moderators change them."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request
from pydantic import ValidationError

from gateway.auth import Principal, current_principal, moderator
from gateway.context import Gateway, gateway
from gateway.errors import ApiError, request_language
from gateway.field_errors import field_errors
from shared.settings import CommunitySettings

router = APIRouter(prefix="/v1/settings", tags=["settings"])


async def load_settings(gw: Gateway, tenant: str) -> CommunitySettings:
    raw = await gw.redis.get(gw.keys.settings(tenant))
    return CommunitySettings.model_validate_json(raw) if raw else CommunitySettings()


def deep_merge(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


@router.get("", response_model=CommunitySettings)
async def get_settings(
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> CommunitySettings:
    return await load_settings(gw, principal.community_id)


@router.patch("", response_model=CommunitySettings)
async def patch_settings(
    patch: Annotated[
        dict[str, Any],
        Body(
            description="A partial CommunitySettings document, merged into the current one",
            examples=[{"timers": {"turn_seconds": 60}}],
        ),
    ],
    request: Request,
    principal: Annotated[Principal, Depends(moderator)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> CommunitySettings:
    current = await load_settings(gw, principal.community_id)
    try:
        updated = CommunitySettings.model_validate(deep_merge(current.model_dump(), patch))
    except ValidationError as exc:
        errors = field_errors(exc.errors(), await request_language(request), prefix="body")
        raise ApiError("invalid_request", details={"errors": errors}) from exc
    await gw.redis.set(gw.keys.settings(principal.community_id), updated.model_dump_json())
    return updated
