"""A moderator lifts or shortens a timed state, with a recorded reason.

Moderators sanction and correct (umh 4.3.2 leaves sanctions to them; 1.1.5 gives them the
last word on disputed skills): any wall-clock state of docs/rules.md 7.1 can be ended now or
made to end sooner, never lengthened. The change goes into the character's history with
the moderator's reason (``status.adjusted``), and a lifted state is announced like any end.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from services.states.domain.umh.expiry import end_timed
from services.states.domain.umh.history import arm, disarm, note
from services.states.domain.umh.record import CharacterRecord, PostCombatState, Timed
from shared.domain import rfc3339
from shared.errors import RuleViolation
from shared.outcome import Outcome

STATUS_ADJUSTED: Final = "status.adjusted"

TIMER_KIND: Final = {"vigor": "vigor_recovery"}
"""The kind of timer behind an adjustable state, where the names differ."""


@dataclass(frozen=True)
class Adjustment:
    """The domain form of ``aftermath.moderate``."""

    kind: str
    key: str | None
    lift: bool
    until_ms: int | None
    reason: str
    moderator: str | None
    at_ms: int


def held_state(record: CharacterRecord, kind: str, key: str | None) -> PostCombatState | None:
    if kind != "post_combat_state" or key is None:
        return None
    folded = key.casefold()
    return next((s for s in record.post_combat_states if s.state.casefold() == folded), None)


def timed_state(record: CharacterRecord, adjustment: Adjustment) -> Timed | None:
    """The active timed state the adjustment is about (``key``: room, cooldown, state)."""
    now, kind, key = adjustment.at_ms, adjustment.kind, adjustment.key
    if kind == "immunity":
        return record.immune(now)
    if kind == "room_ban":
        return record.room_ban(key or "", now)
    if kind == "irrumpir_ban":
        ban = record.irrumpir_ban
        return ban if ban is not None and ban.active(now) else None
    if kind == "flee_cooldown":
        return record.cooldown(key or "flee", now)
    if kind == "imprisonment":
        held = record.imprisoned(now)
        return held.timed if held else None
    if kind == "vigor":
        return record.vigor_recovery if record.vigor_lost > 0 else None
    state = held_state(record, kind, key)
    return state.timed if state else None


def adjust(record: CharacterRecord, out: Outcome, adjustment: Adjustment) -> CharacterRecord:
    """Lift (end now) or shorten one timed state; the reason is kept in the history.

    Order: the state must be held now (``no_such_state``); ``lift`` or an ``until`` already
    past ends it at once; a new ``until`` must be sooner than the current one
    (``invalid_adjustment``: moderators shorten, never lengthen).
    """
    timed = timed_state(record, adjustment)
    held = held_state(record, adjustment.kind, adjustment.key)
    if timed is None and held is None:
        raise RuleViolation("no_such_state", None, kind=adjustment.kind, key=adjustment.key)
    until = adjustment.until_ms
    before = timed.until_ms if timed else None
    if adjustment.lift or until is None or until <= adjustment.at_ms:
        record = lift(record, out, adjustment, timed, held)
        after = None
    elif before is not None and until >= before:
        raise RuleViolation(
            "invalid_adjustment", None, until=rfc3339(until), current=rfc3339(before)
        )
    else:
        record = shorten(record, out, adjustment, timed, held, until)
        after = until
    return note(
        record,
        out,
        at_ms=adjustment.at_ms,
        change="moderated",
        combat_id=timed.combat_id if timed else (held.combat_id if held else None),
        rule=None,
        event=STATUS_ADJUSTED,
        reason=adjustment.reason,
        moderator=adjustment.moderator,
        kind=adjustment.kind,
        key=adjustment.key,
        action="lift" if after is None else "shorten",
        before=rfc3339(before),
        after=rfc3339(after),
    )


def lift(
    record: CharacterRecord,
    out: Outcome,
    adjustment: Adjustment,
    timed: Timed | None,
    held: PostCombatState | None,
) -> CharacterRecord:
    """End the state now, announced like its natural end (reason ``lifted_by_moderator``)."""
    reason = "lifted_by_moderator"
    if timed is not None:
        disarm(out, timed)
        return end_timed(record, out, timed, at_ms=adjustment.at_ms, reason=reason, rule=timed.rule)
    assert held is not None  # a post-combat state that lasts until removed
    kept = tuple(s for s in record.post_combat_states if s is not held)
    return note(
        replace(record, post_combat_states=kept),
        out,
        at_ms=adjustment.at_ms,
        change="post_combat_state_expired",
        combat_id=held.combat_id,
        rule="umh 4.3.1",
        event="post_combat_state.expired",
        reason=reason,
        state=held.state,
    )


def shorten(
    record: CharacterRecord,
    out: Outcome,
    adjustment: Adjustment,
    timed: Timed | None,
    held: PostCombatState | None,
    until_ms: int,
) -> CharacterRecord:
    """The same state ending sooner: its timer is replaced by one due at ``until_ms``."""
    disarm(out, timed)
    kind = TIMER_KIND.get(adjustment.kind, adjustment.kind)
    template = timed or Timed("", kind, until_ms, adjustment.at_ms, "umh 4.3.1", "post_combat")
    record, new = arm(
        record,
        out,
        kind=kind,
        since_ms=template.since_ms,
        until_ms=until_ms,
        rule=template.rule,
        reason=template.reason,
        combat_id=template.combat_id or (held.combat_id if held else None),
        key=template.key if timed else (held.state if held else None),
    )
    if timed is not None:
        return record.swap_timed(timed.timer_id, new)
    assert held is not None
    states = tuple(replace(s, timed=new) if s is held else s for s in record.post_combat_states)
    return replace(record, post_combat_states=states)
