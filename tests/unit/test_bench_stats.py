"""bench/stats.py: nearest-rank percentiles, ratios and the status classes of the report."""

from __future__ import annotations

import pytest

from bench.stats import Tally, percentile, percentiles, ratio, status_class

TEN = [float(v) for v in range(1, 11)]  # 1..10


@pytest.mark.parametrize(
    ("samples", "p", "expected"),
    [
        pytest.param([7.0], 50, 7.0, id="one-sample-is-every-percentile"),
        pytest.param([7.0], 100, 7.0, id="one-sample-p100"),
        pytest.param(TEN, 50, 5.0, id="p50-of-ten-is-the-5th"),
        pytest.param(TEN, 51, 6.0, id="just-over-a-rank-takes-the-next"),
        pytest.param(TEN, 90, 9.0, id="p90-of-ten-is-the-9th"),
        pytest.param(TEN, 95, 10.0, id="p95-of-ten-rounds-up-to-the-10th"),
        pytest.param(TEN, 99, 10.0, id="p99-of-ten-is-the-max"),
        pytest.param(TEN, 100, 10.0, id="p100-is-the-max"),
        pytest.param(TEN, 0.1, 1.0, id="tiny-p-is-the-min"),
        pytest.param(list(reversed(TEN)), 50, 5.0, id="order-of-samples-does-not-matter"),
        pytest.param([3.0, 1.0, 2.0, 2.0], 50, 2.0, id="ties"),
        pytest.param([float(v) for v in range(1, 101)], 99, 99.0, id="p99-of-hundred"),
        pytest.param([float(v) for v in range(1, 1001)], 99, 990.0, id="p99-of-thousand"),
        pytest.param([0.5, 0.25], 50, 0.25, id="floats"),
    ],
)
def test_percentile_nearest_rank(samples: list[float], p: float, expected: float) -> None:
    assert percentile(samples, p) == expected


@pytest.mark.parametrize(
    ("samples", "p"),
    [
        pytest.param([], 50, id="no-samples"),
        pytest.param(TEN, 0, id="p0-is-undefined"),
        pytest.param(TEN, -5, id="negative-p"),
        pytest.param(TEN, 100.5, id="over-100"),
    ],
)
def test_percentile_refuses(samples: list[float], p: float) -> None:
    with pytest.raises(ValueError):
        percentile(samples, p)


def test_percentile_is_always_a_measured_value() -> None:
    samples = [0.013, 0.2, 0.0171, 1.5, 0.09, 0.31]
    for p in (1, 25, 50, 75, 95, 99, 100):
        assert percentile(samples, p) in samples


def test_percentiles_names_and_empty() -> None:
    assert percentiles(TEN) == {"p50": 5.0, "p95": 10.0, "p99": 10.0}
    assert percentiles(TEN, (50.0, 100.0)) == {"p50": 5.0, "p100": 10.0}
    assert percentiles([]) == {}


@pytest.mark.parametrize(
    ("numerator", "denominator", "expected"),
    [
        pytest.param(10.0, 4.0, 2.5, id="plain"),
        pytest.param(None, 4.0, None, id="no-numerator"),
        pytest.param(1.0, None, None, id="no-denominator"),
        pytest.param(1.0, 0.0, None, id="zero-denominator"),
    ],
)
def test_ratio(numerator: float | None, denominator: float | None, expected: float | None) -> None:
    assert ratio(numerator, denominator) == expected


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        pytest.param(200, "2xx", id="ok"),
        pytest.param(201, "2xx", id="created"),
        pytest.param(202, "202", id="accepted-kept-apart"),
        pytest.param(409, "4xx", id="conflict"),
        pytest.param(422, "4xx", id="rule-violation"),
        pytest.param(503, "5xx", id="unavailable"),
        pytest.param(0, "transport", id="no-answer"),
    ],
)
def test_status_class(status: int, expected: str) -> None:
    assert status_class(status) == expected


def test_tally_times_200s_and_completes_202s_apart() -> None:
    tally = Tally()
    tally.record("skill", 0.010, 200)
    tally.record("skill", 0.030, 200)
    tally.record("react", 0.020, 200)
    tally.record("react", 5.0, 202)
    tally.settled(6.5)
    tally.record("pass_turn", 0.001, 422)
    tally.error("422 not_your_turn")
    summary = tally.summary(seconds=2.0)
    assert summary["completed"] == 4
    assert summary["per_second"] == 2.0
    assert summary["latency_ms"] == {"p50": 20.0, "p95": 30.0, "p99": 30.0}
    assert summary["completion_ms"] == {"p50": 20.0, "p95": 6500.0, "p99": 6500.0}
    assert summary["latency_ms_by_kind"]["skill"]["count"] == 2
    assert summary["statuses"] == {"202": 1, "2xx": 3, "4xx": 1}
    assert summary["errors"] == {"422 not_your_turn": 1}
