"""Timers that fell due while services/turns was down: how soon after its restart they fire.

``count`` combats of a community of their own, where nobody acts, each with a turn timer
armed (the combats and the kill come from the chaos suite's ``timers_due_while_killed``,
``tests/chaos/scenarios.py``). services/turns is killed before the first of those timers
falls due and left dead until the last one is due, then started again; the figure is the
time from that restart (the new process spawned: its start-up counts) until the last of the
timers fired, i.e. until services/turns committed the ``turn.timed_out`` of the last combat.

Everything is read from the community's public event stream in Redis (what ``GET
/v1/events`` serves), not through the API, so the measurement puts no load on the suite:
the ``turn.started`` events give each combat's deadline, the ``turn.timed_out`` events
(``occurred_at``: the commit in services/turns) when each timer fired.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from redis.asyncio import Redis

from bench.recorder import stream_key
from bench.stats import percentiles
from shared.redis_streams import entries
from tests.chaos.scenarios import down_for, overdue_combats
from tests.support.suite import Suite

PAGE = 5000
MARGIN_S = 1.0
"""How long after the last deadline services/turns stays dead."""


def turn_seconds_for(count: int) -> int:
    """A turn long enough for the setup of ``count`` combats to end before the first of
    their turns runs out: 2,000 took 68 s on a quiet machine, 184 s on a busy one (a combat
    whose turn ran out before the kill is reported apart, ``fired_before_kill``)."""
    return max(10, round(count * 0.06) + 5)


class Stream:
    """The community's event stream read forward from a point, page by page."""

    def __init__(self, redis: Redis, key: str, combat_ids: set[str]) -> None:
        self._redis = redis
        self._key = key
        self._combats = combat_ids
        self._cursor = "-"

    async def read(self) -> list[dict[str, Any]]:
        """The envelopes of these combats appended since the last read."""
        found: list[dict[str, Any]] = []
        while True:
            page = entries(await self._redis.xrange(self._key, self._cursor, "+", count=PAGE))
            for entry_id, fields in page:
                env = json.loads(fields["e"])
                if env.get("combat_id") in self._combats:
                    found.append(env)
                self._cursor = "(" + entry_id
            if len(page) < PAGE:
                return found


def _ms(occurred_at: str) -> float:
    return datetime.fromisoformat(occurred_at).timestamp() * 1000


@dataclass
class Firings:
    """What the stream told of the combats: each one's first turn (its ``turn_seq`` and
    deadline) and when its first ``turn.timed_out`` was committed."""

    deadlines: dict[str, tuple[int, int]] = field(default_factory=dict)
    fired: dict[str, float] = field(default_factory=dict)  # combat -> occurred_at, ms
    seen: Counter[tuple[str, int]] = field(default_factory=Counter)

    def take(self, events: list[dict[str, Any]]) -> None:
        for env in events:
            combat, data = env["combat_id"], env.get("payload") or {}
            if env["type"] == "turn.started" and combat not in self.deadlines:
                self.deadlines[combat] = (int(data["turn_seq"]), int(data["deadline_ms"]))
            elif env["type"] == "turn.timed_out":
                self.seen[(combat, int(data["turn_seq"]))] += 1
                self.fired.setdefault(combat, _ms(env["occurred_at"]))

    def fired_twice(self) -> int:
        """Combats whose first turn timed out more than once (its timer applied twice)."""
        first = {combat: seq for combat, (seq, _) in self.deadlines.items()}
        return sum(1 for (c, seq), n in self.seen.items() if n > 1 and first.get(c) == seq)


def last_fired(after_ms: list[float], *, never_fired: int, limit: float) -> float | None:
    """The figure of the targets table: from the restart until the last timer fired. A timer
    that never fired counts as firing at ``limit`` (the figure is at least that); None when
    no timer fell due while services/turns was down."""
    if never_fired:
        return limit * 1000
    return round(max(after_ms), 1) if after_ms else None


async def _ready_after(suite: Suite, since: float) -> float | None:
    """Seconds from ``since`` until the suite says every service consumes again."""
    try:
        await asyncio.to_thread(suite.wait_ready, 120)
    except RuntimeError:
        return None
    return time.time() - since


async def measure(suite: Suite, redis: Redis, count: int, *, limit: float = 180) -> dict[str, Any]:
    """Arm ``count`` turn timers, let them fall due while services/turns is dead, restart
    it, and time their firing."""
    turn_seconds = turn_seconds_for(count)
    print(f"{count} turn timers ({turn_seconds} s turns) to fall due while turns is down ...")
    setup_started = time.time()
    community, _, ids = await overdue_combats(suite, count, turn_seconds)
    await community.client.aclose()
    stream = Stream(redis, stream_key(suite.namespace, community.id), set(ids))
    firings = Firings()
    give_up = time.monotonic() + 30  # the recorder may trail the commits a little
    firings.take(await stream.read())
    while len(firings.deadlines) < len(ids) and time.monotonic() < give_up:
        await asyncio.sleep(0.25)
        firings.take(await stream.read())
    last_due = max((due for _, due in firings.deadlines.values()), default=time.time() * 1000)
    down = max(last_due / 1000 - time.time() + MARGIN_S, MARGIN_S)
    killed, restarted = await down_for(suite, "turns", down)
    ready = asyncio.create_task(_ready_after(suite, restarted))
    give_up = time.monotonic() + limit
    while time.monotonic() < give_up and len(firings.fired) < len(ids):
        await asyncio.sleep(0.25)
        firings.take(await stream.read())
    ready_s = await ready
    before_kill = {c for c, at in firings.fired.items() if at < killed * 1000}
    overdue = {c: at for c, at in firings.fired.items() if c not in before_kill}
    after = [at - restarted * 1000 for at in overdue.values()]
    stats = percentiles(after, (50.0, 99.0, 100.0))
    never = len(ids) - len(firings.fired)
    return {
        "timers": len(ids),
        "turn_seconds": turn_seconds,
        "setup_seconds": round(killed - setup_started, 1),
        "down_seconds": round(restarted - killed, 1),
        "fired_before_kill": len(before_kill),
        "fired_after_restart": len(overdue),
        "never_fired": never,
        "fired_twice": firings.fired_twice(),
        "ready_after_ms": None if ready_s is None else round(ready_s * 1000, 1),
        "fired_after_restart_ms": {k: round(v, 1) for k, v in stats.items()},
        "last_fired_after_ms": last_fired(after, never_fired=never, limit=limit),
    }
