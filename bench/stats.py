"""Percentiles, counters and the printed report of the benchmark.

Percentiles use the **nearest-rank** method: the p-th percentile of n sorted samples is the
sample at rank ``ceil(p / 100 * n)`` (1-based), so it is always one of the measured values
and p100 is the maximum. Nearest rank is what latency tools of this kind usually print
(HdrHistogram reports a recorded value too) and it never invents a latency between two
samples; with thousands of samples it differs from linear interpolation by less than the
gap between two neighbouring samples.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.messages import message_lines
from bench.procs import COMMANDS

PERCENTILES = (50.0, 95.0, 99.0)


def percentile(samples: Sequence[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile (0 < p <= 100) of ``samples`` (any order).

    Raises ``ValueError`` for an empty sequence or a ``p`` outside (0, 100].
    """
    if not samples:
        raise ValueError("percentile of no samples")
    if not 0 < p <= 100:
        raise ValueError(f"percentile {p} outside (0, 100]")
    ordered = sorted(samples)
    rank = math.ceil(p / 100 * len(ordered))
    return ordered[max(rank, 1) - 1]


def percentiles(samples: Sequence[float], ps: Iterable[float] = PERCENTILES) -> dict[str, float]:
    """``{"p50": ..., "p95": ...}``; empty when there are no samples."""
    if not samples:
        return {}
    ordered = sorted(samples)
    return {f"p{p:g}": percentile(ordered, p) for p in ps}


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """``numerator / denominator``, or None when either is missing or the divisor is 0."""
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


@dataclass
class Tally:
    """What a load run measured: latencies (seconds) and answers by status class.

    ``latencies`` are the round trips answered 200; ``late`` the time until completion of
    the actions first answered 202 and then polled until they completed. Throughput counts
    both; ``completion_ms`` is the percentile set over both.
    """

    latencies: list[float] = field(default_factory=list)
    late: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    statuses: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)

    def record(self, kind: str, seconds: float, status: int) -> None:
        self.statuses[status_class(status)] += 1
        if status == 200:
            self.latencies.append(seconds)
            self.by_kind.setdefault(kind, []).append(seconds)

    def settled(self, seconds: float) -> None:
        """An action answered 202 completed ``seconds`` after it was sent."""
        self.late.append(seconds)

    def error(self, code: str) -> None:
        self.errors[code] += 1

    @property
    def completed(self) -> int:
        return len(self.latencies) + len(self.late)

    def summary(self, seconds: float) -> dict[str, Any]:
        """Throughput and latency (ms) of the completed (200) answers over ``seconds``."""
        return {
            "seconds": round(seconds, 3),
            "completed": self.completed,
            "per_second": round(self.completed / seconds, 2) if seconds > 0 else None,
            "latency_ms": _ms(percentiles(self.latencies)),
            "completion_ms": _ms(percentiles(self.latencies + self.late)),
            "latency_ms_by_kind": {
                kind: {"count": len(v), **_ms(percentiles(v))}
                for kind, v in sorted(self.by_kind.items())
            },
            "statuses": dict(sorted(self.statuses.items())),
            "errors": dict(self.errors.most_common()),
        }


def status_class(status: int) -> str:
    """``"202"`` kept apart from the other 2xx (the suite answers 202 after 5 s); else ``Nxx``."""
    if status == 202:
        return "202"
    if status == 0:
        return "transport"
    return f"{status // 100}xx"


def _ms(values: dict[str, float]) -> dict[str, float]:
    return {k: round(v * 1000, 2) for k, v in values.items()}


def _pcts(values: dict[str, float]) -> str:
    return "  ".join(f"{k} {_fmt(values.get(k), ' ms')}" for k in ("p50", "p95", "p99"))


def _fmt(value: Any, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:,.2f}{unit}"
    return f"{value}{unit}"


def comparison_rows(suite: dict[str, Any], bare: dict[str, Any]) -> list[tuple[str, Any, Any, Any]]:
    """Rows (figure, suite, bare, suite/bare) for throughput and each latency percentile.

    Latencies are the completion times (a 202 counted until its action completed)."""
    rows: list[tuple[str, Any, Any, Any]] = [
        (
            "requests/s",
            suite.get("per_second"),
            bare.get("per_second"),
            ratio(suite.get("per_second"), bare.get("per_second")),
        )
    ]
    for key in ("p50", "p95", "p99"):
        s, b = suite.get("completion_ms", {}).get(key), bare.get("completion_ms", {}).get(key)
        rows.append((f"{key} ms", s, b, ratio(s, b)))
    return rows


def overdue_lines(overdue: dict[str, Any]) -> list[str]:
    """The overdue timers after a restart of services/turns (``bench/overdue.py``)."""
    after = overdue["fired_after_restart_ms"]
    return [
        f"overdue timers       {overdue['timers']} ({overdue['turn_seconds']} s turns,"
        f" turns down {overdue['down_seconds']} s): last fired"
        f" {_fmt(overdue['last_fired_after_ms'], ' ms')} after the restart,"
        f" p50 {_fmt(after.get('p50'), ' ms')}; ready after"
        f" {_fmt(overdue['ready_after_ms'], ' ms')}",
        f"  ran out before the kill {overdue['fired_before_kill']},"
        f" never fired {overdue['never_fired']}, fired twice {overdue['fired_twice']}",
    ]


