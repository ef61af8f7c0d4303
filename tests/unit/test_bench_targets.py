"""bench/targets.py: each target of the issue read from a run's figures, beside its bound."""

from __future__ import annotations

from typing import Any

import pytest

from bench.targets import MET, MISSED, UNMEASURED, render, rows


def cpu(ms: float) -> dict[str, Any]:
    return {"machine (all processes)": {"ms_per_op": ms}}


def run(per_s: float, p50: float, p99: float, cpu_ms: float, **suite: Any) -> dict[str, Any]:
    return {
        "suite": {
            "load": {"per_second": per_s, "completion_ms": {"p50": p50, "p99": p99}},
            "cpu": cpu(cpu_ms),
            **suite,
        },
        "bare": {"per_second": 100.0, "completion_ms": {"p50": 10.0, "p99": 20.0}, "cpu": cpu(2)},
    }


RUNS = {
    10: run(50.0, 25.0, 100.0, 4.0),  # p50 2.5x (met), p99 5x (missed)
    200: run(
        45.0,  # 0.45x the bare throughput: met
        900.0,
        2000.0,
        6.0,  # 3x the bare CPU: missed
        timers={"under_load": {"lateness_ms": {"p99": 120.0}, "earliest_ms": -3.0}},
        event_stream={"lag_ms": {"p99": 80.0}},
        memory={"bytes_per_combat_without_log": 12_000.0},
    ),
}


@pytest.mark.parametrize(
    ("figure", "value", "verdict"),
    [
        ("throughput at 200 combats / bare", 0.45, MET),
        ("action p50 at 10 combats / bare", 2.5, MET),
        ("action p99 at 10 combats / bare", 5.0, MISSED),
        ("machine CPU per action at 200 combats / bare", 3.0, MISSED),
        ("turn-timer lateness under load p99 (200 combats)", 120.0, MET),
        ("turn-timer earliest firing under load (200 combats)", -3.0, MISSED),
        ("2,000 overdue timers after turns restarts: last one fired after", None, UNMEASURED),
        ("event stream lag p99 (200 combats)", 80.0, MET),
        ("Redis per active combat without its log (200 combats)", 12_000.0, MET),
        ("action p99 with 1,000 SSE viewers / without (200 combats)", None, UNMEASURED),
    ],
)
def test_each_target_is_read_from_its_size_and_judged(
    figure: str, value: float | None, verdict: str
) -> None:
    found = {name: (measured, v) for name, measured, _, v in rows(RUNS)}
    assert found[figure] == (pytest.approx(value) if value is not None else None, verdict)


def test_a_run_of_one_size_reports_every_target_and_measures_nothing_it_lacks() -> None:
    one: dict[int, dict[str, Any]] = {10: {"suite": {}, "bare": {}}}
    assert [v for *_, v in rows(one)] == [UNMEASURED] * 10
    assert len(render(one)) == 12


@pytest.mark.parametrize(
    ("last_fired_ms", "verdict"), [(3_200.0, MET), (5_000.0, MET), (54_000.0, MISSED)]
)
def test_the_overdue_timers_figure_names_how_many_timers_it_measured(
    last_fired_ms: float, verdict: str
) -> None:
    runs = {10: run(50.0, 25.0, 100.0, 4.0, restart_timers={"timers": 50})}
    runs[10]["suite"]["restart_timers"]["last_fired_after_ms"] = last_fired_ms
    found = {name: (measured, v) for name, measured, _, v in rows(runs)}
    figure = "50 overdue timers after turns restarts: last one fired after"
    assert found[figure] == (last_fired_ms, verdict)
