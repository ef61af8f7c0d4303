"""Broker messages per operation: what the suite's processes published and consumed.

Read from each process's Prometheus metrics (``referee_published_total{destination}`` and
``referee_deliveries_total{service}``, shared/metrics.py) at both ends of the measured
window, so the report can say how many messages an action cost: a count, which does not
move with the machine's speed as CPU times do.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx
from prometheus_client.parser import text_string_to_metric_families

# A row of the CPU report that counts messages (not a process): its name starts so.
PUBLISHED = "published to "
DELIVERED = "delivered to "


def message_counts(text: str) -> dict[str, float]:
    """The message counters of one process's metrics page, by row name."""
    counts: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "referee_published_total":
                name = PUBLISHED + sample.labels.get("destination", "other")
            elif sample.name == "referee_deliveries_total":
                name = DELIVERED + sample.labels.get("service", "other")
            else:
                continue
            counts[name] = counts.get(name, 0.0) + sample.value
    return counts


async def suite_counts(urls: Sequence[str]) -> dict[str, float]:
    """The message counters summed over the processes whose metrics are at ``urls`` (a
    process that does not answer is left out: its row then counts less)."""
    totals: dict[str, float] = {}
    async with httpx.AsyncClient(timeout=5) as client:
        for url in urls:
            try:
                answer = await client.get(url)
            except httpx.HTTPError:
                continue
            if answer.status_code != 200:
                continue
            for name, value in message_counts(answer.text).items():
                totals[name] = totals.get(name, 0.0) + value
    return totals


def is_count(name: str) -> bool:
    """Whether a row of the CPU report is a message count."""
    return name.startswith((PUBLISHED, DELIVERED))


def message_lines(cpu: dict[str, dict[str, float]]) -> list[str]:
    """The report's lines: messages published per operation by destination, and consumed per
    operation by service (``per_op`` of each count row)."""
    published = {k[len(PUBLISHED) :]: v for k, v in cpu.items() if k.startswith(PUBLISHED)}
    delivered = {k[len(DELIVERED) :]: v for k, v in cpu.items() if k.startswith(DELIVERED)}
    lines: list[str] = []
    for title, rows in (("published", published), ("consumed", delivered)):
        if not rows:
            continue
        total = sum(row.get("per_op") or 0.0 for row in rows.values())
        parts = ", ".join(f"{name} {row.get('per_op')}" for name, row in sorted(rows.items()))
        lines.append(f"  broker messages {title} per operation {total:.1f} ({parts})")
    return lines
