"""``POST /v1/stream-tokens``: a short-lived read-only token for a browser (docs/browsers.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from gateway.auth import any_key
from gateway.context import Gateway, gateway
from gateway.errors import ApiError
from gateway.ids import COMBAT_ID
from gateway.principal import Principal
from gateway.routes.combats import Room
from gateway.stream_tokens import DEFAULT_TTL_SECONDS, MAX_TTL_SECONDS, StreamTokens
from gateway.views import CombatReader
from shared.api_types import ApiModel, Int

router = APIRouter(prefix="/v1/stream-tokens", tags=["browsers"])


class NewStreamToken(ApiModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"view": "player", "combat": "c_0123456789abcdef"}]},
    )

    view: Literal["full", "player"] = Field(
        "player", description="player: what the community's visibility settings let players see"
    )
    rooms: list[Room] | None = Field(
        None, min_length=1, max_length=20, description="only these rooms (default: every room)"
    )
    combat: str | None = Field(None, max_length=200, description="only this combat")
    ttl_seconds: Int = Field(DEFAULT_TTL_SECONDS, ge=10, le=MAX_TTL_SECONDS)


class StreamToken(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "token": "st_3q2-7wVx...",
                    "view": "player",
                    "rooms": None,
                    "combat": "c_0123456789abcdef",
                    "expires_at": "2026-11-20T18:15:00Z",
                    "ttl_seconds": 900,
                }
            ]
        }
    )

    token: str = Field(description="pass it as ?token= to GET /v1/events (EventSource)")
    view: Literal["full", "player"]
    rooms: list[str] | None
    combat: str | None
    expires_at: str
    ttl_seconds: int


@router.post("", status_code=201, response_model=StreamToken)
async def create_stream_token(
    body: NewStreamToken,
    principal: Annotated[Principal, Depends(any_key)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> StreamToken:
    """A short-lived read-only token for a browser's EventSource (any key; a viewer key mints
    player tokens only)."""
    if body.view == "full" and principal.view == "player":
        raise ApiError("forbidden", details={"needs": "full view", "view": "player"})
    if body.combat is not None and (
        not COMBAT_ID.fullmatch(body.combat)
        or await CombatReader(gw.redis, gw.keys).view(body.combat, principal.community_id) is None
    ):
        raise ApiError("not_found", details={"combat": body.combat})
    token, expires_ms = await StreamTokens(gw).mint(
        principal,
        view=body.view,
        rooms=body.rooms,
        combat=body.combat,
        ttl_seconds=body.ttl_seconds,
    )
    expires = datetime.fromtimestamp(expires_ms / 1000, UTC).isoformat(timespec="seconds")
    return StreamToken(
        token=token,
        view=body.view,
        rooms=body.rooms,
        combat=body.combat,
        expires_at=expires.replace("+00:00", "Z"),
        ttl_seconds=body.ttl_seconds,
    )
