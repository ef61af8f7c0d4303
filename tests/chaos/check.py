"""The checker: from each combat's log alone, what went wrong under the faults.

One principle: every combat's log (``GET /v1/combats/{id}/log``) is replayed through the umh
rules (:mod:`tests.chaos.replay`) and the replay is compared with the stored combat
(``GET /v1/combats/{id}``) and with what the API answered; the log is audited
(:mod:`tests.chaos.audit`) for duplicates of every event type, actions that never reached
their final event, timers due that never fired or fired twice, combats that wait for
nothing, and the aftermath services/states must record for every ended combat.

:func:`judge` is pure (logs in, figures out): the mutation test feeds it logs with each
kind of loss and duplicate. :func:`check` reads what it needs through the API.

- **lost**: an action answered 2xx of which the log holds nothing; an event a 200 answer
  carried that the log lacks; a declared action that never completed (a hand-off lost);
- **unanswered**: a request still unanswered when the player gave up retrying;
- **duplicated effects**: one thing that happened twice (:func:`tests.chaos.audit.duplicates`);
- **stuck**: a running combat with no timer armed, quiet past the grace;
- **timers**: due, fired once, never fired, fired twice;
- **aftermath**: fighters of ended combats whose history records it / misses it;
- **mismatches**: fields where the stored combat differs from the replay.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.chaos import audit
from tests.chaos.load import Attempt, Record, send
from tests.chaos.replay import compare, replay

JSON = dict[str, Any]


CHARACTER_EVENTS = frozenset({"aftermath.applied"})
"""What services/states tells of a character: a 200 answer may carry it (same chain), and it
is logged with the character, not the combat; the aftermath check reads it there."""

# A timer that fired later than this after its deadline is counted in ``timers_fired_late``.
LATE_TIMER_MS = 5000


@dataclass
class Figures:
    attempted: int = 0
    acknowledged: int = 0
    unanswered: int = 0
    lost: int = 0
    duplicated: int = 0
    stuck: int = 0
    timers_due: int = 0
    timers_fired: int = 0
    timers_never_fired: int = 0
    timers_fired_twice: int = 0
    # Fired more than LATE_TIMER_MS after the deadline (a figure: a fault may delay a timer
    # by its recovery time; a timer late by many seconds is still a defect to read), and the
    # largest delay seen.
    timers_fired_late: int = 0
    timer_late_max_ms: int = 0
    combats: int = 0
    combats_ended: int = 0
    aftermath_applied: int = 0
    aftermath_missing: int = 0
    mismatches: int = 0
    late: int = 0  # combats overdue at the first look and right at the second (check())
    problems: list[str] = field(default_factory=list)

    COUNTS = (
        "attempted",
        "acknowledged",
        "unanswered",
        "lost",
        "duplicated",
        "stuck",
        "timers_due",
        "timers_fired",
        "timers_never_fired",
        "timers_fired_twice",
        "timers_fired_late",
        "combats",
        "combats_ended",
        "aftermath_applied",
        "aftermath_missing",
        "mismatches",
        "late",
    )

    def add(self, other: Figures) -> None:
        for name in self.COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.timer_late_max_ms = max(self.timer_late_max_ms, other.timer_late_max_ms)
        self.problems += other.problems

    def as_dict(self) -> JSON:
        out: JSON = {name: getattr(self, name) for name in self.COUNTS}
        out["timer_late_max_ms"] = self.timer_late_max_ms
        out["duplicated_effects"] = out.pop("duplicated")
        return out | {"problems": self.problems[:20]}


@dataclass
class CombatRecord:
    """Everything the checker reads of one combat."""

    combat_id: str
    events: list[JSON]
    combat: JSON
    histories: dict[str, list[JSON]] = field(default_factory=dict)
    statuses: dict[str, JSON] = field(default_factory=dict)


def judge_combat(record: CombatRecord, attempts: list[Attempt], now_ms: int) -> Figures:
    """The figures of one combat (module docstring), from its record and the API's answers."""
    f = Figures(combats=1)
    events, cid = record.events, record.combat_id

    def problem(kind: str, items: list[str]) -> int:
        f.problems += [f"{cid}: {kind}: {item}" for item in items]
        return len(items)

    named = {e.get("correlation_id") for e in events}
    named |= {(e.get("data") or {}).get("action_id") for e in events}
    ids = {e.get("id") for e in events}
    for a in attempts:
        f.attempted += 1
        f.unanswered += problem("unanswered", [f"{a.kind} {a.key}"] if a.status is None else [])
        if not a.acknowledged:
            continue
        f.acknowledged += 1
        found = a.action_id in named or any(i in ids for i in a.event_ids)
        if a.action_id and not found:
            f.lost += problem("lost", [f"{a.kind} {a.action_id} answered {a.status}"])
        types = dict(zip(a.event_ids, a.event_types, strict=False))
        missing = [
            f"{i} ({types.get(i)})"
            for i in a.event_ids
            if i not in ids and types.get(i) not in CHARACTER_EVENTS
        ]
        told = f"answered {a.status} to {a.kind} {a.action_id} (key {a.key})"
        f.lost += problem("lost", [f"event {i} {told}, not in the log" for i in missing])
    f.lost += problem("lost", audit.unfinished(events, now_ms))
    f.duplicated += problem("duplicate", audit.duplicates(events))
    timers = audit.timers(events, now_ms)
    f.timers_due, f.timers_fired = timers.due, timers.fired
    f.timers_never_fired = problem("timer", timers.never)
    f.timers_fired_twice = problem("timer", timers.twice)
    f.timers_fired_late = sum(1 for late in timers.late_ms if late > LATE_TIMER_MS)
    f.timer_late_max_ms = max(timers.late_ms, default=0)
    still = audit.stuck(events, now_ms)
    f.stuck = problem("stuck", [still] if still else [])
    ended = any(e["type"] == "combat.ended" for e in events)
    f.combats_ended = int(ended)
    if ended:
        applied, missing_aftermath = audit.aftermath(events, record.histories, record.statuses)
        f.aftermath_applied = applied
        f.aftermath_missing = problem("aftermath", missing_aftermath)
    f.mismatches = problem("state vs replay", compare(replay(events), record.combat))
    return f


