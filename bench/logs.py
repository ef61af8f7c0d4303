"""What the suite's processes logged during a run, counted by process, level and event.

The suite runs with ``LOG_JSON=true`` under the benchmark, so every structlog line is a JSON
object with ``level`` and ``event``; other lines (uvicorn's, tracebacks) count as ``raw``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

ROUTINE = frozenset({"gateway_started", "service_started", "service_stopping"})


def count_lines(path: Path) -> Counter[str]:
    counts: Counter[str] = Counter()
    for line in path.read_text(errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            key = f"{record.get('level', '?')} {record.get('event', '?')}"
        except (ValueError, AttributeError):
            key = "raw"
        counts[key] += 1
    return counts


def summarise_logs(log_dir: Path) -> dict[str, dict[str, int]]:
    """``{process: {"warning handler_failed": 3, ...}}``, routine start/stop lines left out."""
    report: dict[str, dict[str, int]] = {}
    for path in sorted(log_dir.glob("*.log")):
        counts = {
            k: v for k, v in count_lines(path).most_common() if k.split(" ", 1)[-1] not in ROUTINE
        }
        if counts:
            report[path.stem] = counts
    return report
