"""The browser origins each community allows (``PATCH /v1/settings {"cors": ...}``), indexed
both ways in Redis so that a request answers with one ``SISMEMBER`` (docs/browsers.md):

- per community, the set of its origins: a request that authenticated (a key or a stream
  token) gets CORS headers only for its own community's origins;
- per origin, the set of communities allowing it: a preflight carries no credentials, so it
  is answered for an origin that *some* community allows.

The settings document is the truth; both sets are derived from it on every PATCH (the
community's origins are written whole, so a PATCH repairs an index left half-written).
"""

from __future__ import annotations

from redis.asyncio import Redis

from shared.keys import Keys


class Origins:
    def __init__(self, redis: Redis, keys: Keys) -> None:
        self._redis = redis
        self._keys = keys

    async def allowed_by(self, tenant: str, origin: str) -> bool:
        return bool(await self._redis.sismember(self._keys.cors_origins(tenant), origin))

    async def allowed_anywhere(self, origin: str) -> bool:
        return bool(await self._redis.exists(self._keys.cors_origin(origin)))

    async def record(self, tenant: str, before: list[str], after: list[str]) -> None:
        """The community now allows ``after`` (and no longer what else ``before`` had)."""
        mine = self._keys.cors_origins(tenant)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.delete(mine)
            if after:
                pipe.sadd(mine, *after)
            for origin in after:
                pipe.sadd(self._keys.cors_origin(origin), tenant)
            for origin in set(before) - set(after):
                pipe.srem(self._keys.cors_origin(origin), tenant)
            await pipe.execute()
