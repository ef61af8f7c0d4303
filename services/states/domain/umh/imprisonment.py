"""Imprisonment and kidnapping (umh 4.5): who may be held, for how long, and the way out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from services.states.domain.umh.facts import AftermathConfig, SheetFacts
from services.states.domain.umh.history import arm, disarm, note
from services.states.domain.umh.record import CharacterRecord, EndedCombat, Imprisonment
from shared.domain import rfc3339
from shared.errors import RuleViolation
from shared.outcome import Outcome

IMPRISONMENT_EXPIRED: Final = "imprisonment.expired"

MIN_VIGOR_LOST_TO_IMPRISON: Final = 2
"""umh 4.5.1: only a foe who has lost 2 or more vigor points (this or earlier combats)."""

MAX_CHALLENGED_CAPTORS: Final = 3
"""umh 4.5.4: the prisoner challenges alone up to three members of the capturing group."""


def imprison_refusal(target: CharacterRecord, *, owns_means: bool) -> RuleViolation | None:
    """umh 4.5.1: the winner owns a skill or a cell that imprisons, and the beaten foe has lost
    at least 2 vigor points, counting this combat's losses (test vector T000-36)."""
    if not owns_means:
        return RuleViolation("imprison_not_eligible", "umh 4.5.1", reason="no_skill_or_cell")
    if target.vigor_lost < MIN_VIGOR_LOST_TO_IMPRISON:
        return RuleViolation(
            "imprison_not_eligible",
            "umh 4.5.1",
            reason="vigor_lost_below_2",
            vigor_lost=target.vigor_lost,
        )
    return None


def imprisonment_ms(seconds: int | None, config: AftermathConfig) -> int:
    """umh 4.5.2: as long as the skill says, and at most 72 hours (a setting)."""
    wanted = seconds * 1000 if seconds is not None else config.imprisonment_max_ms
    return min(wanted, config.imprisonment_max_ms)


def imprison(
    record: CharacterRecord,
    out: Outcome,
    combat: EndedCombat,
    *,
    by: str,
    skill: str,
    seconds: int | None,
    at_ms: int,
) -> CharacterRecord:
    """umh 4.5.1 - 4.5.2, 4.3.1: he is held by the side that beat him, counted from the end.

    The capturing group (4.5.4) is the winning side of that combat and the captor's alliance.
    A new imprisonment replaces one he was still serving.
    """
    disarm(out, record.imprisonment.timed if record.imprisonment else None)
    until_ms = combat.ended_ms + imprisonment_ms(seconds, combat.config)
    record, timed = arm(
        record,
        out,
        kind="imprisonment",
        since_ms=combat.ended_ms,
        until_ms=until_ms,
        rule="umh 4.5.2",
        reason=f"post_combat:{skill}",
        combat_id=combat.combat_id,
    )
    captors = tuple(cid for cid, p in combat.participants.items() if p.side == combat.winner)
    facts = combat.facts_of(by)
    held = Imprisonment(timed, by, captors, facts.alliance if facts else None)
    record = replace(record, imprisonment=held)
    return note(
        record,
        out,
        at_ms=at_ms,
        change="imprisoned",
        combat_id=combat.combat_id,
        rule="umh 4.5.1",
        reason="post_combat",
        by=by,
        skill=skill,
        captors=list(captors),
        until=rfc3339(until_ms),
    )


def is_of_capturing_group(held: Imprisonment, character: str, facts: SheetFacts | None) -> bool:
    """umh 4.5.4: a member of the group that captured him (the winning side, or the captor's
    alliance)."""
    if character in held.captors:
        return True
    alliance = facts.alliance if facts else None
    return bool(
        held.captor_alliance and alliance and alliance.casefold() == held.captor_alliance.casefold()
    )


def prisoner_challenge_refusal(
    held: Imprisonment,
    *,
    challenge: bool,
    opponents: Sequence[str],
    facts: Mapping[str, SheetFacts | None],
) -> RuleViolation | None:
    """umh 4.5.2, 4.5.4: what a prisoner may start: only his challenge against captors.

    Order: an attack out of combat is forbidden (4.5.2); more than three opponents are too
    many (4.5.4); every opponent must belong to the capturing group (4.5.4).
    """
    if not challenge:
        return RuleViolation("prisoner_action_forbidden", "umh 4.5.2", action="attack")
    if len(opponents) > MAX_CHALLENGED_CAPTORS:
        return RuleViolation(
            "too_many_opponents", "umh 4.5.4", opponents=len(opponents), max=MAX_CHALLENGED_CAPTORS
        )
    strangers = [o for o in opponents if not is_of_capturing_group(held, o, facts.get(o))]
    if strangers:
        return RuleViolation("prisoner_action_forbidden", "umh 4.5.4", not_captors=strangers)
    return None


def free(
    record: CharacterRecord,
    out: Outcome,
    *,
    at_ms: int,
    reason: str,
    rule: str,
    combat_id: str | None = None,
) -> CharacterRecord:
    """He is no longer a prisoner (``imprisonment.expired``): his time is over (4.5.2), he won
    his challenge (4.5.4) or a moderator freed him. The caller dealt with the timer."""
    held = record.imprisonment
    if held is None:
        return record
    record = replace(record, imprisonment=None)
    return note(
        record,
        out,
        at_ms=at_ms,
        change="imprisonment_expired",
        combat_id=combat_id or held.timed.combat_id,
        rule=rule,
        event=IMPRISONMENT_EXPIRED,
        reason=reason,
        by=held.by,
    )
