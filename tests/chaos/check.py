"""The checker: read every combat's log and count what went wrong.

- **lost**: an acknowledged action (2xx) of which the log holds no event;
- **duplicated effects**: one thing that happened twice in a log: an action declared twice,
  a reaction answered twice, a hit resolved twice, a turn started or ended twice, a combat
  ended twice;
- **timers never fired**: a turn or a defense window whose deadline passed (by more than a
  grace) with nothing closing it, in a combat still running;
- **timers fired twice**: a turn or a defense window timed out twice;
- **hits never resolved**: every window of a hit closed, and no ``action.resolved`` for it,
  in a combat still running (the hit is stuck between turns and resolution).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx

from tests.chaos.load import Attempt, Record, send

JSON = dict[str, Any]
GRACE_MS = 5000


@dataclass
class Figures:
    attempted: int = 0
    acknowledged: int = 0
    lost: int = 0
    duplicated: int = 0
    timers_checked: int = 0
    timers_never_fired: int = 0
    timers_fired_twice: int = 0
    hits_never_resolved: int = 0
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> JSON:
        return {
            "attempted": self.attempted,
            "acknowledged": self.acknowledged,
            "lost": self.lost,
            "duplicated_effects": self.duplicated,
            "timers_checked": self.timers_checked,
            "timers_never_fired": self.timers_never_fired,
            "timers_fired_twice": self.timers_fired_twice,
            "hits_never_resolved": self.hits_never_resolved,
            "problems": self.problems[:20],
        }


async def read_log(client: httpx.AsyncClient, combat_id: str) -> list[JSON]:
    events: list[JSON] = []
    after: str | None = None
    record = Record()
    while True:
        params = {"limit": "1000", **({"after": after} if after else {})}
        answer = await send(
            client,
            record,
            "GET",
            f"/v1/combats/{combat_id}/log?" + "&".join(f"{k}={v}" for k, v in params.items()),
        )
        if answer is None or answer.status_code != 200:
            raise RuntimeError(f"cannot read the log of {combat_id}")
        page = answer.json()
        events += page["events"]
        if not page.get("next"):
            return events
        after = page["next"]


def duplicates(events: list[JSON]) -> list[str]:
    """Things that must happen at most once per combat, counted."""
    keys: Counter[tuple[Any, ...]] = Counter()
    for e in events:
        d, kind = e["data"], e["type"]
        if kind == "action.declared":
            keys[(kind, d.get("action_id"))] += 1
        elif kind in ("reaction.answered", "reaction.timed_out"):
            keys[("reaction.closed", d.get("action_id"), d.get("reactor"), d.get("hit", 1))] += 1
        elif kind == "action.resolved":
            keys[(kind, d.get("action_id"), d.get("hit", 1))] += 1
        elif kind in ("turn.started", "turn.timed_out"):
            keys[(kind, d.get("turn_seq"))] += 1
        elif kind in ("combat.ended", "combat.started"):
            keys[(kind,)] += 1
    return [f"{k} x{n}" for k, n in keys.items() if n > 1]


def timer_figures(events: list[JSON], now_ms: int) -> tuple[int, list[str], list[str]]:
    """(timers checked, never fired, fired twice) for turn timers and defense windows."""
    ended = any(e["type"] == "combat.ended" for e in events)
    turns: dict[Any, JSON] = {}
    windows: dict[Any, JSON] = {}
    for e in events:
        d, kind = e["data"], e["type"]
        if kind == "turn.started":
            turns[d.get("turn_seq")] = {"deadline": d.get("deadline_ms"), "closed": 0, "to": 0}
        elif kind == "turn.paused" and turns:
            turns[max(turns, key=lambda k: k or 0)]["deadline"] = None
        elif kind == "turn.resumed" and turns:
            turns[max(turns, key=lambda k: k or 0)]["deadline"] = d.get("deadline_ms")
        elif kind == "turn.ended" and turns:
            seq = d.get("turn_seq") or max(turns, key=lambda k: k or 0)
            turns.setdefault(seq, {"deadline": None, "closed": 0, "to": 0})["closed"] += 1
        elif kind == "turn.timed_out":
            turns.setdefault(d.get("turn_seq"), {"deadline": None, "closed": 0, "to": 0})["to"] += 1
        elif kind == "reaction.requested":
            key = (d.get("action_id"), d.get("reactor"), d.get("hit", 1))
            windows[key] = {"deadline": d.get("deadline_ms"), "closed": 0, "to": 0}
        elif kind in ("reaction.answered", "reaction.timed_out"):
            key = (d.get("action_id"), d.get("reactor"), d.get("hit", 1))
            window = windows.setdefault(key, {"deadline": None, "closed": 0, "to": 0})
            window["closed"] += 1
            window["to"] += kind == "reaction.timed_out"
    never: list[str] = []
    twice: list[str] = []
    for name, table in (("turn", turns), ("defense", windows)):
        for key, t in table.items():
            if t["to"] > 1:
                twice.append(f"{name} {key} timed out {t['to']} times")
            due = t["deadline"] is not None and now_ms - int(t["deadline"]) > GRACE_MS
            if due and not t["closed"] and not t["to"] and not ended:
                never.append(f"{name} {key} due at {t['deadline']} never closed")
    return len(turns) + len(windows), never, twice


def unresolved(events: list[JSON], now_ms: int) -> list[str]:
    """Hits whose every defense window closed (more than a grace ago) and that were never
    resolved, in a combat still running: a hit stuck between turns and resolution (the
    attacker's clock stays paused and nothing can move the combat on)."""
    if any(e["type"] == "combat.ended" for e in events):
        return []
    windows: dict[tuple[Any, Any], dict[str, int]] = {}
    resolved: set[tuple[Any, Any]] = set()
    for e in events:
        d, kind = e.get("data") or {}, e["type"]
        key = (d.get("action_id"), d.get("hit", 1))
        if kind == "reaction.requested":
            windows.setdefault(key, {"open": 0, "closed_at": 0})["open"] += 1
        elif kind in ("reaction.answered", "reaction.timed_out"):
            window = windows.setdefault(key, {"open": 0, "closed_at": 0})
            window["open"] -= 1
            window["closed_at"] = max(window["closed_at"], at_ms(e))
        elif kind == "action.resolved":
            resolved.add(key)
    return [
        f"hit {key} answered at {w['closed_at']} never resolved"
        for key, w in windows.items()
        if w["open"] <= 0 and key not in resolved and now_ms - w["closed_at"] > GRACE_MS
    ]


def at_ms(event: JSON) -> int:
    when = str(event.get("occurred_at") or "")
    if not when:
        return 0
    return int(datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp() * 1000)


async def check(client: httpx.AsyncClient, attempts: list[Attempt], combats: list[str]) -> Figures:
    figures = Figures(attempted=len(attempts))
    acknowledged = [a for a in attempts if a.acknowledged]
    figures.acknowledged = len(acknowledged)
    now_ms = int(time.time() * 1000)
    seen: dict[str, set[str]] = {}
    for combat_id in combats:
        events = await read_log(client, combat_id)
        seen[combat_id] = {e["correlation_id"] for e in events}
        dup = duplicates(events)
        figures.duplicated += len(dup)
        figures.problems += [f"{combat_id}: duplicate {d}" for d in dup]
        checked, never, twice = timer_figures(events, now_ms)
        figures.timers_checked += checked
        figures.timers_never_fired += len(never)
        figures.timers_fired_twice += len(twice)
        figures.problems += [f"{combat_id}: {p}" for p in never + twice]
        stuck = unresolved(events, now_ms)
        figures.hits_never_resolved += len(stuck)
        figures.problems += [f"{combat_id}: {p}" for p in stuck]
    for attempt in acknowledged:
        if attempt.action_id and attempt.action_id not in seen.get(attempt.combat_id, set()):
            figures.lost += 1
            figures.problems.append(f"{attempt.combat_id}: {attempt.kind} {attempt.action_id} lost")
    return figures
