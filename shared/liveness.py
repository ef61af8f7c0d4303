"""Per-replica liveness (issue 16, item 5): a replica beats only while it does its job.

A service replica writes its heartbeat (``<ns>:heartbeat:<service>``, field
``<host>:<pid>``) every 2 s, but only while its own consumers are attached and its own timer
poller finished a poll recently; otherwise it logs why and skips the beat. ``python -m
shared.ops health --service <s>`` then checks the replicas of *this host* (a container's or a
pod's own), so one hung replica fails its own health check even while a sibling elsewhere is
alive. Stale fields of replicas gone long ago are pruned by the beating replicas.

A replica that stays unhealthy (say, its consumers never came back after a broker restart,
which aio-pika's robust connection does not always repair) exits with status 1 after
``REFEREE_UNHEALTHY_EXIT_SECONDS`` so that its supervisor (``make run``'s respawner, compose's
restart policy, Kubernetes) starts a fresh one; 0 keeps it running unhealthy.
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


class Watchdog:
    """When an unhealthy replica has been unhealthy long enough to give up and exit."""

    def __init__(self, exit_after_seconds: float) -> None:
        self.exit_after = exit_after_seconds
        self.unhealthy_since: float | None = None

    def gives_up(self, found: list[str], now: float) -> bool:
        """Record this check's problems (empty: healthy) at ``now`` (monotonic seconds)."""
        if not found:
            self.unhealthy_since = None
            return False
        if self.unhealthy_since is None:
            self.unhealthy_since = now
        return self.exit_after > 0 and now - self.unhealthy_since >= self.exit_after