def judge(records: list[CombatRecord], attempts: list[Attempt], now_ms: int) -> Figures:
    """Every combat's figures, summed; attempts on combats not read count too."""
    total = Figures()
    by_combat: dict[str, list[Attempt]] = {}
    for a in attempts:
        by_combat.setdefault(a.combat_id, []).append(a)
    for record in records:
        total.add(judge_combat(record, by_combat.pop(record.combat_id, []), now_ms))
    for combat_id, left in by_combat.items():
        orphan = CombatRecord(combat_id, [], {})
        figures = judge_combat(orphan, left, now_ms)
        figures.combats = 0
        figures.mismatches = 0
        total.add(figures)
    return total


async def _get(client: httpx.AsyncClient, path: str) -> Any:
    answer = await send(client, Record(), "GET", path)
    if answer is None or answer.status_code != 200:
        raise RuntimeError(f"cannot read {path}")
    return answer.json()


async def read_log(client: httpx.AsyncClient, combat_id: str) -> list[JSON]:
    events: list[JSON] = []
    after: str | None = None
    while True:
        suffix = f"&after={after}" if after else ""
        page = await _get(client, f"/v1/combats/{combat_id}/log?limit=1000{suffix}")
        events += page["events"]
        if not page.get("next"):
            return events
        after = page["next"]


async def read_combat(client: httpx.AsyncClient, combat_id: str) -> CombatRecord:
    """The combat and its log as of one version: a running combat moves on by its timers
    while it is read, so it is read again until the combat's version held across the log."""
    path = f"/v1/combats/{combat_id}"
    combat = await _get(client, path)
    for _ in range(10):
        events = await read_log(client, combat_id)
        again = await _get(client, path)
        if again.get("version") == combat.get("version"):
            break
        combat = again
    record = CombatRecord(combat_id, events, combat)
    if any(e["type"] == "combat.ended" for e in events):
        for name in record.combat.get("participants") or {}:
            history = await _get(client, f"/v1/characters/{name}/history")
            record.histories[name] = history.get("history") or []
            record.statuses[name] = await _get(client, f"/v1/characters/{name}/status")
    return record


async def check(
    client: httpx.AsyncClient,
    attempts: list[Attempt],
    combats: list[str],
    keep: Path | None = None,
) -> Figures:
    """Read every combat and judge it; with ``keep``, what was read and the answers are
    written there (JSON) so that a run can be judged again."""
    gate = asyncio.Semaphore(16)

    async def one(combat_id: str) -> CombatRecord:
        async with gate:
            return await read_combat(client, combat_id)

    now_ms = int(time.time() * 1000)
    records = list(await asyncio.gather(*(one(c) for c in dict.fromkeys(combats))))
    await decide(client, records, attempts)
    by_combat: dict[str, list[Attempt]] = {}
    for a in attempts:
        by_combat.setdefault(a.combat_id, []).append(a)
    late = [
        i
        for i, r in enumerate(records)
        if overdue(judge_combat(r, by_combat.get(r.combat_id, []), now_ms))
    ]
    if late:
        # Late is not lost: a service restarted under a loaded machine may take longer than
        # the grace to fire what fell due while it was down, or to apply what the log already
        # holds. Look once more, a while later.
        await asyncio.sleep(LOOK_AGAIN_SECONDS)
        now_ms = int(time.time() * 1000)
        again = await asyncio.gather(*(one(records[i].combat_id) for i in late))
        for i, record in zip(late, again, strict=True):
            records[i] = record
    if keep is not None:
        kept = {
            "now_ms": now_ms,
            "records": [asdict(r) for r in records],
            "attempts": [asdict(a) for a in attempts],
        }
        await asyncio.to_thread(keep.write_text, json.dumps(kept))
    figures = judge(records, attempts, now_ms)
    figures.late = len(late) - sum(
        overdue(judge_combat(records[i], by_combat.get(records[i].combat_id, []), now_ms))
        for i in late
    )
    return figures


async def decide(
    client: httpx.AsyncClient, records: list[CombatRecord], attempts: list[Attempt]
) -> None:
    """A ``202`` the log does not name is asked its outcome now: refused later (its turn
    moved on while it waited out a fault) is a recorded refusal, not a loss."""
    named: set[Any] = set()
    for record in records:
        named |= {e.get("correlation_id") for e in record.events}
        named |= {(e.get("data") or {}).get("action_id") for e in record.events}
    for a in attempts:
        if a.status != 202 or not a.action_id or a.action_id in named:
            continue
        answer = await send(
            client, Record(), "GET", f"/v1/combats/{a.combat_id}/actions/{a.action_id}"
        )
        if answer is not None and answer.json().get("status") == "rejected":
            a.status = 422


LOOK_AGAIN_SECONDS = 30.0


def overdue(figures: Figures) -> bool:
    """A combat not settled yet at the first look: stuck, a timer never fired, a hand-off not
    completed, or a stored state behind its log (a service still working through a backlog,
    say turns after 2,000 timers fell due while it was down, has not yet applied an event the
    log already holds). A real loss or divergence is still there at the second look."""
    return bool(figures.stuck or figures.timers_never_fired or figures.lost or figures.mismatches)
