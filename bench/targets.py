"""The figures the suite is held to, each beside its target, from one run's figures.

A run plays one or more sizes (``--combats 10 200``); every size has its suite and its bare
stack, measured back to back on the same machine. The ratios to the bare chain use the
smallest size for latency (an unsaturated machine: what one action costs in time) and the
largest for throughput and CPU (a saturated one: what one action costs in work). A figure
the run did not measure is reported as such, never as met.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.stats import ratio

MET, MISSED, UNMEASURED = "met", "MISSED", "not measured"

Runs = dict[int, dict[str, Any]]  # combats -> {"suite": ..., "bare": ...}


@dataclass(frozen=True)
class Target:
    name: str
    bound: float
    at_most: bool  # True: the figure must be <= bound; False: >= bound
    unit: str
    measure: Callable[[Runs], float | None]

    def verdict(self, value: float | None) -> str:
        if value is None:
            return UNMEASURED
        return MET if (value <= self.bound if self.at_most else value >= self.bound) else MISSED

    @property
    def wanted(self) -> str:
        return f"{'<=' if self.at_most else '>='} {self.bound:g}{self.unit}"


def _get(part: dict[str, Any] | None, *path: str) -> float | None:
    node: Any = part
    for step in path:
        if not isinstance(node, dict):
            return None
        node = node.get(step)
    return float(node) if isinstance(node, int | float) else None


def _size(runs: Runs, largest: bool) -> dict[str, Any]:
    if not runs:
        return {}
    return runs[max(runs) if largest else min(runs)]


def _suite(runs: Runs, largest: bool, *path: str) -> float | None:
    return _get(_size(runs, largest).get("suite"), *path)


def _versus_bare(
    runs: Runs, largest: bool, suite_path: tuple[str, ...], bare_path: tuple[str, ...]
) -> float | None:
    run = _size(runs, largest)
    return ratio(_get(run.get("suite"), *suite_path), _get(run.get("bare"), *bare_path))


MACHINE = ("cpu", "machine (all processes)", "ms_per_op")


def targets(runs: Runs) -> list[Target]:
    small, large = min(runs, default=0), max(runs, default=0)
    viewers = int(_suite(runs, True, "viewers", "count") or 1000)
    overdue = int(_suite(runs, True, "restart_timers", "timers") or 2000)
    return [
        Target(
            f"throughput at {large} combats / bare",
            0.4,
            False,
            "x",
            lambda r: _versus_bare(r, True, ("load", "per_second"), ("per_second",)),
        ),
        Target(
            f"action p50 at {small} combats / bare",
            3,
            True,
            "x",
            lambda r: _versus_bare(
                r, False, ("load", "completion_ms", "p50"), ("completion_ms", "p50")
            ),
        ),
        Target(
            f"action p99 at {small} combats / bare",
            4,
            True,
            "x",
            lambda r: _versus_bare(
                r, False, ("load", "completion_ms", "p99"), ("completion_ms", "p99")
            ),
        ),
        Target(
            f"machine CPU per action at {large} combats / bare",
            2.5,
            True,
            "x",
            lambda r: _versus_bare(r, True, MACHINE, MACHINE),
        ),
        Target(
            f"turn-timer lateness under load p99 ({large} combats)",
            250,
            True,
            " ms",
            lambda r: _suite(r, True, "timers", "under_load", "lateness_ms", "p99"),
        ),
        Target(
            f"turn-timer earliest firing under load ({large} combats)",
            0,
            False,
            " ms",
            lambda r: _suite(r, True, "timers", "under_load", "earliest_ms"),
        ),
        Target(
            f"{overdue:,} overdue timers after turns restarts: last one fired after",
            5000,
            True,
            " ms",
            lambda r: _suite(r, True, "restart_timers", "last_fired_after_ms"),
        ),
        Target(
            f"event stream lag p99 ({large} combats)",
            250,
            True,
            " ms",
            lambda r: _suite(r, True, "event_stream", "lag_ms", "p99"),
        ),
        Target(
            f"Redis per active combat without its log ({large} combats)",
            20_000,
            True,
            " B",
            lambda r: _suite(r, True, "memory", "bytes_per_combat_without_log"),
        ),
        Target(
            f"action p99 with {viewers:,} SSE viewers / without ({large} combats)",
            1.5,
            True,
            "x",
            lambda r: _suite(r, True, "viewers", "p99_ratio"),
        ),
    ]


def rows(runs: Runs) -> list[tuple[str, float | None, str, str]]:
    """(figure, measured, target, verdict) for every target of the issue."""
    return [(t.name, (v := t.measure(runs)), t.wanted, t.verdict(v)) for t in targets(runs)]


def render(runs: Runs) -> list[str]:
    lines = ["== targets ==", f"{'figure':<64} {'measured':>12} {'target':>12}  verdict"]
    for name, value, wanted, verdict in rows(runs):
        shown = "-" if value is None else f"{value:,.2f}"
        lines.append(f"{name:<64} {shown:>12} {wanted:>12}  {verdict}")
    return lines
