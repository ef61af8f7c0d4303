"""How far the public event stream (``GET /v1/events``) trails the commits under load.

The gateway's recorder copies every public event into the community's Redis stream, which
SSE serves; a stream entry id is the moment of that copy (``<ms>-<seq>``) and the event's
``occurred_at`` the moment of its commit, so their difference is how late a frontend can
see the event. After the load stops, the stream is watched until it holds the last event
the played combats committed (the recorder caught up with them); then the lag of
every event committed inside the window is read. The stream is read straight from Redis,
in the bench's own namespace.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import datetime
from typing import Any

from redis.asyncio import Redis

from bench.stats import percentiles
from shared.keys import Keys
from shared.redis_streams import entries

PAGE = 5000


def stream_key(namespace: str, tenant: str) -> str:
    """``Keys.events_stream`` of shared/keys.py."""
    return f"{namespace}:{{tenant:{tenant}}}:events"


# The newest stream entries whose commits are compared with the last commit: the stream is in
# the order the recorder copied the events, which is not quite the order of their commits
# (two services commit at the same time; the one that publishes second was not always the
# one that committed second). Reading only the newest entry, a combat's last commit copied
# just before an older one from another service was never seen, and the wait ran to its
# limit (300 s) after loads that had caught up at once.
NEWEST = 200


async def _last_occurred_ms(redis: Redis, key: str) -> float:
    newest = entries(await redis.xrevrange(key, count=NEWEST))
    return max((_occurred_ms(fields) for _, fields in newest), default=0.0)


def _occurred_ms(fields: dict[str, bytes]) -> float:
    return datetime.fromisoformat(json.loads(fields["e"])["occurred_at"]).timestamp() * 1000


async def catch_up_seconds(redis: Redis, key: str, until_ms: float, *, limit: float = 300) -> float:
    """Seconds from now until the stream holds the event committed at ``until_ms``.

    ``until_ms`` is the last commit of the played combats: once the recorder copied it,
    it copied (nearly) everything before it, since it copies in publishing order. Returns
    ``limit`` if it did not catch up by then.
    """
    started = time.monotonic()
    while time.monotonic() - started < limit:
        if await _last_occurred_ms(redis, key) >= until_ms:
            break
        await asyncio.sleep(0.25)
    return time.monotonic() - started


async def last_commit_ms(redis: Redis, namespace: str, combat_ids: list[str]) -> float:
    """When the last public event of these combats was committed (their audit logs)."""
    keys = Keys(namespace)
    last = 0.0
    for combat_id in combat_ids:
        tail = entries(await redis.xrevrange(keys.combat("turns", combat_id).log, count=1))
        if tail:
            last = max(last, _occurred_ms(tail[0][1]))
    return last


async def lag(
    redis: Redis,
    namespace: str,
    tenant: str,
    combat_ids: list[str],
    window_ms: tuple[float, float],
) -> dict[str, Any]:
    """Catch-up time and lag percentiles (ms) of the events committed inside ``window_ms``."""
    key = stream_key(namespace, tenant)
    start, end = window_ms
    caught_up = await catch_up_seconds(
        redis, key, await last_commit_ms(redis, namespace, combat_ids)
    )
    lags: list[float] = []
    cursor = f"{int(start)}-0"
    while True:
        page = entries(await redis.xrange(key, min=cursor, max="+", count=PAGE))
        for entry_id, fields in page:
            recorded = int(entry_id.split("-")[0])
            occurred_ms = _occurred_ms(fields)
            if start <= occurred_ms < end:
                lags.append(recorded - occurred_ms)
        if len(page) < PAGE:
            break
        cursor = "(" + page[-1][0]
    stats = percentiles(lags, (50.0, 99.0, 100.0))
    return {
        "events": len(lags),
        "caught_up_after_s": round(caught_up, 2),
        "lag_ms": {k: round(v, 1) for k, v in stats.items()},
    }
