"""API.md "Authentication and tenants": communities, API keys stored hashed, scopes.

A key is 32 random bytes; only its SHA-256 is stored (a slow hash adds nothing for keys of
that entropy). Lookup is by the hash, and the admin token is compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import Depends, Request
from redis.asyncio import Redis

from gateway.context import Gateway, gateway
from gateway.errors import ApiError
from gateway.throttle import client_address
from shared.keys import Keys

Scope = Literal["frontend", "moderator"]


@dataclass(frozen=True)
class Principal:
    community_id: str
    key_id: str
    scope: Scope

    @property
    def is_moderator(self) -> bool:
        return self.scope == "moderator"


def hash_key(api_key: str) -> str:
    return hashlib.sha256(api_key.encode()).hexdigest()


def new_api_key() -> str:
    return "rk_" + secrets.token_urlsafe(32)


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


async def current_principal(
    request: Request, gw: Annotated[Gateway, Depends(gateway)]
) -> Principal:
    token = _bearer(request)
    if token is None:
        raise _unauthorized()
    address = client_address(request)
    digest = hash_key(token)
    async with gw.redis.pipeline(transaction=False) as pipe:
        gw.auth_throttle.queue_peek(pipe, address)
        pipe.hget(gw.keys.api_keys(), digest)
        failures, raw = await pipe.execute()
    gw.auth_throttle.raise_if_blocked(failures)
    record = None if raw is None or len(token) > 256 else json.loads(raw)
    if record is None or not hmac.compare_digest(
        str(record.get("hash", digest)).encode(), digest.encode()
    ):
        await gw.auth_throttle.failed(address)
        raise _unauthorized()
    principal = Principal(record["community_id"], record["key_id"], record["scope"])
    wait = await gw.limiter.take(gw.keys.rate_bucket(principal.key_id))
    if wait is not None:
        raise ApiError(
            "rate_limited",
            headers={"Retry-After": str(int(wait))},
            details={"retry_after_seconds": wait, "key_id": principal.key_id},
        )
    request.state.principal = principal
    return principal


async def moderator(principal: Annotated[Principal, Depends(current_principal)]) -> Principal:
    if not principal.is_moderator:
        raise ApiError("forbidden", details={"needs": "moderator"})
    return principal


async def admin(request: Request, gw: Annotated[Gateway, Depends(gateway)]) -> None:
    token = _bearer(request)
    if token is None:
        raise _unauthorized()
    address = client_address(request)
    await gw.auth_throttle.check(address)
    if not hmac.compare_digest(token.encode(), gw.settings.referee_admin_token.encode()):
        await gw.auth_throttle.failed(address)
        raise _unauthorized()


def _unauthorized() -> ApiError:
    return ApiError("unauthorized", headers={"WWW-Authenticate": "Bearer"})


# --- records ------------------------------------------------------------------------------
class Tenants:
    """Communities and their keys in Redis."""

    def __init__(self, redis: Redis, keys: Keys) -> None:
        self.redis = redis
        self.keys = keys

    async def create_community(self, name: str) -> dict[str, str]:
        community_id = "cm_" + uuid.uuid4().hex[:20]
        key_id, api_key = await self.issue_key(community_id, "moderator")
        record = {
            "id": community_id,
            "name": name,
            "created_at_ms": int(time.time() * 1000),
            "primary_key_id": key_id,
        }
        await self.redis.hset(self.keys.communities(), community_id, json.dumps(record))
        return {"id": community_id, "name": name, "api_key": api_key}

    async def community(self, community_id: str) -> dict[str, object] | None:
        raw = await self.redis.hget(self.keys.communities(), community_id)
        return None if raw is None else dict(json.loads(raw))

    async def issue_key(self, community_id: str, scope: Scope) -> tuple[str, str]:
        key_id = "k_" + uuid.uuid4().hex[:20]
        api_key = new_api_key()
        digest = hash_key(api_key)
        record = {"key_id": key_id, "community_id": community_id, "scope": scope, "hash": digest}
        meta = {"hash": digest, "scope": scope, "created_at_ms": int(time.time() * 1000)}
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(self.keys.api_keys(), digest, json.dumps(record))
            pipe.hset(self.keys.community_keys(community_id), key_id, json.dumps(meta))
            await pipe.execute()
        return key_id, api_key

    async def revoke_key(self, community_id: str, key_id: str) -> bool:
        raw = await self.redis.hget(self.keys.community_keys(community_id), key_id)
        if raw is None:
            return False
        meta = json.loads(raw)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hdel(self.keys.api_keys(), meta["hash"])
            pipe.hdel(self.keys.community_keys(community_id), key_id)
            await pipe.execute()
        return True

    async def rotate_primary(self, community_id: str) -> dict[str, str] | None:
        record = await self.community(community_id)
        if record is None:
            return None
        old = str(record.get("primary_key_id", ""))
        key_id, api_key = await self.issue_key(community_id, "moderator")
        record["primary_key_id"] = key_id
        await self.redis.hset(self.keys.communities(), community_id, json.dumps(record))
        if old:
            await self.revoke_key(community_id, old)
        return {
            "id": community_id,
            "name": str(record["name"]),
            "api_key": api_key,
            "key_id": key_id,
        }


async def tenants(gw: Annotated[Gateway, Depends(gateway)]) -> Tenants:
    return Tenants(gw.redis, gw.keys)
