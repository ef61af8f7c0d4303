"""Immunity from challenges after a combat (umh 4.2.1, 4.2.2, 4.2.4) and how it ends early."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from services.states.domain.umh.history import arm, disarm, note
from services.states.domain.umh.record import CharacterRecord
from shared.domain import rfc3339
from shared.outcome import Outcome

IMMUNITY_EXPIRED: Final = "immunity.expired"

RULE_STATE_RECEIVED: Final = "umh 4.2.1"
RULE_FLED: Final = "umh 4.2.2"
RULE_ANNULLED: Final = "umh 4.2.4"


def grant_immunity(
    record: CharacterRecord,
    out: Outcome,
    *,
    since_ms: int,
    duration_ms: int,
    rule: str,
    reason: str,
    combat_id: str | None,
) -> CharacterRecord:
    """umh 4.2.1 / 4.2.2 / 4.2.4: nobody may challenge him until ``since + duration``.

    Immunities do not add up: one that already lasts longer stays as it is (reading A-57:
    they run in parallel, so the later end wins); otherwise it is replaced.
    """
    until_ms = since_ms + duration_ms
    current = record.immunity
    if current is not None and current.until_ms >= until_ms:
        return record
    disarm(out, current)
    record, immunity = arm(
        record,
        out,
        kind="immunity",
        since_ms=since_ms,
        until_ms=until_ms,
        rule=rule,
        reason=reason,
        combat_id=combat_id,
    )
    record = replace(record, immunity=immunity)
    return note(
        record,
        out,
        at_ms=since_ms,
        change="immunity",
        combat_id=combat_id,
        rule=rule,
        reason=reason,
        immune_until=rfc3339(until_ms),
    )


def cancel_immunity_by_attacking(
    record: CharacterRecord, out: Outcome, *, at_ms: int, combat_id: str | None, rule: str
) -> CharacterRecord:
    """umh 4.2.1 / 4.2.2: attacking or any offensive action ends his immunity at once.

    Reading A-56: any offensive action anywhere, including opening a combat by a challenge
    (4.2.4 by analogy, docs/rules.md 7.1 W7). Nothing happens if he is not immune at ``at_ms``.
    """
    immunity = record.immune(at_ms)
    if immunity is None:
        return record
    disarm(out, immunity)
    record = replace(record, immunity=None)
    return note(
        record,
        out,
        at_ms=at_ms,
        change="immunity_expired",
        combat_id=combat_id,
        rule=rule,
        event=IMMUNITY_EXPIRED,
        reason="offensive_action",
        was_until=rfc3339(immunity.until_ms),
    )
