"""docs/api.md "Authentication and keys": communities, API keys stored hashed, scopes.

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
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from redis.asyncio import Redis

from gateway.context import Gateway, gateway
from gateway.errors import ApiError
from gateway.principal import Principal as Principal  # the routes import it from here
from gateway.principal import Scope
from gateway.stream_tokens import StreamTokens
from gateway.throttle import client_address
from shared.keys import Keys


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


async def _key_principal(request: Request, gw: Gateway) -> Principal:
    """The community key in ``Authorization``, any scope; 401 without a valid one."""
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
    scope = record["scope"]
    principal = Principal(
        record["community_id"], record["key_id"], scope, "player" if scope == "viewer" else "full"
    )
    await admit(request, gw, principal)
    return principal


async def admit(request: Request, gw: Gateway, principal: Principal) -> None:
    """The key's rate limit (429 beyond it), then the principal is the request's."""
    quota = await gw.limiter.quota(gw.keys.rate_bucket(principal.key_id))
    request.state.rate_limit = quota.headers()  # gateway/ratelimit.py: on every answer
    if quota.wait is not None:
        raise ApiError(
            "rate_limited",
            headers={"Retry-After": str(int(quota.wait)), **quota.headers()},
            details={"retry_after_seconds": quota.wait, "key_id": principal.key_id},
        )
    request.state.principal = principal


async def current_principal(
    request: Request, gw: Annotated[Gateway, Depends(gateway)]
) -> Principal:
    """A ``frontend`` or ``moderator`` key: what every call that may change something needs
    (a ``viewer`` key gets 403)."""
    principal = await _key_principal(request, gw)
    if principal.scope == "viewer":
        raise ApiError("forbidden", details={"needs": "frontend", "scope": "viewer"})
    return principal


async def any_key(request: Request, gw: Annotated[Gateway, Depends(gateway)]) -> Principal:
    """Any key of the community, ``viewer`` included (no stream token)."""
    return await _key_principal(request, gw)


async def reading_principal(
    request: Request,
    gw: Annotated[Gateway, Depends(gateway)],
    token: Annotated[
        str | None,
        Query(
            max_length=200,
            description="a stream token (POST /v1/stream-tokens) instead of Authorization, "
            "for EventSource and other browser reads",
        ),
    ] = None,
) -> Principal:
    """Any key of the community, or a stream token in ``?token=``: the read-only calls."""
    if token is None:
        return await _key_principal(request, gw)
    principal = await StreamTokens(gw).principal(token, client_address(request))
    await admit(request, gw, principal)
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

    async def keys_of(self, community_id: str) -> list[dict[str, Any]]:
        """The community's keys by id: ``key_id``, ``scope``, ``created_at``, ``primary``."""
        record = await self.community(community_id) or {}
        stored = await self.redis.hgetall(self.keys.community_keys(community_id))
        listed: list[dict[str, Any]] = []
        for raw_id, raw in stored.items():
            key_id = raw_id.decode() if isinstance(raw_id, bytes) else str(raw_id)
            meta = json.loads(raw)
            created_ms = meta.get("created_at_ms")
            listed.append(
                {
                    "key_id": key_id,
                    "scope": meta.get("scope"),
                    "created_at": None
                    if created_ms is None
                    else datetime.fromtimestamp(created_ms / 1000, UTC).isoformat(),
                    "primary": key_id == record.get("primary_key_id"),
                }
            )
        return sorted(listed, key=lambda k: str(k["key_id"]))

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
