"""Operator commands: ``python -m shared.ops <command>``.

- ``isolate --service turns --room plaza``: bind the room on the service's command exchange
  to a queue of its own; start replicas with ``REFEREE_ROOMS=plaza`` to serve it.
- ``unisolate --service turns --room plaza``: the room falls back to the partitions.
- ``health --service turns``: exit 0 when a replica's heartbeat is fresh (container checks).
- ``topology``: declare every exchange and queue of the namespace.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

from redis.asyncio import Redis

from shared.bus import Bus
from shared.keys import Keys
from shared.messages import SERVICES
from shared.settings import ServiceSettings

HEARTBEAT_FRESH_MS = 10_000


async def _isolate(settings: ServiceSettings, service: str, room: str, undo: bool) -> str:
    bus = Bus.from_settings(settings)
    await bus.connect()
    try:
        await bus.declare_topology()
        if undo:
            await bus.unisolate_room(service, room)
            return f"room {room!r} of {service} falls back to the partitions"
        queue = await bus.isolate_room(service, room)
        return (
            f"room {room!r} of {service} now goes to queue {queue!r}; "
            f"start replicas with REFEREE_ROOMS={room} to serve it"
        )
    finally:
        await bus.close()


async def _health(settings: ServiceSettings, service: str) -> bool:
    redis = Redis.from_url(settings.redis_url)
    try:
        beats = await redis.hvals(Keys(settings.ns).heartbeat(service))
    finally:
        await redis.aclose()
    now = int(time.time() * 1000)
    return any(now - int(b) < HEARTBEAT_FRESH_MS for b in beats)


async def _topology(settings: ServiceSettings) -> str:
    bus = Bus.from_settings(settings)
    await bus.connect()
    try:
        await bus.declare_topology()
    finally:
        await bus.close()
    return f"declared the topology of namespace {settings.ns!r}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shared.ops", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("isolate", "unisolate"):
        cmd = sub.add_parser(name)
        cmd.add_argument("--service", choices=SERVICES, required=True)
        cmd.add_argument("--room", required=True)
    health = sub.add_parser("health")
    health.add_argument("--service", choices=SERVICES, required=True)
    sub.add_parser("topology")
    args = parser.parse_args(argv)
    settings = ServiceSettings()
    if args.command in ("isolate", "unisolate"):
        print(asyncio.run(_isolate(settings, args.service, args.room, args.command == "unisolate")))
        return 0
    if args.command == "health":
        ok = asyncio.run(_health(settings, args.service))
        print("healthy" if ok else "no fresh heartbeat")
        return 0 if ok else 1
    print(asyncio.run(_topology(settings)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
