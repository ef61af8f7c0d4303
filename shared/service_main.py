"""Process bootstrap of a service: wire the adapters once, run until a signal."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import time
from collections.abc import Awaitable, Callable

from prometheus_client import start_http_server
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from shared import liveness, tracing
from shared.bus import Bus
from shared.keys import Keys
from shared.logging import configure, get_logger
from shared.metrics import OUTBOX_DIRTY
from shared.redis_client import redis_client
from shared.redis_streams import text
from shared.runtime import RedisServiceRuntime, ServiceSpec
from shared.settings import ServiceSettings
from shared.timer_poller import CLAIM_AHEAD_MS, TimerPoller
from shared.timers import now_ms

log = get_logger(__name__)


READY_PROBE = "referee:ready-probe"
"""A key nobody writes: reading it fails with ``LOADING`` while Redis loads its data."""


async def until_redis_ready(
    redis: Redis,
    *,
    every: float = 0.2,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> int:
    """Wait while Redis is down or still loading its data after a restart
    (``BusyLoadingError`` is a connection error): a replica started then must wait, not die
    on its first command. Returns how many tries failed."""
    failed = 0
    while True:
        try:
            await redis.exists(READY_PROBE)
            return failed
        except (RedisConnectionError, RedisTimeoutError) as exc:
            failed += 1
            if failed == 1 or failed % 50 == 0:
                log.warning("redis_not_ready", error=type(exc).__name__, tries=failed)
            await sleep(every)


async def _every(
    seconds: float, what: str, fn: Callable[[], Awaitable[object]], stop: asyncio.Event
) -> None:
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), seconds)
        if stop.is_set():
            return
        try:
            await fn()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning(f"{what}_failed", exc_info=True)


async def serve(spec: ServiceSpec, settings: ServiceSettings) -> None:
    """Run one replica of a service until SIGINT / SIGTERM."""
    configure(level=settings.log_level, json=settings.log_json, service=spec.name)
    tracing.start(spec.name)  # before the bus consumes (off unless configured)
    keys = Keys(settings.ns)
    redis = redis_client(settings.redis_url)
    await until_redis_ready(redis)
    bus = Bus.from_settings(settings)
    await bus.connect()
    await bus.declare_topology()
    runtime = RedisServiceRuntime(
        spec,
        redis=redis,
        bus=bus,
        keys=keys,
        retention_seconds=settings.referee_combat_retention_seconds,
        timer_shards=settings.referee_timer_shards,
        batches=settings.referee_event_batches,
    )
    instance = f"{socket.gethostname()}:{os.getpid()}"
    beats = keys.heartbeat(spec.name)
    dirty = keys.outbox_dirty(spec.name)

    poller = TimerPoller(
        runtime.timers,
        runtime.fire_timer,
        poll_ms=settings.referee_timer_poll_ms,
        lease_ms=settings.referee_timer_lease_ms,
        ahead_ms=CLAIM_AHEAD_MS,
    )

    watchdog = liveness.Watchdog(settings.referee_unhealthy_exit_seconds)
    gave_up = asyncio.Event()

    async def heartbeat() -> None:
        """Beat only while this replica's consumers and timer poller work (shared/liveness);
        exit for a fresh start when it stays unhealthy."""
        OUTBOX_DIRTY.labels(spec.name).set(await redis.zcard(dirty))
        found = liveness.problems(
            consuming=bus.consuming, poller_age_seconds=time.monotonic() - poller.last_poll
        )
        if watchdog.gives_up(found, time.monotonic()):
            log.error("replica_exiting", problems=found, instance=instance)
            gave_up.set()
            stop.set()
            return
        if found:
            log.warning("replica_unhealthy", problems=found, instance=instance)
            return
        now = now_ms()
        await redis.hset(beats, instance, now)
        seen = {text(k): int(v) for k, v in (await redis.hgetall(beats)).items()}
        gone = liveness.stale(seen, now)
        if gone:
            await redis.hdel(beats, *gone)

    if settings.referee_metrics_port:
        start_http_server(settings.referee_metrics_port, settings.referee_metrics_host)
    queues = await bus.consume_service(spec.name, runtime.handle, rooms=settings.rooms)
    stop = asyncio.Event()
    await heartbeat()
    tasks = [
        asyncio.create_task(poller.run_forever(stop), name="timers"),
        asyncio.create_task(runtime.relay.sweep_forever(settings.referee_outbox_sweep_ms, stop)),
        asyncio.create_task(
            _every(settings.referee_reconcile_seconds, "reconcile", runtime.reconcile_once, stop)
        ),
        asyncio.create_task(_every(2.0, "heartbeat", heartbeat, stop)),
    ]
    log.info("service_started", queues=len(queues), rooms=settings.rooms, instance=instance)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("service_stopping")
    await bus.stop_consuming()
    # The loops see `stop` at their next turn; a cancel covers one blocked in I/O (redis-py
    # may swallow a cancellation that lands inside a command, so do not wait forever).
    _, pending = await asyncio.wait(tasks, timeout=2)
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending, timeout=2)
    await bus.close()
    await redis.hdel(keys.heartbeat(spec.name), instance)
    await redis.aclose()
    if gave_up.is_set():
        raise SystemExit(1)


def event_loop_runner() -> asyncio.Runner:
    """uvloop where it is installed (uvicorn[standard] brings it), else asyncio's own loop."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop is a dependency of uvicorn[standard]
        return asyncio.Runner()
    return asyncio.Runner(loop_factory=uvloop.new_event_loop)


def main(make_spec: Callable[[Keys], ServiceSpec]) -> None:
    settings = ServiceSettings()
    with contextlib.suppress(KeyboardInterrupt), event_loop_runner() as runner:
        runner.run(serve(make_spec(Keys(settings.ns)), settings))