def render(figures: dict[str, Any]) -> str:
    """The human report printed at the end of a run (the JSON file holds everything)."""
    lines: list[str] = []
    suite = figures.get("suite")
    if suite:
        load = suite["load"]
        lines += [
            f"== suite: {figures['combats']} combats, {load['seconds']} s measured ==",
            f"actions/s            {_fmt(load['per_second'])}",
            f"action round trip    {_pcts(load['latency_ms'])}   (answered 200)",
            f"action completion    {_pcts(load['completion_ms'])}   (202s polled to the end)",
        ]
        for kind, row in load["latency_ms_by_kind"].items():
            lines.append(
                f"  {kind:<18} n={row['count']:<7} p50 {_fmt(row.get('p50'), ' ms')}"
                f"  p99 {_fmt(row.get('p99'), ' ms')}"
            )
        for kind, segments in load.get("segments_ms", {}).items():
            lines.append(f"  where a {kind}'s round trip goes (p50 / p99):")
            for label, row in segments.items():
                p50, p99 = _fmt(row.get("p50"), " ms"), _fmt(row.get("p99"), " ms")
                lines.append(f"    {label:<40} {p50:>12} {p99:>12}")
        lines.append(f"answers              {load['statuses']}")
        if load["errors"]:
            lines.append(f"errors               {load['errors']}")
        for phase, row in suite.get("timers", {}).items():
            if isinstance(row, dict) and "lateness_ms" in row:
                lat = row["lateness_ms"]
                lines.append(
                    f"turn-timer lateness  ({phase}, n={row['count']}) "
                    f"p50 {_fmt(lat.get('p50'), ' ms')}  p99 {_fmt(lat.get('p99'), ' ms')}"
                    f"  max {_fmt(lat.get('p100'), ' ms')}"
                )
        stream = suite.get("event_stream", {})
        if stream.get("lag_ms"):
            lag = stream["lag_ms"]
            lines.append(
                f"event stream lag     (n={stream['events']}) p50 {_fmt(lag.get('p50'), ' ms')}"
                f"  p99 {_fmt(lag.get('p99'), ' ms')}  max {_fmt(lag.get('p100'), ' ms')};"
                f" caught up {stream['caught_up_after_s']} s after the load"
            )
        mem = suite.get("memory", {})
        lines.append(
            f"Redis per combat     {_fmt(mem.get('bytes_per_combat'), ' B')}"
            f" ({mem.get('keys_per_combat')} keys; used_memory delta per combat "
            f"{_fmt(mem.get('used_memory_delta_per_combat'), ' B')})"
        )
        lines.append(
            f"  without the log    {_fmt(mem.get('bytes_per_combat_without_log'), ' B')};"
            f" log {_fmt(mem.get('log_bytes_per_entry'), ' B')} per entry x"
            f" {mem.get('log_entries_per_combat')} entries"
        )
    watched = (suite or {}).get("viewers")
    if watched:
        lines += [
            f"with {watched['count']} idle SSE viewers ({watched['connected']} connected,"
            f" {watched['refused']} refused): actions/s {_fmt(watched['per_second'])},"
            f" completion {_pcts(watched['completion_ms'])}",
            f"  beside the load without them: p50 x{_fmt(watched['p50_ratio'])}"
            f"  p99 x{_fmt(watched['p99_ratio'])}",
        ]
    overdue = (suite or {}).get("restart_timers")
    if overdue:
        lines += overdue_lines(overdue)
    bare = figures.get("bare")
    if bare:
        lines += [
            f"== bare stack: {figures['combats']} concurrent clients, {bare['seconds']} s ==",
            f"requests/s           {_fmt(bare['per_second'])}",
            f"round trip           {_pcts(bare['latency_ms'])}",
            f"answers              {bare['statuses']}",
        ]
    for name, part in (("suite", suite), ("bare stack", bare)):
        cpu = (part or {}).get("cpu")
        if cpu:
            lines.append(f"-- CPU over the measured window ({name}): cores, ms per operation")
            for proc, row in cpu.items():
                if "count" in row:  # not a process: Redis commands, broker messages
                    continue
                per_op = _fmt(row.get("ms_per_op"), " ms")
                lines.append(f"  {proc:<30} {row['cores']:>5.2f}   {per_op:>10}")
            commands = cpu.get(COMMANDS)
            if commands:
                per = _fmt(commands.get("per_op"))
                lines.append(f"  Redis commands per operation    {per:>16}")
            lines += message_lines(cpu)
    if suite and bare:
        lines.append("== suite beside the bare stack ==")
        lines.append(f"{'figure':<12} {'suite':>12} {'bare':>12} {'suite/bare':>11}")
        for name, s, b, r in comparison_rows(suite["load"], bare):
            lines.append(f"{name:<12} {_fmt(s):>12} {_fmt(b):>12} {_fmt(r):>11}")
    return "\n".join(lines)
