"""The bench with 1 and 2 replicas per service prints the ratio (issue 16, item 4)."""

from __future__ import annotations

from bench.__main__ import parse, replica_line


def test_replicas_take_a_list() -> None:
    assert parse([]).replicas == [1]
    assert parse(["--replicas", "1,2"]).replicas == [1, 2]


def test_the_ratio_line() -> None:
    figures = {"replicas": {"actions_per_second": {1: 50.0, 2: 80.0}, "ratio": 1.6, "of": [2, 1]}}
    assert replica_line(figures) == (
        "== replicas per service: actions/s 1 replicas 50.00, 2 replicas 80.00; ratio 2/1 = 1.60 =="
    )
    assert replica_line({}) is None
