"""A community's own keys: a moderator creates frontend or moderator keys and revokes them."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Response
from pydantic import BaseModel, ConfigDict, Field

from gateway.auth import Principal, Tenants, moderator, tenants
from gateway.errors import ApiError
from gateway.ids import KeyId
from shared.api_types import ApiModel

router = APIRouter(prefix="/v1/keys", tags=["keys"])


class NewKey(ApiModel):
    model_config = ConfigDict(extra="forbid")
    scope: Literal["frontend", "moderator"]


class KeyCreated(BaseModel):
    key_id: str
    scope: Literal["frontend", "moderator"]
    api_key: str = Field(description="shown only this once")


@router.post("", status_code=201, response_model=KeyCreated)
async def create_key(
    body: NewKey,
    principal: Annotated[Principal, Depends(moderator)],
    store: Annotated[Tenants, Depends(tenants)],
) -> KeyCreated:
    key_id, api_key = await store.issue_key(principal.community_id, body.scope)
    return KeyCreated(key_id=key_id, scope=body.scope, api_key=api_key)


@router.delete("/{key_id}", status_code=204)
async def revoke_key(
    key_id: KeyId,
    principal: Annotated[Principal, Depends(moderator)],
    store: Annotated[Tenants, Depends(tenants)],
) -> Response:
    if not await store.revoke_key(principal.community_id, key_id):
        raise ApiError("not_found")
    return Response(status_code=204)
