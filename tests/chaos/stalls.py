"""Issue 18's stalled-combat metric, read from services/turns while a scenario runs.

services/turns serves its metrics on a port of its own (``REFEREE_METRICS_PORT``, set by
:class:`tests.chaos.stack.Stack`); :class:`StallReader` polls it every ``every`` seconds and
keeps the highest ``referee_stalled_combats{service="turns"}`` seen and the stalls detected
(``referee_stalled_combats_detected_total``, summed over its reasons; a kill restarts the
counter, so increases are added up across restarts). The services' ``combat_stalled`` log
lines are counted too (they outlive a kill). All must stay at 0.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

import httpx
from prometheus_client.parser import text_string_to_metric_families

GAUGE = "referee_stalled_combats"
DETECTED = "referee_stalled_combats_detected_total"


def stall_samples(text: str) -> tuple[float, float]:
    """(the turns gauge, the detected total over every reason) of one /metrics page."""
    gauge = detected = 0.0
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.labels.get("service") not in (None, "turns"):
                continue
            if sample.name == GAUGE:
                gauge = max(gauge, sample.value)
            elif sample.name == DETECTED:
                detected += sample.value
    return gauge, detected


@dataclass
class StallReader:
    port: int
    every: float = 2.0
    reads: int = 0
    gauge_max: float = 0.0
    detected: float = 0.0
    _last_total: float | None = None
    _task: asyncio.Task[None] | None = field(default=None, repr=False)

    async def read(self) -> None:
        try:
            async with httpx.AsyncClient() as client:
                answer = await client.get(f"http://127.0.0.1:{self.port}/metrics", timeout=5)
        except httpx.HTTPError:
            return  # services/turns is down (killed): read again on the next pass
        gauge, total = stall_samples(answer.text)
        self.reads += 1
        self.gauge_max = max(self.gauge_max, gauge)
        if self._last_total is not None:  # the first read is the baseline
            self.detected += total - self._last_total if total >= self._last_total else total
        self._last_total = total

    async def _loop(self) -> None:
        while True:
            await self.read()
            await asyncio.sleep(self.every)

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop())

    async def stop(self) -> dict[str, float | int]:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.read()
        return {
            "stalled_gauge_max": self.gauge_max,
            "stalled_detected": self.detected,
            "stalled_metric_reads": self.reads,
        }
