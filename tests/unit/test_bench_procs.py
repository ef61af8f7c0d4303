"""bench/procs.py and bench/messages.py: CPU, Redis commands and broker messages per operation."""

from __future__ import annotations

from typing import Any

from bench.messages import message_counts, message_lines
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


async def test_broker_messages_are_counted_per_operation_apart_from_the_cpu() -> None:
    meter = Meter(
        [
            {"turns": 10.0, MACHINE: 100.0, "published to events": 50.0, "delivered to turns": 9.0},
            {
                "turns": 12.0,
                MACHINE: 104.0,
                "published to events": 650.0,
                "delivered to turns": 409.0,
            },
        ]
    )
    await meter.start()
    report: dict[str, Any] = await meter.stop(2.0)
    assert report["published to events"] == {"count": 600}
    assert report[OTHERS]["cpu_s"] == 2.0  # the counts are not CPU seconds
    per_operation(report, 200)
    assert message_lines(report) == [
        "  broker messages published per operation 3.0 (events 3.0)",
        "  broker messages consumed per operation 2.0 (turns 2.0)",
    ]


def test_a_metrics_page_gives_the_messages_by_destination_and_by_consumer() -> None:
    page = "\n".join(
        [
            "# TYPE referee_published_total counter",
            'referee_published_total{destination="events"} 7.0',
            'referee_published_total{destination="reply"} 3.0',
            "# TYPE referee_deliveries_total counter",
            'referee_deliveries_total{service="turns"} 4.0',
            "# TYPE referee_timers_fired_total counter",
            'referee_timers_fired_total{service="turns"} 2.0',
            "",
        ]
    )
    assert message_counts(page) == {
        "published to events": 7.0,
        "published to reply": 3.0,
        "delivered to turns": 4.0,
    }
