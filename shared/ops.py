"""Operator commands: ``python -m shared.ops <command>``.

- ``isolate --service turns --room plaza``: bind the room on the service's command exchange
  to a queue of its own; start replicas with ``REFEREE_ROOMS=plaza`` to serve it.
- ``unisolate --service turns --room plaza``: the room falls back to the partitions.
- ``health --service turns``: exit 0 when the newest heartbeat of this host's replicas is
  fresh (container checks); a replica beats only while its consumers and timer poller work
  (shared/liveness.py). ``--any-host``: any replica's beat will do.
- ``topology``: declare every exchange and queue of the namespace.
- ``drop-namespace <ns>``: delete the namespace's queues, exchanges and Redis keys
  (shared/namespace.py); refused while its queues have consumers unless ``--force``;
  ``--dry-run`` only lists them.
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import time

from shared import liveness
from shared.bus import Bus
from shared.keys import Keys
from shared.messages import SERVICES
from shared.namespace import NamespaceInUseError, drop_namespace
from shared.redis_client import redis_client
from shared.redis_streams import text
from shared.settings import ServiceSettings


async def _isolate(settings: ServiceSettings, service: str, room: str, undo: bool) -> str:
    bus = Bus.from_settings(settings)
    redis = redis_client(settings.redis_url)
    record = Keys(settings.ns).isolated_rooms(service)
    await bus.connect()
    try:
        await bus.declare_topology()
        if undo:
            await bus.unisolate_room(service, room)
            await redis.srem(record, room)
            return f"room {room!r} of {service} falls back to the partitions"
        # Recorded first, so drop-namespace finds the queue even if the next step fails.
        await redis.sadd(record, room)
        queue = await bus.isolate_room(service, room)
        return (
            f"room {room!r} of {service} now goes to queue {queue!r}; "
            f"start replicas with REFEREE_ROOMS={room} to serve it"
        )
    finally:
        await bus.close()
        await redis.aclose()


async def _drop(settings: ServiceSettings, ns: str, force: bool, dry_run: bool) -> int:
    redis = redis_client(settings.redis_url)
    try:
        dropped = await drop_namespace(
            settings.rabbitmq_url, redis, ns, force=force, dry_run=dry_run
        )
    except NamespaceInUseError as exc:
        print(f"refused: {exc}")
        return 1
    finally:
        await redis.aclose()
    verb = "would delete" if dry_run else "deleted"
    print(f"{verb} {len(dropped.queues)} queues, {len(dropped.exchanges)} exchanges", end="")
    print("" if dry_run else f" and {dropped.keys} keys", f"of namespace {ns!r}")
    for queue in dropped.queues:
        print(f"  queue {queue}")
    return 0


async def _health(settings: ServiceSettings, service: str, host: str | None) -> tuple[bool, str]:
    redis = redis_client(settings.redis_url)
    try:
        raw = await redis.hgetall(Keys(settings.ns).heartbeat(service))
    finally:
        await redis.aclose()
    beats = {text(k): int(v) for k, v in raw.items()}
    return liveness.healthy(beats, int(time.time() * 1000), host)


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
    health.add_argument(
        "--any-host",
        action="store_true",
        help="any replica's beat will do (default: only this host's replicas count)",
    )
    sub.add_parser("topology")
    drop = sub.add_parser("drop-namespace")
    drop.add_argument("namespace")
    drop.add_argument("--force", action="store_true", help="even while queues have consumers")
    drop.add_argument("--dry-run", action="store_true", help="only list what would go")
    args = parser.parse_args(argv)
    settings = ServiceSettings()
    if args.command == "drop-namespace":
        return asyncio.run(_drop(settings, args.namespace, args.force, args.dry_run))
    if args.command in ("isolate", "unisolate"):
        print(asyncio.run(_isolate(settings, args.service, args.room, args.command == "unisolate")))
        return 0
    if args.command == "health":
        host = None if args.any_host else socket.gethostname()
        ok, said = asyncio.run(_health(settings, args.service, host))
        print(said)
        return 0 if ok else 1
    print(asyncio.run(_topology(settings)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
