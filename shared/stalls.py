"""Stalled combats made visible to operators (issue 18): logged once, counted, gauged.

A service's spec may answer ``stalled(state, quiet_ms)`` (services/turns asks the combat's
ruleset): why the aggregate waits for nothing, or None. ``quiet_ms`` is how long its audit
log has not grown (the last entry's stream id is its time). The reconciler asks it of every
active aggregate on each pass, through :class:`StallWatch`, which

- logs ``combat_stalled`` (warning) the first time an aggregate is found stalled for a
  reason, with its last events and a summary of its read model, and counts it in
  ``referee_stalled_combats_detected_total{service,reason}``;
- logs ``combat_stall_cleared`` once it moves again (resumed, or it ended);
- sets ``referee_stalled_combats{service}`` to the number found stalled by the pass.

Every replica's reconciler visits every active aggregate, so each replica's gauge counts them
all (aggregate with ``max``, not ``sum``) and each replica logs a stall once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final, Protocol

from shared.keys import Aggregate
from shared.logging import get_logger
from shared.metrics import STALLED, STALLS_DETECTED

log = get_logger(__name__)

State = dict[str, Any]
Stalled = Callable[[State, int], str | None]
View = Callable[[State, int], dict[str, Any] | None]


class RecentLog(Protocol):
    """The read a stall needs of the store (``shared/runtime/ports.py`` ``Store``)."""

    async def last_logged(self, agg: Aggregate, count: int) -> list[tuple[str, str]]: ...


LAST_EVENTS: Final = 10
"""How many of the aggregate's last logged events a ``combat_stalled`` line shows."""

SUMMARY_FIELDS: Final = ("phase", "round", "turn", "pending_reactions", "timers", "result")


def quiet_ms(last_entry_id: str | None, now_ms: int) -> int:
    """Milliseconds since the log entry ``<ms>-<seq>`` (0 without one: nothing to go by)."""
    if not last_entry_id:
        return 0
    return max(0, now_ms - int(last_entry_id.partition("-")[0]))


def event_brief(raw: bytes | str) -> dict[str, Any]:
    """One logged envelope, as a stall's log line shows it: its type, time and the ids that
    say which action, hit, actor or character it was about."""
    env = json.loads(raw)
    data = env.get("payload") or {}
    brief = {"type": env.get("type"), "at": env.get("occurred_at")}
    for key in ("action_id", "hit", "reactor", "actor", "character"):
        if key in data:
            brief[key] = data[key]
    return brief


class StallWatch:
    """What the reconciler of one service found stalled, pass by pass."""

    def __init__(self, service: str, stalled: Stalled, view: View, store: RecentLog) -> None:
        self.service = service
        self._stalled = stalled
        self._view = view
        self._store = store
        self._known: dict[str, str] = {}
        self._found: dict[str, str] = {}
        STALLED.labels(service).set(0)

    def begin(self) -> None:
        self._found = {}

    async def visit(self, agg: Aggregate, state: State, now: int) -> str | None:
        """Ask whether this active aggregate is stalled; report it the first time (with a
        summary of its read model, built only then)."""
        last = await self._store.last_logged(agg, 1)
        quiet = quiet_ms(last[0][0] if last else None, now)
        reason = self._stalled(state, quiet)
        if reason is None:
            return None
        self._found[agg.tag] = reason
        if self._known.get(agg.tag) != reason:
            recent = await self._store.last_logged(agg, LAST_EVENTS)
            summary = self._view(state, now) or {}
            STALLS_DETECTED.labels(self.service, reason).inc()
            log.warning(
                "combat_stalled",
                combat_id=state.get("id") or state.get("combat_id"),
                tenant=state.get("tenant"),
                room=state.get("room"),
                reason=reason,
                quiet_ms=quiet,
                last_events=[event_brief(raw) for _, raw in reversed(recent)],
                state={k: summary[k] for k in SUMMARY_FIELDS if k in summary},
            )
        return reason

    def finish(self) -> int:
        """The pass is over: the gauge shows what it found; stalls no longer found cleared."""
        for tag in self._known.keys() - self._found.keys():
            subject = tag.split(":", 1)[-1]
            log.info("combat_stall_cleared", combat_id=subject, reason=self._known[tag])
        self._known = dict(self._found)
        STALLED.labels(self.service).set(len(self._found))
        return len(self._found)
