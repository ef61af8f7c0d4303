"""Where an action's round trip goes, from the events its 200 answer carries.

Every event of one commit carries the same ``occurred_at`` (the runtime stamps a commit
once), so the events of an answer fall into commits in order: a ``react`` is committed by
services/turns (``reaction.answered``), then by services/resolution (``action.resolved``),
then by services/turns again (``action.completed``). With the client's send and receive
times around them, the round trip splits into segments: ``POST -> first commit``, one
segment per hand-over between commits, and ``last commit -> 200``. The clocks are this
machine's, shared by every process.
"""

from __future__ import annotations

import itertools
from datetime import datetime
from typing import Any

from bench.stats import percentiles


def segments(
    sent_s: float, received_s: float, events: list[dict[str, Any]]
) -> list[tuple[str, float]]:
    """``(label, seconds)`` of each segment of one answered action (wall-clock seconds)."""
    commits: list[tuple[float, str]] = []
    for event in events:
        at = datetime.fromisoformat(event["occurred_at"]).timestamp()
        if not commits or commits[-1][0] != at:
            commits.append((at, event["type"]))
    if not commits:
        return [("POST -> 200", received_s - sent_s)]
    found = [(f"POST -> {commits[0][1]}", commits[0][0] - sent_s)]
    for (before, first), (after, then) in itertools.pairwise(commits):
        found.append((f"{first} -> {then}", after - before))
    found.append((f"{commits[-1][1]} -> 200", received_s - commits[-1][0]))
    return found


class Hops:
    """Segments of every timed action, by action type."""

    def __init__(self) -> None:
        self._by_kind: dict[str, dict[str, list[float]]] = {}

    def add(self, kind: str, sent_s: float, received_s: float, events: list[Any]) -> None:
        per_kind = self._by_kind.setdefault(kind, {})
        for label, seconds in segments(sent_s, received_s, events):
            per_kind.setdefault(label, []).append(seconds)

    def summary(self) -> dict[str, dict[str, dict[str, float]]]:
        """``{kind: {segment: {"count", "p50", "p99"}}}`` in milliseconds."""
        report: dict[str, dict[str, dict[str, float]]] = {}
        for kind, per_kind in sorted(self._by_kind.items()):
            report[kind] = {}
            for label, values in per_kind.items():
                stats = percentiles(values, (50.0, 99.0))
                report[kind][label] = {
                    "count": len(values),
                    **{k: round(v * 1000, 1) for k, v in stats.items()},
                }
        return report
