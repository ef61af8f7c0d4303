"""docs/api.md "Endpoints": per community, defaults from the rules; moderators change them.

A PATCH is a JSON merge patch (RFC 7396) of the stored document: objects merge, a ``null``
removes the member, so the field goes back to its default. Stored settings are validated
again whenever they are read: settings that no longer validate (written by an older version,
or by hand) answer 409 ``settings_invalid`` with the failing paths, and a PATCH of those
fields repairs them while keeping the rest (docs/hostile-input.md).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request
from pydantic import ValidationError

from gateway.auth import Principal, current_principal, moderator
from gateway.context import Gateway, gateway
from gateway.errors import ApiError, request_language
from gateway.field_errors import field_errors, pending_errors
from gateway.origins import Origins
from shared.settings import CommunitySettings

router = APIRouter(prefix="/v1/settings", tags=["settings"])


async def load_settings(gw: Gateway, tenant: str) -> CommunitySettings:
    """The community's settings; 409 ``settings_invalid`` when the stored ones are bad."""
    raw = await gw.redis.get(gw.keys.settings(tenant))
    if not raw:
        return CommunitySettings()
    try:
        return CommunitySettings.model_validate_json(raw)
    except ValidationError as exc:
        raise ApiError(
            "settings_invalid",
            details={
                "errors": pending_errors(exc.errors(), "settings"),
                "repair": "PATCH /v1/settings",
            },
        ) from exc


def _stored_document(raw: bytes | str | None) -> dict[str, Any]:
    """What is stored, as a document to patch: tolerant, so that a bad one can be repaired."""
    if not raw:
        return {}
    try:
        document = json.loads(raw)
    except ValueError:
        return {}
    return document if isinstance(document, dict) else {}


def merge_patch(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """RFC 7396: objects merge, ``null`` removes the member, anything else replaces it."""
    merged = dict(base)
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, dict):
            current = merged.get(key)
            merged[key] = merge_patch(current if isinstance(current, dict) else {}, value)
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
            description="A JSON merge patch of the settings (null: back to the default)",
            examples=[{"timers": {"turn_seconds": 60}}],
        ),
    ],
    request: Request,
    principal: Annotated[Principal, Depends(moderator)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> CommunitySettings:
    key = gw.keys.settings(principal.community_id)
    stored = _stored_document(await gw.redis.get(key))
    document = merge_patch(stored, patch)
    try:
        updated = CommunitySettings.model_validate(document)
    except ValidationError as exc:
        errors = field_errors(exc.errors(), await request_language(request), prefix="body")
        raise ApiError("invalid_request", details={"errors": errors}) from exc
    await gw.redis.set(key, updated.model_dump_json())
    await Origins(gw.redis, gw.keys).record(
        principal.community_id, _stored_origins(stored), updated.cors.origins
    )
    return updated


def _stored_origins(document: dict[str, Any]) -> list[str]:
    """The origins a stored document allowed (tolerant, like the document itself)."""
    cors = document.get("cors")
    origins = cors.get("origins") if isinstance(cors, dict) else None
    return [o for o in origins if isinstance(o, str)] if isinstance(origins, list) else []
