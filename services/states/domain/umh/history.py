"""What one input did to a record, written in its history and announced.

Every change is written twice: a line of the character's history (with its rule and reason)
and an event (``aftermath.applied`` for what a combat caused, ``<state>.expired`` when a
wall-clock state ends, ``status.adjusted`` for a moderator's change). Timers are requested
through :func:`arm` and :func:`disarm`, which keep the record's :class:`Timed` states and the
``arm`` / ``cancel`` lists of the input's :class:`shared.outcome.Outcome` in step.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from services.states.domain.umh.record import CharacterRecord, HistoryEntry, Timed
from shared.domain import TimerRequest
from shared.messages import AFTERMATH_APPLIED, Event
from shared.outcome import Outcome

State = dict[str, Any]


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
    if timed is not None:
        out.disarm(timed.timer_id)


def timer_requests(record: CharacterRecord) -> list[TimerRequest]:
    """Every timer the record expects to be armed (the reconciler re-arms lost ones)."""
    requests = []
    for timed in record.timed_states():
        data = {"kind": timed.kind, "key": timed.key} if timed.key is not None else {}
        requests.append(
            TimerRequest(timed.timer_id, timed.until_ms, timed.kind, data or {"kind": timed.kind})
        )
    return requests
