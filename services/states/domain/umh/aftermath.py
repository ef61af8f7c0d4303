"""What a combat leaves on one character: entering it, and its end (umh 4.1 - 4.5).

Pure functions ``record + fact -> new record`` writing their events and timers into an
:class:`~shared.outcome.Outcome`; ``None`` means nothing changed, so a
redelivered or out-of-order fact is harmless.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from services.states.domain.umh.facts import AftermathConfig, SheetFacts
from services.states.domain.umh.history import disarm
from services.states.domain.umh.immunity import (
    RULE_ANNULLED,
    RULE_STATE_RECEIVED,
    cancel_immunity_by_attacking,
    grant_immunity,
)
from services.states.domain.umh.imprisonment import free, prisoner_challenge_refusal
from services.states.domain.umh.record import (
    CharacterRecord,
    EndedCombat,
    HistoryEntry,
    OpenCombat,
    Participant,
)
from services.states.domain.umh.requirements import general_requirement
from services.states.domain.umh.thefts import settle_thefts
from services.states.domain.umh.vigor import end_of_combat_cost, lose_vigor
from shared.outcome import Outcome


@dataclass(frozen=True)
class CombatEntered:
    """The character entered a combat: at its start (``combat.started``) or by joining."""

    combat_id: str
    side: str
    at_ms: int
    kind: str  # "combat_started" | "combatant_joined"
    room: str = "_"
    roster: Mapping[str, SheetFacts] = field(default_factory=dict)
    config: AftermathConfig | None = None  # None: a joiner, the record's last settings
    initiator: bool = False
    challenge: bool = False
    opponents: tuple[str, ...] = ()


@dataclass(frozen=True)
class CombatOutcome:
    """The domain form of ``combat.ended``."""

    combat_id: str
    winner: str | None
    reason: str
    participants: Mapping[str, Participant]
    ended_at_ms: int
    room: str = "_"
    annul_reason: str | None = None  # umh 4.2.4: the moderator's reason


def is_prisoner_challenge(record: CharacterRecord, entered: CombatEntered) -> bool:
    """umh 4.5.4: a prisoner who opens a challenge against members of his capturing group."""
    held = record.imprisoned(entered.at_ms)
    if held is None or not entered.initiator:
        return False
    facts: dict[str, SheetFacts | None] = {o: entered.roster.get(o) for o in entered.opponents}
    refusal = prisoner_challenge_refusal(
        held, challenge=entered.challenge, opponents=entered.opponents, facts=facts
    )
    return refusal is None


def enter_combat(
    record: CharacterRecord, entered: CombatEntered, out: Outcome
) -> CharacterRecord | None:
    """umh 1.2.1, 1.2.4: the character is in ``combat_id`` from his start or his entry.

    Nothing changes if he is already marked in it, if that combat already ended for him (a
    late or redelivered start must not put him back in a finished combat) or if he fled it.
    Whoever opens a combat attacks: his immunity ends (4.2.1, 4.2.2, reading A-56).
    """
    if (
        record.in_combat == entered.combat_id
        or record.has_seen(entered.combat_id)
        or record.has_fled(entered.combat_id)
    ):
        return None
    own = entered.roster.get(record.character) or record.own
    config = entered.config or record.config
    combat = OpenCombat(
        combat_id=entered.combat_id,
        side=entered.side,
        room=entered.room,
        entered_ms=entered.at_ms,
        roster=dict(entered.roster),
        config=config,
        prisoner_challenge=is_prisoner_challenge(record, entered),
    )
    detail = {"side": entered.side}
    if combat.prisoner_challenge:
        detail["prisoner_challenge"] = "umh 4.5.4"
    record = replace(record, in_combat=entered.combat_id, own=own, config=config)
    record = record.with_open(combat).remember(
        HistoryEntry(entered.at_ms, entered.kind, entered.combat_id, detail)
    )
    if entered.initiator:
        rule = record.immunity.rule if record.immunity else RULE_STATE_RECEIVED
        record = cancel_immunity_by_attacking(
            record, out, at_ms=entered.at_ms, combat_id=entered.combat_id, rule=rule
        )
    return record


def merged_participants(
    ended: CombatOutcome, roster: Mapping[str, SheetFacts]
) -> dict[str, Participant]:
    """The end's participants, with rank and alliance from the sheets where the end lacks them."""
    merged: dict[str, Participant] = {}
    for cid, part in ended.participants.items():
        facts = roster.get(cid)
        rank = part.rank if part.rank is not None else (facts.rank if facts else None)
        alliance = part.alliance or (facts.alliance if facts else None)
        merged[cid] = replace(part, rank=rank, alliance=alliance)
    return merged


