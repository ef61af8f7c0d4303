"""One chaos stack: a private RabbitMQ and Redis (optionally behind TCP proxies) and the four
processes of the suite started on them, in a namespace and on a port of their own."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.chaos.proxy import TcpProxy
from tests.chaos.servers import PrivateRabbit, PrivateRedis
from tests.support.infra import new_namespace
from tests.support.suite import Suite, free_port

FAST_ENV = {
    "REFEREE_RATE_PER_SECOND": "100000",  # one key drives many combats: measure the suite
    "REFEREE_RATE_BURST": "100000",
    "REFEREE_TIMER_LEASE_MS": "3000",  # a dead poller's timers come back within 3 s
    "REFEREE_RECONCILE_SECONDS": "5",
    "REFEREE_DELIVERY_LIMIT": "5",
}


@dataclass
class Stack:
    base: Path
    proxied: bool = False
    partitions: int = 8
    rabbit: PrivateRabbit = field(init=False)
    redis: PrivateRedis = field(init=False)
    rabbit_proxy: TcpProxy | None = None
    redis_proxy: TcpProxy | None = None
    suite: Suite = field(init=False)
    faults: list[tuple[str, float]] = field(default_factory=list)
    target: str | None = None  # a live combat a fault may aim at

    def __post_init__(self) -> None:
        self.rabbit = PrivateRabbit(self.base / "rabbitmq")
        self.redis = PrivateRedis(self.base / "redis")

    async def start(self) -> None:
        await asyncio.to_thread(self.rabbit.start)
        await asyncio.to_thread(self.redis.start)
        rabbit_url, redis_url = self.rabbit.url, self.redis.url
        if self.proxied:
            self.rabbit_proxy = TcpProxy(self.rabbit.port)
            self.redis_proxy = TcpProxy(self.redis.port)
            self.rabbit_proxy.start()
            self.redis_proxy.start()
            rabbit_url = f"amqp://guest:guest@127.0.0.1:{self.rabbit_proxy.port}/"
            redis_url = f"redis://127.0.0.1:{self.redis_proxy.port}/0"
        self.suite = Suite(
            new_namespace("chaos"),
            rabbit_url,
            redis_url,
            self.base / "logs",
            admin_token=secrets.token_urlsafe(24),
            partitions=self.partitions,
            extra_env=dict(FAST_ENV),
            process_env={"turns": {"REFEREE_METRICS_PORT": str(free_port())}},
        )
        await asyncio.to_thread(self.suite.start_all, ready_timeout=120)

    async def stop(self) -> None:
        if hasattr(self, "suite"):
            await asyncio.to_thread(self.suite.stop_all)
        for proxy in (self.rabbit_proxy, self.redis_proxy):
            if proxy is not None:
                proxy.stop()
        await asyncio.to_thread(self.rabbit.remove)
        await asyncio.to_thread(self.redis.remove)

    async def kill_and_restart(
        self, name: str, *, down_seconds: float = 1.0, busy_seconds: float = 0.0
    ) -> None:
        """kill -9 one process, leave it down a moment, start it again. ``busy_seconds``: hang
        it (SIGSTOP) that long first, so that the kill lands while messages the broker handed
        it are still unacknowledged (on a quiet machine a handler takes milliseconds, and a kill
        at a random moment often finds nothing in flight)."""
        self.mark(f"kill -9 {name}")
        if busy_seconds:
            self.suite.freeze(name)
            await asyncio.sleep(busy_seconds)
        await asyncio.to_thread(self.suite.kill, name)
        await asyncio.sleep(down_seconds)
        await asyncio.to_thread(self.suite.restart, name)

    def mark(self, fault: str) -> None:
        """Note when a fault hits, for its recovery time."""
        self.faults.append((fault, time.time()))

    def redeliveries(self) -> int:
        """Messages the broker delivered again, as the services logged them."""
        return self._logged("message_redelivered")

    @property
    def metrics_port(self) -> int:
        """Where services/turns serves its metrics (the stalled-combat gauge, issue 18)."""
        return int(self.suite.process_env["turns"]["REFEREE_METRICS_PORT"])

    def stalls_logged(self) -> int:
        """``combat_stalled`` lines the reconcilers wrote (they outlive a kill)."""
        return self._logged("combat_stalled")

    def held(self) -> int:
        """Times a service held a message and retried because Redis or the broker was down."""
        return self._logged("handler_dependency_down")

    def _logged(self, what: str) -> int:
        count = 0
        for name in ("turns", "resolution", "states"):
            path = self.suite.log_dir / f"{name}.log"
            if path.exists():
                count += path.read_text(errors="replace").count(what)
        return count

    async def wait_ready(self, within: float = 120) -> float:
        started = time.monotonic()
        await asyncio.to_thread(self.suite.wait_ready, within)
        return time.monotonic() - started
