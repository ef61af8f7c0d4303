"""What fleeing a combat leaves (umh 4.1.1.1 - 4.1.1.1.2, 4.2.2, 4.2.3, 4.2.3.1)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from services.states.domain.umh.facts import AftermathConfig
from services.states.domain.umh.history import arm, disarm, note
from services.states.domain.umh.immunity import RULE_FLED, grant_immunity
from services.states.domain.umh.record import MAX_FLED, CharacterRecord, Timed
from shared.domain import rfc3339
from shared.outcome import Outcome

SHARED_FLIGHT_COOLDOWN: Final = "flee"
"""umh 4.1.1.1.2: the one flight cooldown every basic (non-special) profile shares."""

HOUR_MS: Final = 3_600_000


@dataclass(frozen=True)
class Flight:
    """The domain form of ``combatant.fled``."""

    combat_id: str
    room: str
    skill: str | None
    own_cooldown_hours: float | None
    profile: str
    at_ms: int


def flight_cooldown_key(profile: str, skill: str | None) -> str:
    """umh 4.1.1.1.2: which cooldown a flight starts and is checked against.

    Every flight of a basic profile (and the basic HUIR of anyone) shares ``flee``; a flight
    skill of a special profile has a cooldown of its own, ``flee:<skill>``.
    """
    if profile == "basic" or skill is None:
        return SHARED_FLIGHT_COOLDOWN
    return f"{SHARED_FLIGHT_COOLDOWN}:{skill}"


def flight_cooldown_ms(own_cooldown_hours: float | None, config: AftermathConfig) -> int:
    """umh 4.1.1.1.1: the flight skill's own cooldown; without one, 72 hours (a setting).

    Reading A-70: wall-clock time across combats. Hours are rounded to the millisecond.
    """
    if own_cooldown_hours is not None:
        return round(own_cooldown_hours * HOUR_MS)
    return config.flee_cooldown_ms


def ban(
    record: CharacterRecord,
    out: Outcome,
    flight: Flight,
    *,
    kind: str,
    duration_ms: int,
    rule: str,
    key: str | None = None,
) -> tuple[CharacterRecord, Timed]:
    """A timed ban that starts with the flight (the rules' durations, or a setting)."""
    return arm(
        record,
        out,
        kind=kind,
        since_ms=flight.at_ms,
        until_ms=flight.at_ms + duration_ms,
        rule=rule,
        reason="fled",
        combat_id=flight.combat_id,
        key=key,
    )


def flee(
    record: CharacterRecord, out: Outcome, flight: Flight, config: AftermathConfig
) -> CharacterRecord | None:
    """umh 4.1.1.1, 4.2.2, 4.2.3, 4.2.3.1, 4.1.1.1.1 - 4.1.1.1.2: the fleer leaves the combat.

    In this order, all from the moment he fled: he is out of that combat for good (it is
    remembered, never to be rejoined), immune to challenges (4.2.2), banned from its room and
    from IRRUMPIR for 15 minutes (4.2.3, 4.2.3.1; both run in parallel with the immunity,
    reading A-57), and his flight is on cooldown (4.1.1.1.1 - 4.1.1.1.2). A flight already
    recorded changes nothing (None).
    """
    if record.has_fled(flight.combat_id):
        return None
    fled = (*record.fled_combats, flight.combat_id)[-MAX_FLED:]
    record = replace(record, fled_combats=fled)
    if record.in_combat == flight.combat_id:
        record = replace(record, in_combat=None)
    combat = record.open_combat(flight.combat_id)
    if combat is not None:
        record = record.with_open(replace(combat, fled=True))
    record = grant_immunity(
        record,
        out,
        since_ms=flight.at_ms,
        duration_ms=config.immunity_ms,
        rule=RULE_FLED,
        reason="fled",
        combat_id=flight.combat_id,
    )
    record = ban_from_room(record, out, flight, config)
    record = ban_from_irrumpir(record, out, flight, config)
    return start_flight_cooldown(record, out, flight, config)


def ban_from_room(
    record: CharacterRecord, out: Outcome, flight: Flight, config: AftermathConfig
) -> CharacterRecord:
    """umh 4.2.3: he cannot come back to the combat's room for 15 minutes (a setting)."""
    previous = next((b for b in record.room_bans if b.key == flight.room), None)
    disarm(out, previous)
    record, room_ban = ban(
        record,
        out,
        flight,
        kind="room_ban",
        duration_ms=config.room_ban_ms,
        rule="umh 4.2.3",
        key=flight.room,
    )
    others = tuple(b for b in record.room_bans if b.key != flight.room)
    record = replace(record, room_bans=(*others, room_ban))
    return note(
        record,
        out,
        at_ms=flight.at_ms,
        change="room_ban",
        combat_id=flight.combat_id,
        rule="umh 4.2.3",
        reason="fled",
        room=flight.room,
        until=rfc3339(room_ban.until_ms),
    )


def ban_from_irrumpir(
    record: CharacterRecord, out: Outcome, flight: Flight, config: AftermathConfig
) -> CharacterRecord:
    """umh 4.2.3.1: until the room ban is over he cannot IRRUMPIR into any other combat."""
    disarm(out, record.irrumpir_ban)
    record, irrumpir_ban = ban(
        record, out, flight, kind="irrumpir_ban", duration_ms=config.room_ban_ms, rule="umh 4.2.3.1"
    )
    record = replace(record, irrumpir_ban=irrumpir_ban)
    return note(
        record,
        out,
        at_ms=flight.at_ms,
        change="irrumpir_ban",
        combat_id=flight.combat_id,
        rule="umh 4.2.3.1",
        reason="fled",
        until=rfc3339(irrumpir_ban.until_ms),
    )


def start_flight_cooldown(
    record: CharacterRecord, out: Outcome, flight: Flight, config: AftermathConfig
) -> CharacterRecord:
    """umh 4.1.1.1.1 - 4.1.1.1.2: the flight cannot be used again until its cooldown is over."""
    key = flight_cooldown_key(flight.profile, flight.skill)
    previous = next((c for c in record.cooldowns if c.key == key), None)
    disarm(out, previous)
    duration = flight_cooldown_ms(flight.own_cooldown_hours, config)
    rule = "umh 4.1.1.1.1" if flight.own_cooldown_hours is None else "umh 4.1.1.1"
    record, cooldown = ban(
        record, out, flight, kind="flee_cooldown", duration_ms=duration, rule=rule, key=key
    )
    others = tuple(c for c in record.cooldowns if c.key != key)
    record = replace(record, cooldowns=(*others, cooldown))
    return note(
        record,
        out,
        at_ms=flight.at_ms,
        change="flee_cooldown",
        combat_id=flight.combat_id,
        rule=rule,
        reason="fled",
        cooldown=key,
        skill=flight.skill,
        until=rfc3339(cooldown.until_ms),
    )
