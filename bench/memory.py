"""Redis memory per combat: ``MEMORY USAGE`` of every key of a combat, summed.

A combat's keys share the hash tag ``{combat:<id>}`` (docs/DESIGN.md), so they are found
by scanning the namespace for it. ``SAMPLES 0`` makes Redis walk every element of streams
and hashes instead of estimating from five of them.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from redis.asyncio import Redis

TAG = "{combat:"


def combat_of(key: str) -> str | None:
    """The combat id in a key's hash tag, or None for keys of no combat."""
    start = key.find(TAG)
    if start < 0:
        return None
    end = key.find("}", start)
    return key[start + len(TAG) : end] if end > 0 else None


def kind_of(key: str) -> str:
    """``state:turns``, ``log``, ``view:resolution``...: the key without its prefix."""
    return key.split("}:", 1)[-1]


async def used_memory(redis: Redis) -> int:
    info = await redis.info("memory")
    return int(info["used_memory"])


async def per_combat(redis: Redis, namespace: str, combat_ids: set[str]) -> dict[str, Any]:
    """Bytes and keys per combat over ``combat_ids``, with the bytes of each key kind."""
    total = 0
    keys = 0
    by_kind: dict[str, int] = defaultdict(int)
    log_entries = 0
    async for raw in redis.scan_iter(match=f"{namespace}:{TAG}*", count=1000):
        key = raw.decode()
        if combat_of(key) not in combat_ids:
            continue
        size = await redis.memory_usage(key, samples=0)
        if size is None:  # deleted meanwhile (an outbox emptied by its relay)
            continue
        total += size
        keys += 1
        kind = kind_of(key)
        by_kind[kind] += size
        if kind == "log":
            log_entries += int(await redis.xlen(key))
    n = max(len(combat_ids), 1)
    return {
        "combats": len(combat_ids),
        "bytes_per_combat": round(total / n, 1),
        "keys_per_combat": round(keys / n, 2),
        "bytes_per_combat_by_key": {k: round(v / n, 1) for k, v in sorted(by_kind.items())},
        "log_entries_per_combat": round(log_entries / n, 1),
        "log_bytes_per_entry": round(by_kind["log"] / log_entries, 1) if log_entries else None,
        "bytes_per_combat_without_log": round((total - by_kind["log"]) / n, 1),
    }
