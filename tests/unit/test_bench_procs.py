"""bench/procs.py: CPU and Redis commands per operation over the measured window."""

from __future__ import annotations

from typing import Any

from bench.procs import COMMANDS, MACHINE, OTHERS, CpuMeter, per_operation


class Meter(CpuMeter):
    """A meter whose samples are given, not read from /proc and Redis."""

    def __init__(self, samples: list[dict[str, float | None]]) -> None:
        self._samples = iter(samples)
        self._start = {}

    async def _sample(self) -> dict[str, float | None]:
        return next(self._samples)


async def test_redis_commands_are_counted_apart_from_the_processes_cpu() -> None:
    meter = Meter(
        [
            {"turns": 10.0, "redis": 1.0, MACHINE: 100.0, COMMANDS: 5_000.0},
            {"turns": 12.0, "redis": 1.5, MACHINE: 104.0, COMMANDS: 9_000.0},
        ]
    )
    await meter.start()
    report: dict[str, Any] = await meter.stop(2.0)
    assert report[COMMANDS] == {"count": 4_000}
    assert report[OTHERS]["cpu_s"] == 1.5  # 4 s busy, 2.5 s of them ours: no command counted
    per_operation(report, 200)
    assert report[COMMANDS]["per_op"] == 20.0
    assert report["turns"]["ms_per_op"] == 10.0
