"""Operators: communities and their primary keys (docs/api.md "Authentication and keys")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from gateway.auth import Tenants, admin, tenants
from gateway.errors import ApiError
from gateway.ids import CommunityId
from shared.api_types import ApiModel

router = APIRouter(prefix="/v1/admin", tags=["admin"], dependencies=[Depends(admin)])


class NewCommunity(ApiModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=120)


class CommunityCreated(BaseModel):
    id: str
    name: str
    api_key: str = Field(description="shown only this once; only its hash is stored")


class KeyRotated(CommunityCreated):
    key_id: str


@router.post("/communities", status_code=201, response_model=CommunityCreated)
async def create_community(
    body: NewCommunity, store: Annotated[Tenants, Depends(tenants)]
) -> CommunityCreated:
    return CommunityCreated(**await store.create_community(body.name))


@router.post("/communities/{community_id}/keys", status_code=201, response_model=KeyRotated)
async def rotate_key(
    community_id: CommunityId,
    store: Annotated[Tenants, Depends(tenants)],
) -> KeyRotated:
    rotated = await store.rotate_primary(community_id)
    if rotated is None:
        raise ApiError("not_found")
    return KeyRotated(**rotated)
