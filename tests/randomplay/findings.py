"""What the random player found: each finding names its kind, where (ruleset, seed, combat),
what happened and the request that showed it; each combat keeps a trace of its last calls."""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

KINDS = (
    "5xx",
    "error-body",
    "transport",
    "accepted-illegal",
    "fallen-acted",
    "impossible-state",
    "stalled",
    "not-ended",
    "log",
    "aftermath",
    "idempotency",
    "service-log",
    "player",
)


@dataclass(frozen=True)
class Finding:
    kind: str
    where: str
    what: str
    request: str
    trace: tuple[str, ...] = ()

    def render(self) -> str:
        lines = [f"[{self.kind}] {self.where}: {self.what}"]
        if self.request:
            lines.append(f"    request: {self.request}")
        lines += [f"    | {step}" for step in self.trace]
        return "\n".join(lines)


@dataclass
class Findings:
    """Every finding of a run, and the recent trace of each combat (for the report)."""

    items: list[Finding] = field(default_factory=list)
    traces: dict[str, deque[str]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def trace(self, where: str, step: str) -> None:
        self.traces.setdefault(where, deque(maxlen=25)).append(step)

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    def add(self, kind: str, where: str, what: str, request: Any = None) -> None:
        assert kind in KINDS, kind
        shown = request if isinstance(request, str) else json.dumps(request, default=str)
        trace = tuple(self.traces.get(where, ()))
        self.items.append(Finding(kind, where, what, shown[:400] if request else "", trace))

    def report(self, limit: int = 12) -> str:
        if not self.items:
            return "no findings"
        kinds: dict[str, int] = {}
        for item in self.items:
            kinds[item.kind] = kinds.get(item.kind, 0) + 1
        head = f"{len(self.items)} findings: {kinds}"
        return "\n".join([head, *(item.render() for item in self.items[:limit])])
