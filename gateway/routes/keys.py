"""A community's own keys: a moderator creates frontend or moderator keys and revokes them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Response
from pydantic import BaseModel, ConfigDict, Field

from gateway.auth import Principal, Tenants, moderator, tenants
from gateway.errors import ApiError
from gateway.ids import KeyId
from gateway.paging import CursorParam, LimitParam, decode_cursor, encode_cursor
from gateway.schemas.answers import KeyPage
from shared.api_types import ApiModel

router = APIRouter(prefix="/v1/keys", tags=["keys"])


class NewKey(ApiModel):
    model_config = ConfigDict(extra="forbid")
    scope: Literal["frontend", "moderator", "viewer"]


class KeyCreated(BaseModel):
    key_id: str
    scope: Literal["frontend", "moderator", "viewer"]
    api_key: str = Field(description="shown only this once")


@router.post("", status_code=201, response_model=KeyCreated)
async def create_key(
    body: NewKey,
    principal: Annotated[Principal, Depends(moderator)],
    store: Annotated[Tenants, Depends(tenants)],
) -> KeyCreated:
    key_id, api_key = await store.issue_key(principal.community_id, body.scope)
    return KeyCreated(key_id=key_id, scope=body.scope, api_key=api_key)


@router.get("", responses={200: {"model": KeyPage}})
async def list_keys(
    principal: Annotated[Principal, Depends(moderator)],
    store: Annotated[Tenants, Depends(tenants)],
    limit: LimitParam = 50,
    cursor: CursorParam = None,
) -> dict[str, Any]:
    """The community's keys by id (never the keys themselves): ``key_id``, ``scope``,
    ``created_at`` and ``primary`` (the key the community was created or rotated with)."""
    position = decode_cursor(cursor, "key_id")
    keys = await store.keys_of(principal.community_id)
    after = [k for k in keys if position is None or k["key_id"] > position["key_id"]]
    page = after[:limit]
    more = len(after) > limit
    return {
        "keys": page,
        "next_cursor": encode_cursor({"key_id": page[-1]["key_id"]}) if more else None,
    }


@router.delete("/{key_id}", status_code=204)
async def revoke_key(
    key_id: KeyId,
    principal: Annotated[Principal, Depends(moderator)],
    store: Annotated[Tenants, Depends(tenants)],
) -> Response:
    if not await store.revoke_key(principal.community_id, key_id):
        raise ApiError("not_found")
    return Response(status_code=204)
