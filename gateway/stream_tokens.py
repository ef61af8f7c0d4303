"""Short-lived read-only stream tokens (``POST /v1/stream-tokens``, docs/browsers.md).

``EventSource`` cannot send ``Authorization``, and a page must not hold a community key, so
a frontend's server mints a token with its key and gives it to the page, which passes it as
``?token=`` to ``GET /v1/events`` (and to ``GET /v1/combats/{id}`` and its log). A token:

- reads only: every call that changes something, or reads sheets, refuses it (it is accepted
  by :func:`gateway.auth.reading_principal` alone);
- sees the ``player`` view unless minted for ``full`` by a key that sees it;
- may be bound to some rooms or to one combat;
- expires after its ``ttl_seconds`` (one hour at most), and dies with the key that minted
  it (revoking the key revokes its tokens). It is checked when a request starts: a stream
  opened before the token expired runs on, and its reconnections need a fresh token.

Only the token's SHA-256 is stored, under a Redis key that expires with it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time

from gateway.context import Gateway
from gateway.errors import ApiError
from gateway.principal import Principal, View

MAX_TTL_SECONDS = 3600
DEFAULT_TTL_SECONDS = 900
PREFIX = "st_"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class StreamTokens:
    def __init__(self, gw: Gateway) -> None:
        self._gw = gw

    async def mint(
        self,
        minter: Principal,
        *,
        view: View,
        rooms: list[str] | None,
        combat: str | None,
        ttl_seconds: int,
    ) -> tuple[str, int]:
        """A new token and when it expires (ms since the epoch)."""
        token = PREFIX + secrets.token_urlsafe(32)
        expires_ms = int(time.time() * 1000) + ttl_seconds * 1000
        grant = {
            "community_id": minter.community_id,
            "key_id": minter.key_id,
            "view": view,
            "rooms": rooms,
            "combat": combat,
            "expires_at_ms": expires_ms,
        }
        key = self._gw.keys.stream_token(_digest(token))
        await self._gw.redis.set(key, json.dumps(grant), ex=ttl_seconds)
        return token, expires_ms

    async def principal(self, token: str, address: str) -> Principal:
        """The read-only principal of a live token; 401 (and a failure counted against the
        address, as for a wrong key) otherwise."""
        gw = self._gw
        async with gw.redis.pipeline(transaction=False) as pipe:
            gw.auth_throttle.queue_peek(pipe, address)
            pipe.get(gw.keys.stream_token(_digest(token)))
            failures, raw = await pipe.execute()
        gw.auth_throttle.raise_if_blocked(failures)
        grant = json.loads(raw) if raw is not None and token.startswith(PREFIX) else None
        alive = grant is not None and int(grant["expires_at_ms"]) > time.time() * 1000
        if alive and grant is not None:
            keys = gw.keys.community_keys(grant["community_id"])
            alive = bool(await gw.redis.hexists(keys, grant["key_id"]))
        if not alive or grant is None:
            await gw.auth_throttle.failed(address)
            raise ApiError("unauthorized", details={"credential": "stream token"})
        rooms = grant.get("rooms")
        return Principal(
            grant["community_id"],
            grant["key_id"],
            "viewer",
            grant["view"],
            frozenset(rooms) if rooms is not None else None,
            grant.get("combat"),
        )
