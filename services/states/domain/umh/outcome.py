"""What one input did to a record: events, timers armed and cancelled, in order.

Every change is written twice: a line of the character's history (with its rule and reason)
and an event (``aftermath.applied`` for what a combat caused, ``<state>.expired`` when a
wall-clock state ends, ``status.adjusted`` for a moderator's change). Timers are requested
through :func:`arm` and :func:`disarm`, which keep the record's :class:`Timed` states and the
decision's ``arm`` / ``cancel`` lists in step.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from services.states.domain.umh.record import CharacterRecord, HistoryEntry, Timed
from shared.domain import Decision, TimerRequest
from shared.messages import AFTERMATH_APPLIED, Event

State = dict[str, Any]


def rfc3339(at_ms: int | None) -> str | None:
    """Unix milliseconds as an RFC 3339 UTC string (API.md: all times)."""
    if at_ms is None:
        return None
    moment = datetime.fromtimestamp(at_ms / 1000, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Outcome:
    events: list[Event] = field(default_factory=list)
    arm: list[TimerRequest] = field(default_factory=list)
    cancel: list[str] = field(default_factory=list)

    def decision(self, record: CharacterRecord, base: State | None) -> Decision[State]:
        """The new state (keys the runtime keeps beside the record are carried over)."""
        state = {**(base or {}), **record.to_dict()}
        return Decision(state, list(self.events), list(self.arm), list(self.cancel))


def note(
    record: CharacterRecord,
    out: Outcome,
    *,
    at_ms: int,
    change: str,
    combat_id: str | None,
    rule: str | None,
    event: str = AFTERMATH_APPLIED,
    **detail: Any,
) -> CharacterRecord:
    """Write one change in the history and announce it (umh 4.1.7: the record of the combat)."""
    entry = {"rule": rule, **detail}
    payload = {"character": record.character, "combat_id": combat_id, "change": change, **entry}
    out.events.append(Event(event, payload))
    return record.remember(HistoryEntry(at_ms, change, combat_id, entry))


def arm(
    record: CharacterRecord,
    out: Outcome,
    *,
    kind: str,
    since_ms: int,
    until_ms: int,
    rule: str,
    reason: str,
    combat_id: str | None = None,
    key: str | None = None,
) -> tuple[CharacterRecord, Timed]:
    """A new timed state and its timer; the id is unique forever (tenant, character, counter)."""
    seq = record.timer_seq + 1
    timer_id = f"{record.tenant}:{record.character}:{kind}:{seq}"
    timed = Timed(timer_id, kind, until_ms, since_ms, rule, reason, combat_id, key)
    data = {"kind": kind, "key": key} if key is not None else {"kind": kind}
    out.arm.append(TimerRequest(timer_id, until_ms, kind, data))
    return replace(record, timer_seq=seq), timed


def disarm(out: Outcome, timed: Timed | None) -> None:
    """Cancel a timed state's timer; one armed by this same input is simply not armed."""
    if timed is None:
        return
    if any(request.timer_id == timed.timer_id for request in out.arm):
        out.arm = [r for r in out.arm if r.timer_id != timed.timer_id]
    else:
        out.cancel.append(timed.timer_id)


def timer_requests(record: CharacterRecord) -> list[TimerRequest]:
    """Every timer the record expects to be armed (the reconciler re-arms lost ones)."""
    requests = []
    for timed in record.timed_states():
        data = {"kind": timed.kind, "key": timed.key} if timed.key is not None else {}
        requests.append(
            TimerRequest(timed.timer_id, timed.until_ms, timed.kind, data or {"kind": timed.kind})
        )
    return requests
