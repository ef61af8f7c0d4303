"""What happens during a combat that outlives it: offensive actions (umh 4.2.1, 4.2.2),
weekly uses (2.3.4.2), skills used (4.4.3) and states received (4.2.1)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from services.states.domain.umh.history import arm, disarm, note
from services.states.domain.umh.immunity import cancel_immunity_by_attacking
from services.states.domain.umh.record import CharacterRecord
from services.states.domain.umh.weeks import next_week_start_ms, uses_this_week, week_start_ms
from shared.domain import rfc3339
from shared.outcome import Outcome

WEEKLY_USES_RESET: Final = "weekly_uses.reset"


@dataclass(frozen=True)
class Declared:
    """The domain form of ``action.declared`` as seen by its author."""

    combat_id: str | None
    skill: str
    offensive: bool
    weekly_limit: int | None
    at_ms: int


def on_declared(
    record: CharacterRecord, declared: Declared, out: Outcome
) -> CharacterRecord | None:
    """An action of his: an offensive one ends his immunity (4.2.1, 4.2.2, A-56); a skill
    used is remembered for the combat's requirements (4.4.3) and, if weekly-limited, counted
    in its week (2.3.4.2)."""
    before = record
    if declared.offensive and record.immunity is not None:
        record = cancel_immunity_by_attacking(
            record,
            out,
            at_ms=declared.at_ms,
            combat_id=declared.combat_id,
            rule=record.immunity.rule,
        )
    combat = record.open_combat(declared.combat_id)
    if combat is not None and declared.skill not in combat.skills_used:
        record = record.with_open(
            replace(combat, skills_used=(*combat.skills_used, declared.skill))
        )
    if declared.weekly_limit is not None:
        record = count_weekly_use(record, out, declared)
    return None if record == before else record


def count_weekly_use(record: CharacterRecord, out: Outcome, declared: Declared) -> CharacterRecord:
    """umh 2.3.4.2: one use of a weekly-limited skill in the week of ``at_ms``.

    Uses of earlier weeks are forgotten; the reset at the next Monday 00:00 (local) is a timer
    (docs/rules.md 7.1 W13), so the status shows the new week's zero without waiting for a change.
    """
    combat = record.open_combat(declared.combat_id)
    timezone = (combat.config if combat else record.config).timezone
    start = week_start_ms(declared.at_ms, timezone)
    uses = tuple(u for u in record.weekly_uses if u[1] >= start)
    record = replace(record, weekly_uses=(*uses, (declared.skill, declared.at_ms)))
    reset_at = next_week_start_ms(declared.at_ms, timezone)
    if record.weekly_reset is None or record.weekly_reset.until_ms != reset_at:
        disarm(out, record.weekly_reset)
        record, reset = arm(
            record,
            out,
            kind="weekly_reset",
            since_ms=start,
            until_ms=reset_at,
            rule="umh 2.3.4.2",
            reason="week_over",
        )
        record = replace(record, weekly_reset=reset)
    counted = uses_this_week(record.weekly_uses, declared.at_ms, timezone)
    return note(
        record,
        out,
        at_ms=declared.at_ms,
        change="weekly_use",
        combat_id=declared.combat_id,
        rule="umh 2.3.4.2",
        reason="skill_used",
        skill=declared.skill,
        uses_this_week=counted.get(declared.skill, 0),
        weekly_limit=declared.weekly_limit,
        resets_at=rfc3339(reset_at),
    )


def on_state_received(
    record: CharacterRecord, combat_id: str, is_state: bool
) -> CharacterRecord | None:
    """umh 4.2.1: he received a state during the combat (his immunity will count at its end)."""
    combat = record.open_combat(combat_id)
    if not is_state or combat is None or combat.received_state:
        return None
    return record.with_open(replace(combat, received_state=True))
