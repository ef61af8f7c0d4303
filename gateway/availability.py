"""Which services consume their commands, for readiness and for a command's 503.

The gateway stays ready while a service is down: reads come from Redis and go on. A command
for a service without a consumer on every partition is refused at once with 503 and
``Retry-After`` (nothing was published), instead of waiting for the request timeout and
leaving the command queued for whenever the service comes back. The consumer counts are
read with passive declares and kept for a second.

One read per service is in flight at a time, whoever asks, and a caller that stops waiting
(after ``WAIT_SECONDS``) never cancels it: a passive declare cancelled while the broker
answers leaves its channel half closed, and the broker then closes the whole connection
("CHANNEL_ERROR - expected 'channel.open'"), failing every publish in flight (found by the
bench at 200 combats: 1,239 cancelled declares, two connection closes, 300 commands 503). A
read that takes too long answers ``unknown`` (a command then gets its 503), as before.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from gateway.errors import ApiError
from shared.bus import Bus
from shared.messages import SERVICES

CACHE_SECONDS = 1.0
WAIT_SECONDS = 3.0
RETRY_AFTER_SECONDS = 5


def service_state(counts: dict[str, int]) -> str:
    """``ok`` when every partition queue has a consumer, else what is missing."""
    idle = [name for name, count in counts.items() if count == 0]
    return "ok" if not idle else f"no consumer on {len(idle)} of {len(counts)} queues"


class Availability:
    def __init__(self, bus: Bus, clock: Callable[[], float] = time.monotonic) -> None:
        self._bus = bus
        self._clock = clock
        self._states: dict[str, tuple[float, str]] = {}
        self._reads: dict[str, asyncio.Task[str]] = {}

    async def state(self, service: str) -> str:
        cached = self._states.get(service)
        now = self._clock()
        if cached is not None and now - cached[0] < CACHE_SECONDS:
            return cached[1]
        if not self._bus.is_connected:
            state = "unknown: RabbitMQ is down"
            self._states[service] = (now, state)
            return state
        read = self._reads.get(service)
        if read is None:
            read = asyncio.create_task(self._read(service))
            self._reads[service] = read
            read.add_done_callback(lambda _: self._reads.pop(service, None))
        try:
            async with asyncio.timeout(WAIT_SECONDS):
                return await asyncio.shield(read)
        except TimeoutError:
            return "unknown: the consumer counts are late"

    async def _read(self, service: str) -> str:
        """The consumer counts of ``service``'s partitions, read once, kept for a second."""
        names = [self._bus.names.partition(service, i) for i in range(self._bus.partitions)]
        try:
            state = service_state(await self._bus.consumer_counts(names))
        except Exception as exc:
            state = f"unknown: {exc!r}"
        self._states[service] = (self._clock(), state)
        return state

    async def states(self) -> dict[str, str]:
        return {service: await self.state(service) for service in SERVICES}

    async def require(self, service: str) -> None:
        """Raise 503 with ``Retry-After`` when ``service`` has no consumer on a partition."""
        state = await self.state(service)
        if state != "ok":
            raise ApiError(
                "dependency_unavailable",
                status=503,
                details={"service": service, "state": state},
                headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
            )
