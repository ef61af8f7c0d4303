"""Per-replica liveness (issue 16, item 5): a replica beats only while it does its job.

A service replica writes its heartbeat (``<ns>:heartbeat:<service>``, field
``<host>:<pid>``) every 2 s, but only while its own consumers are attached and its own timer
poller finished a poll recently; otherwise it logs why and skips the beat. ``python -m
shared.ops health --service <s>`` then checks the replicas of *this host* (a container's or a
pod's own), so one hung replica fails its own health check even while a sibling elsewhere is
alive. Stale fields of replicas gone long ago are pruned by the beating replicas.
"""

from __future__ import annotations

HEARTBEAT_FRESH_MS = 10_000
POLLER_STALE_SECONDS = 20.0
PRUNE_AFTER_MS = 3_600_000


def problems(*, consuming: bool, poller_age_seconds: float) -> list[str]:
    """Why this replica should not beat (empty: it is alive)."""
    found = []
    if not consuming:
        found.append("no consumer attached (broker connection or channel lost)")
    if poller_age_seconds > POLLER_STALE_SECONDS:
        found.append(f"timer poller idle for {poller_age_seconds:.0f} s")
    return found


def host_of(instance: str) -> str:
    """The host part of a heartbeat field ``<host>:<pid>``."""
    return instance.rsplit(":", 1)[0]


def healthy(beats: dict[str, int], now_ms: int, host: str | None) -> tuple[bool, str]:
    """Whether the newest beat of ``host``'s replicas (of any replica when ``host`` is None)
    is fresh, with a sentence saying what was seen."""
    mine = {i: ms for i, ms in beats.items() if host is None or host_of(i) == host}
    if not mine:
        where = "any host" if host is None else f"host {host}"
        return False, f"no heartbeat from {where}"
    instance, newest = max(mine.items(), key=lambda item: item[1])
    age = now_ms - newest
    if age < HEARTBEAT_FRESH_MS:
        return True, f"healthy: {instance} beat {age} ms ago"
    return False, f"no fresh heartbeat: the newest, {instance}'s, is {age} ms old"


def stale(beats: dict[str, int], now_ms: int) -> list[str]:
    """Fields of replicas that have not beaten for an hour (gone without a clean stop)."""
    return [i for i, ms in beats.items() if now_ms - ms > PRUNE_AFTER_MS]
