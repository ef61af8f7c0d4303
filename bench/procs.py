"""CPU seconds of the processes under test, read from ``/proc`` (Linux) and Redis ``INFO``.

So the report can say where the time went during the measured window: the gateway, each
service, the load generator itself, Redis and the RabbitMQ node (the last two are shared
with whatever else runs on this machine, so their figures are an upper bound).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from redis.asyncio import Redis

from bench.messages import is_count, suite_counts

TICKS = os.sysconf("SC_CLK_TCK")
MACHINE = "machine (all processes)"
OTHERS = "others (not part of this run)"
COMMANDS = "redis commands"


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of one process, or None if it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def pids_named(name: str) -> list[int]:
    """Processes whose ``comm`` is ``name`` (e.g. RabbitMQ's ``beam.smp``)."""
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() == name:
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def machine_busy_seconds() -> float:
    """CPU seconds this machine spent on anything but idle and I/O wait, all cores."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    values = [int(v) for v in fields[:8]]
    return (sum(values) - values[3] - values[4]) / TICKS


async def redis_cpu(redis: Redis) -> float:
    info = await redis.info("cpu")
    return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])


async def redis_commands(redis: Redis) -> float:
    """Commands Redis has processed since it started (every client's: the bench runs alone)."""
    info = await redis.info("stats")
    return float(info["total_commands_processed"])


class CpuMeter:
    """CPU seconds spent by named processes between :meth:`start` and :meth:`stop`."""

    def __init__(self, pids: dict[str, int], redis: Redis, metrics: Sequence[str] = ()) -> None:
        self.pids = {**pids, "bench (load generator)": os.getpid()}
        self.metrics = metrics  # the processes' metrics pages: messages published, consumed
        for index, pid in enumerate(pids_named("beam.smp")):
            self.pids[f"rabbitmq{index or ''}"] = pid
        self.redis = redis
        self._start: dict[str, float | None] = {}

    async def _sample(self) -> dict[str, float | None]:
        sample = {name: cpu_seconds(pid) for name, pid in self.pids.items()}
        sample["redis"] = await redis_cpu(self.redis)
        sample[MACHINE] = machine_busy_seconds()
        sample[COMMANDS] = await redis_commands(self.redis)
        sample.update(await suite_counts(self.metrics))
        return sample

    async def start(self) -> None:
        self._start = await self._sample()

    async def stop(self, seconds: float) -> dict[str, Any]:
        """Per process: CPU seconds and share of one core over ``seconds`` of wall time."""
        end = await self._sample()
        report: dict[str, Any] = {}
        for name, before in self._start.items():
            after = end.get(name)
            if before is None or after is None:
                continue
            used = after - before
            if name == COMMANDS or is_count(name):
                report[name] = {"count": int(used)}
                continue
            report[name] = {"cpu_s": round(used, 2), "cores": round(used / seconds, 2)}
        if MACHINE in report:
            ours = sum(v.get("cpu_s", 0.0) for k, v in report.items() if k != MACHINE)
            others = max(report[MACHINE]["cpu_s"] - ours, 0.0)
            report[OTHERS] = {"cpu_s": round(others, 2), "cores": round(others / seconds, 2)}
        return report


async def cpu_over_window(
    pids: dict[str, int],
    redis: Redis,
    warmup: float,
    seconds: float,
    metrics: Sequence[str] = (),
) -> dict[str, Any]:
    """CPU per process over the measured window (it starts after ``warmup``), and the
    message counts of the processes whose metrics pages are ``metrics``."""
    meter = CpuMeter(pids, redis, metrics)
    await asyncio.sleep(warmup)
    await meter.start()
    await asyncio.sleep(seconds)
    return await meter.stop(seconds)


def per_operation(cpu: dict[str, Any], operations: int) -> None:
    """Add each process's CPU milliseconds per completed operation (action or request), and
    the Redis commands per operation."""
    for row in cpu.values():
        if "count" in row:
            row["per_op"] = round(row["count"] / operations, 1) if operations else None
            continue
        row["ms_per_op"] = round(row["cpu_s"] * 1000 / operations, 2) if operations else None


async def wait_quiet(limit: float, *, threshold: float = 0.5, sample: float = 5.0) -> float:
    """Wait (at most ``limit`` s) until the machine's busy cores over ``sample`` s fall under
    ``threshold``; other people's work on a shared machine skews every figure. Returns the
    busy cores of the last sample."""
    deadline = time.monotonic() + limit
    while True:
        before = machine_busy_seconds()
        await asyncio.sleep(sample)
        busy = (machine_busy_seconds() - before) / sample
        if busy < threshold or time.monotonic() >= deadline:
            return round(busy, 2)
