"""Vigor lost at the end of a combat and its recovery (umh 4.1.4, 4.1.6, 2.3.3.1, 4.3.4)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from services.states.domain.umh.facts import AftermathConfig
from services.states.domain.umh.history import arm, disarm, note
from services.states.domain.umh.record import CharacterRecord, Participant
from shared.domain import rfc3339
from shared.outcome import Outcome

VIGOR_RECOVERED: Final = "vigor.recovered"

VIGOR_LOST_AT_ZERO_VIT: Final = 1
"""umh 4.1.4: by default, reaching 0 VIT in a combat costs 1 vigor point."""

VIGOR_LOST_IN_STALEMATE: Final = 1
"""umh 2.3.3.1: three rounds without intent to fight: both sides lose, 1 vigor point each."""

VIGOR_LOST_DISCONNECTED_WINNER: Final = 1
"""umh 4.3.4: a disconnected player of the winning side falls, losing 1 vigor point."""


@dataclass(frozen=True)
class VigorCost:
    points: int
    reason: str
    rule: str


def end_of_combat_cost(
    participant: Participant, reason: str, winner: str | None
) -> VigorCost | None:
    """The vigor a combat's end costs one participant; never stacked (umh 4.1.2).

    Checked in this order, the first that holds is the only cost:
    1. annulled: nothing (the combat does not count; 4.1.7 names flight, defeat and pact);
    2. VIT reached 0 during the combat: 1 point (4.1.4);
    3. stalemate: 1 point for every player who was still in it (2.3.3.1, reading A-90);
       whoever fled earlier had already left;
    4. disconnected on the winning side: he falls, 1 point (4.3.4), unless a greater state
       (2: he already lost it by reaching 0 VIT).
    """
    if reason == "annulled":
        return None
    if participant.reached_zero_vit:
        return VigorCost(VIGOR_LOST_AT_ZERO_VIT, "reached_zero_vit", "umh 4.1.4")
    if reason == "stalemate" and participant.status != "fled":
        return VigorCost(VIGOR_LOST_IN_STALEMATE, "stalemate", "umh 2.3.3.1")
    if participant.status == "disconnected" and winner is not None and participant.side == winner:
        return VigorCost(
            VIGOR_LOST_DISCONNECTED_WINNER, "disconnected_on_winning_side", "umh 4.3.4"
        )
    return None


def lose_vigor(
    record: CharacterRecord,
    out: Outcome,
    cost: VigorCost,
    *,
    at_ms: int,
    combat_id: str | None,
    config: AftermathConfig,
) -> CharacterRecord:
    """umh 4.1.4 / 4.1.6: add the points lost and (re)start the recovery of all of them.

    A new loss opens a new wound: the recovery time runs again from this loss, and when it is
    over every lost point comes back at once (4.1.6: never one by one; the time is a setting,
    reading A-73).
    """
    disarm(out, record.vigor_recovery)
    record, recovery = arm(
        replace(record, vigor_lost=record.vigor_lost + cost.points),
        out,
        kind="vigor_recovery",
        since_ms=at_ms,
        until_ms=at_ms + config.vigor_recovery_ms,
        rule="umh 4.1.6",
        reason=cost.reason,
        combat_id=combat_id,
    )
    record = replace(record, vigor_recovery=recovery)
    return note(
        record,
        out,
        at_ms=at_ms,
        change="vigor_lost",
        combat_id=combat_id,
        rule=cost.rule,
        reason=cost.reason,
        vigor_lost_delta=cost.points,
        vigor_lost=record.vigor_lost,
        recovers_at=rfc3339(recovery.until_ms),
    )


def recover_vigor(
    record: CharacterRecord, out: Outcome, *, at_ms: int, reason: str, rule: str = "umh 4.1.6"
) -> CharacterRecord:
    """umh 4.1.6: every lost vigor point comes back together (``vigor.recovered``).

    The caller has dealt with the recovery timer (it fired, or a moderator cancelled it).
    """
    recovered = record.vigor_lost
    record = replace(record, vigor_lost=0, vigor_recovery=None)
    return note(
        record,
        out,
        at_ms=at_ms,
        change="vigor_recovered",
        combat_id=None,
        rule=rule,
        event=VIGOR_RECOVERED,
        reason=reason,
        recovered=recovered,
        vigor_lost=0,
    )
