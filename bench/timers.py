"""Turn-timer lateness: combats where nobody acts, so every turn runs out.

Each turn's ``turn.started`` event carries its ``turn_seq`` and ``deadline_ms``; when the
timer fires, services/turns commits ``turn.timed_out`` with the same ``turn_seq``, and the
envelope's ``occurred_at`` is the moment of that commit. Lateness is
``timed_out.occurred_at - started.deadline_ms``: the poller's interval, the trip of the
``timer.fired`` command through RabbitMQ and the handling in services/turns.

Lateness is reported per phase of the run by the turn's deadline: ``idle`` (before the
load starts), ``under_load`` (inside the measured window); the warm-up is left out.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from referee_client import AsyncReferee

from bench.api import combat_log
from bench.stats import percentiles


def _ms(rfc3339: str) -> float:
    return datetime.fromisoformat(rfc3339).timestamp() * 1000


def lateness_of(events: list[dict[str, Any]]) -> list[tuple[int, float]]:
    """``(deadline_ms, lateness_ms)`` of every timed-out turn in one combat's log."""
    deadlines: dict[int, int] = {}
    found: list[tuple[int, float]] = []
    for event in events:
        data = event.get("data") or {}
        if event["type"] == "turn.started":
            deadlines[int(data["turn_seq"])] = int(data["deadline_ms"])
        elif event["type"] == "turn.timed_out":
            deadline = deadlines.get(int(data["turn_seq"]))
            if deadline is not None:
                found.append((deadline, _ms(event["occurred_at"]) - deadline))
    return found


def summarise(samples: list[float]) -> dict[str, Any]:
    stats = percentiles(samples, (50.0, 99.0, 100.0))
    return {
        "count": len(samples),
        "lateness_ms": {k: round(v, 2) for k, v in stats.items()},
        "earliest_ms": round(min(samples), 2) if samples else None,  # < 0: fired early
    }


async def measure(
    api: AsyncReferee,
    combat_ids: list[str],
    phases: dict[str, tuple[float, float]],
) -> dict[str, Any]:
    """Lateness p50 / p99 / max per phase; ``phases`` maps a name to a wall-clock ms range."""
    logs = await asyncio.gather(*(combat_log(api, c) for c in combat_ids))
    by_phase: dict[str, list[float]] = {name: [] for name in phases}
    timed_out = 0
    for events in logs:
        for deadline, late in lateness_of(events):
            timed_out += 1
            for name, (start, end) in phases.items():
                if start <= deadline < end:
                    by_phase[name].append(late)
    report: dict[str, Any] = {name: summarise(v) for name, v in by_phase.items() if v}
    report["combats"] = len(combat_ids)
    report["timed_out_turns"] = timed_out
    return report