def summarize(
    record: CharacterRecord, ended: CombatOutcome, opened: OpenCombat | None
) -> EndedCombat:
    """What his record keeps of the ended combat for post-combat effects and requirements:
    everyone's fate, rank and alliance, the sheets' snapshot and the settings it started with."""
    roster = dict(opened.roster) if opened else {}
    if record.character not in roster and record.own is not None:
        roster[record.character] = record.own
    return EndedCombat(
        combat_id=ended.combat_id,
        room=opened.room if opened else ended.room,
        reason=ended.reason,
        winner=ended.winner,
        ended_ms=ended.ended_at_ms,
        participants=merged_participants(ended, roster),
        roster=roster,
        config=opened.config if opened else record.config,
        skills_used=opened.skills_used if opened else (),
    )


def end_combat(
    record: CharacterRecord, ended: CombatOutcome, out: Outcome
) -> CharacterRecord | None:
    """umh 4.1.4, 4.1.7, 4.2.1, 4.2.4, 4.2.5, 4.3.1, 4.3.4, 4.4.1, 4.5.4, 2.3.3.1: the end, once.

    In this order, every state counted from the end (4.3.1): he leaves the combat; the end is
    written in his history (4.1.7); the vigor it costs (:func:`end_of_combat_cost`, never
    stacked, 4.1.2); the immunity from challenges (:func:`immunity_at_end`); the general
    requirement (4.4.1); the items he stole, kept or returned (4.2.5); a prisoner who won
    his challenge is freed (4.5.4). A combat already
    settled changes nothing; a character who is not among its participants only leaves it
    (if the record still had him in it).
    """
    if record.has_seen(ended.combat_id):
        return None
    part = ended.participants.get(record.character)
    opened = record.open_combat(ended.combat_id)
    left = replace(record, in_combat=None) if record.in_combat == ended.combat_id else record
    left = left.without_open(ended.combat_id)
    if part is None:
        return left if left != record else None
    summary = summarize(record, ended, opened)
    detail: dict[str, Any] = {"winner": ended.winner, "reason": ended.reason, "side": part.side}
    detail.update(status=part.status, reached_zero_vit=part.reached_zero_vit)
    if ended.annul_reason:
        detail["annul_reason"] = ended.annul_reason
    entry = HistoryEntry(ended.ended_at_ms, "combat_ended", ended.combat_id, detail)
    record = left.mark_seen(ended.combat_id).with_ended(summary).remember(entry)
    cost = end_of_combat_cost(part, ended.reason, ended.winner)
    if cost is not None:
        at, config = ended.ended_at_ms, summary.config
        record = lose_vigor(record, out, cost, at_ms=at, combat_id=ended.combat_id, config=config)
    record = immunity_at_end(record, out, ended, opened, summary.config)
    record = general_requirement(record, out, summary)
    record = settle_thefts(record, out, summary, opened)
    return free_if_challenge_won(record, out, ended, opened, part)


def free_if_challenge_won(
    record: CharacterRecord,
    out: Outcome,
    ended: CombatOutcome,
    opened: OpenCombat | None,
    part: Participant,
) -> CharacterRecord:
    """umh 4.5.4: a prisoner who wins the challenge he opened against his captors is free."""
    if opened is None or not opened.prisoner_challenge or ended.winner != part.side:
        return record
    disarm(out, record.imprisonment.timed if record.imprisonment else None)
    return free(
        record,
        out,
        at_ms=ended.ended_at_ms,
        reason="won_challenge",
        rule="umh 4.5.4",
        combat_id=ended.combat_id,
    )


def immunity_at_end(
    record: CharacterRecord,
    out: Outcome,
    ended: CombatOutcome,
    opened: OpenCombat | None,
    config: AftermathConfig,
) -> CharacterRecord:
    """umh 4.2.1 / 4.2.4 / 2.3.3.1.2: the immunity the end grants him, if any (from the end,
    A-56)."""
    if ended.reason == "annulled":
        rule, reason = RULE_ANNULLED, "annulled"
    elif ended.reason == "stalemate" or opened is None or not opened.received_state:
        return record
    else:
        rule, reason = RULE_STATE_RECEIVED, "state_received"
    return grant_immunity(
        record,
        out,
        since_ms=ended.ended_at_ms,
        duration_ms=config.immunity_ms,
        rule=rule,
        reason=reason,
        combat_id=ended.combat_id,
    )
