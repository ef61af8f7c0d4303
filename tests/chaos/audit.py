"""What one combat's log must show, read from the log alone (no clock but ``now_ms``).

- :func:`duplicates`: every event type that says something happened once, counted by what
  it is about (an action declared, a window closed, a hit resolved, an action completed, a
  turn started / ended / timed out, a round started, an effect applied, a fighter down, the
  combat started / ended); and any event id recorded twice;
- :func:`unfinished`: every declared action reaches ``action.completed`` (a hand-off lost
  after resolution leaves it without one: it counts as lost);
- :func:`timers`: every turn deadline and defense window that fell due fired exactly once
  (a paused turn has no deadline; it is checked by :func:`stuck`);
- :func:`stuck`: a combat still running whose log arms no timer at all (no running turn, no
  open window) and has been quiet longer than the grace: nothing can move it on;
- :func:`aftermath`: for an ended combat, each fighter's history (services/states) records
  the combat's end once, and the vigor lost for reaching 0 VIT (umh 4.1.4) once.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

JSON = dict[str, Any]
GRACE_MS = 8000
"""How late a timer or a hand-off may be before it counts (a fault may hold it that long)."""


def at_ms(event: JSON) -> int:
    when = str(event.get("occurred_at") or "")
    if not when:
        return 0
    return int(datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp() * 1000)


def closes_window(kind: str, d: JSON) -> bool:
    """A defense window closes with its timeout or its last answer: against a skill reactable
    several times (umh 8.1.1.3) an answer with ``answers_left`` keeps it open."""
    if kind == "reaction.timed_out":
        return True
    return kind == "reaction.answered" and not d.get("answers_left")


def _key(event: JSON, hit_of: dict[str, int]) -> tuple[Any, ...] | None:
    """What an event is about, for the types that happen once per thing."""
    kind, d = event["type"], event.get("data") or {}
    if kind in ("action.declared", "action.completed"):
        return (kind, d.get("action_id"))
    if kind in ("reaction.requested", "action.resolved"):
        return (kind, d.get("action_id"), d.get("reactor"), d.get("hit", 1))
    if kind in ("turn.started", "turn.ended", "turn.timed_out"):
        return (kind, d.get("turn_seq"))
    if kind == "round.started":
        return (kind, d.get("round"))
    if kind == "effect.applied":
        effect = json.dumps(d.get("effect"), sort_keys=True)
        hit = hit_of.get(str(d.get("action_id")), 0)
        return (kind, d.get("character"), d.get("action_id"), hit, effect)
    if kind == "combatant.down":
        return (kind, d.get("character"), d.get("action_id"))
    if kind in ("combat.started", "combat.ended"):
        return (kind,)
    return None


def duplicates(events: list[JSON]) -> list[str]:
    """Things that happened more than once (module docstring)."""
    keys: Counter[tuple[Any, ...]] = Counter()
    ids: Counter[str] = Counter(str(e["id"]) for e in events if e.get("id"))
    hit_of: dict[str, int] = {}
    windows: Counter[tuple[Any, Any]] = Counter()
    out: list[str] = []
    for event in events:
        kind, d = event["type"], event.get("data") or {}
        if kind == "action.resolved":
            hit_of[str(d.get("action_id"))] = int(d.get("hit") or 1)
        key = _key(event, hit_of)
        if key is not None:
            keys[key] += 1
        window = (d.get("action_id"), d.get("reactor"))
        if kind == "reaction.requested":
            windows[window] += 1
        elif closes_window(kind, d):
            if windows[window] <= 0:
                out.append(f"{kind} {window} closes no open window")
            windows[window] -= 1
    out += [f"{' '.join(map(str, k))} x{n}" for k, n in keys.items() if n > 1]
    out += [f"event {i} recorded x{n}" for i, n in ids.items() if n > 1]
    return out


def unfinished(events: list[JSON], now_ms: int) -> list[str]:
    """Declared actions with no ``action.completed``, quiet for longer than the grace, and
    waiting for no defense window (an open window is the timers' business: it closes by an
    answer or its deadline, :func:`timers`)."""
    declared: dict[str, int] = {}
    waiting: Counter[str] = Counter()
    for event in events:
        kind, d = event["type"], event.get("data") or {}
        action_id = str(d.get("action_id"))
        if kind == "action.declared":
            declared[action_id] = at_ms(event)
        elif kind == "action.completed":
            declared.pop(action_id, None)
        elif action_id in declared:
            declared[action_id] = at_ms(event)
        if kind == "reaction.requested":
            waiting[action_id] += 1
        elif closes_window(kind, d):
            waiting[action_id] -= 1
        elif kind == "combat.ended":
            waiting.clear()
    return [
        f"action {a} never completed (last seen {now_ms - t} ms ago)"
        for a, t in declared.items()
        if now_ms - t > GRACE_MS and waiting[a] <= 0
    ]


@dataclass
class Timer:
    name: str
    deadline: int | None
    late_ms: int | None = None  # when it timed out, how long after its deadline
    fired: int = 0
    closed: bool = False


@dataclass
class Timers:
    due: int = 0
    fired: int = 0
    never: list[str] = field(default_factory=list)
    twice: list[str] = field(default_factory=list)
    late_ms: list[int] = field(default_factory=list)  # each firing's delay after its deadline


def _timers(events: list[JSON]) -> list[Timer]:
    turns: dict[Any, Timer] = {}
    windows: dict[tuple[Any, Any], list[Timer]] = {}
    current: Timer | None = None
    for event in events:
        kind, d = event["type"], event.get("data") or {}
        window = (d.get("action_id"), d.get("reactor"))
        if kind == "turn.started":
            current = Timer(f"turn {d.get('turn_seq')} of {d.get('actor')}", d.get("deadline_ms"))
            turns[d.get("turn_seq")] = current
        elif kind == "turn.paused" and current is not None:
            current.deadline = None
        elif kind == "turn.resumed" and current is not None:
            current.deadline = d.get("deadline_ms")
        elif kind == "turn.timed_out":
            timer = turns.get(d.get("turn_seq"), current)
            if timer is not None:
                timer.fired += 1
                timer.closed = True
                timer.late_ms = _late(event, timer.deadline)
        elif kind == "turn.ended":
            timer = turns.get(d.get("turn_seq"), current)
            if timer is not None:
                timer.closed = True
        elif kind == "reaction.requested":
            name = f"window {window[0]} of {window[1]} hit {d.get('hit', 1)}"
            windows.setdefault(window, []).append(Timer(name, d.get("deadline_ms")))
        elif closes_window(kind, d):
            open_ = [t for t in windows.get(window, []) if not t.closed]
            known = windows.get(window) or []
            target = open_[0] if open_ else (known[-1] if known else None)
            if target is not None:
                target.fired += kind == "reaction.timed_out"
                target.closed = True
                if kind == "reaction.timed_out":
                    target.late_ms = _late(event, target.deadline)
        elif kind == "combat.ended":
            for timer in [*turns.values(), *(t for ts in windows.values() for t in ts)]:
                timer.closed = True
    return [*turns.values(), *(t for ts in windows.values() for t in ts)]


def _late(event: JSON, deadline: Any) -> int | None:
    return None if deadline is None else at_ms(event) - int(deadline)


def timers(events: list[JSON], now_ms: int) -> Timers:
    """Timers due: fired once, never fired (open past the deadline + grace), fired twice."""
    out = Timers()
    for timer in _timers(events):
        late = (
            not timer.closed
            and timer.deadline is not None
            and now_ms - int(timer.deadline) > GRACE_MS
        )
        if timer.fired or late:
            out.due += 1
        out.fired += timer.fired == 1
        if late:
            out.never.append(f"{timer.name} due at {timer.deadline} never fired")
        if timer.fired > 1:
            out.twice.append(f"{timer.name} fired {timer.fired} times")
        if timer.fired and timer.late_ms is not None:
            out.late_ms.append(timer.late_ms)
    return out


def stuck(events: list[JSON], now_ms: int) -> str | None:
    """A running combat with no timer armed by its log, quiet for longer than the grace."""
    if not events or any(e["type"] == "combat.ended" for e in events):
        return None
    quiet = now_ms - max(at_ms(e) for e in events)
    armed = [t for t in _timers(events) if not t.closed and t.deadline is not None]
    phases = [e for e in events if e["type"] == "combat.phase_changed"]
    fighting = bool(phases) and (phases[-1].get("data") or {}).get("to") == "fighting"
    if fighting and not armed and quiet > GRACE_MS:
        return f"no timer armed, quiet for {quiet} ms"
    return None


def aftermath(
    events: list[JSON], histories: dict[str, list[JSON]], statuses: dict[str, JSON]
) -> tuple[int, list[str]]:
    """(fighters whose aftermath is recorded, what is missing or doubled) for an ended combat:
    the start and the end once each, the vigor lost at 0 VIT once (umh 4.1.4), and nobody
    still held in it."""
    ended = [e for e in events if e["type"] == "combat.ended"]
    if not ended:
        return 0, []
    combat_id = ended[-1]["combat_id"]
    participants: JSON = (ended[-1].get("data") or {}).get("participants") or {}
    applied, problems = 0, []
    for name, part in participants.items():
        mine = [h for h in histories.get(name, []) if h.get("combat_id") == combat_id]
        changes = Counter(str(h.get("change")) for h in mine)
        wanted = {"combat_started": 1, "combat_ended": 1}
        if part.get("reached_zero_vit"):
            wanted["vigor_lost"] = 1
        for change, n in wanted.items():
            if changes[change] != n:
                problems.append(f"{name}: {change} recorded {changes[change]} times (want {n})")
        for change, n in changes.items():
            if n > 1 and change not in wanted:
                problems.append(f"{name}: {change} recorded {n} times")
        held = (statuses.get(name) or {}).get("in_combat") == combat_id
        if held:
            problems.append(f"{name}: still in the combat by services/states")
        applied += not held and all(changes[c] == n for c, n in wanted.items())
    return applied, problems
