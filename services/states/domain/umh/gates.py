"""May these characters start a combat, join one or flee now? (``states.check``)

Pure: the records of the characters asked about, the room, the combats known to have ended,
and the time. Rules are checked in the documented order of each purpose (python-chess
style); every refusal is listed, rule by rule, and the first one becomes the request's 422.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from services.states.domain.umh.carried import carried_for
from services.states.domain.umh.facts import SheetFacts
from services.states.domain.umh.flight import flight_cooldown_key
from services.states.domain.umh.imprisonment import prisoner_challenge_refusal
from services.states.domain.umh.record import CharacterRecord
from services.states.domain.umh.weeks import uses_this_week
from shared.carried import Carried
from shared.domain import rfc3339
from shared.payloads import Refusal, StatesCheck, StatesChecked

Records = Mapping[str, CharacterRecord | None]


@dataclass(frozen=True)
class Gate:
    """What every rule below looks at."""

    records: Records
    query: StatesCheck
    room: str
    ended_combats: set[str]
    now_ms: int


Rule = Callable[[Gate, str, CharacterRecord], Refusal | None]


def in_another_combat(gate: Gate, character: str, record: CharacterRecord) -> Refusal | None:
    """A character fights one combat at a time (docs/api.md ``already_in_combat``).

    ``ended_combats`` are combats whose end this service may not have applied yet but whose
    read model already says they ended.
    """
    current = record.in_combat
    if current is None or current == gate.query.combat_id or current in gate.ended_combats:
        return None
    return Refusal(character=character, code="already_in_combat", rule=None)


def room_locked(gate: Gate, character: str, record: CharacterRecord) -> Refusal | None:
    """umh 4.2.3: whoever fled a combat may not come back to its room for 15 minutes."""
    ban = record.room_ban(gate.room, gate.now_ms)
    if ban is None:
        return None
    return Refusal(
        character=character, code="room_locked", rule="umh 4.2.3", until=rfc3339(ban.until_ms)
    )


def challenge_immune(gate: Gate, character: str, record: CharacterRecord) -> Refusal | None:
    """umh 1.1.1.2 with 4.2.1 / 4.2.2 / 4.2.4: nobody may challenge an immune character."""
    if not gate.query.challenge or character not in gate.query.defenders:
        return None
    immunity = record.immune(gate.now_ms)
    if immunity is None:
        return None
    return Refusal(
        character=character,
        code="target_challenge_immune",
        rule="umh 1.1.1.2",
        until=rfc3339(immunity.until_ms),
    )


def prisoner_start(gate: Gate, character: str, record: CharacterRecord) -> Refusal | None:
    """umh 4.5.2 / 4.5.4: a prisoner attacks nobody out of combat; he may only challenge, alone,
    up to three members of the group that captured him."""
    held = record.imprisoned(gate.now_ms)
    if held is None or character != attacker_of(gate.query):
        return None
    opponents = list(gate.query.defenders)
    facts = {o: own_facts(gate.records.get(o)) for o in opponents}
    refusal = prisoner_challenge_refusal(
        held, challenge=gate.query.challenge, opponents=opponents, facts=facts
    )
    if refusal is None:
        return None
    return Refusal(
        character=character,
        code=refusal.code,
        rule=refusal.rule,
        until=rfc3339(held.timed.until_ms),
    )


def prisoner_join(gate: Gate, character: str, record: CharacterRecord) -> Refusal | None:
    """umh 4.5.2: a prisoner takes no additional actions: he joins no combat."""
    held = record.imprisoned(gate.now_ms)
    if held is None:
        return None
    return Refusal(
        character=character,
        code="prisoner_action_forbidden",
        rule="umh 4.5.2",
        until=rfc3339(held.timed.until_ms),
    )


def rejoin_fled(gate: Gate, character: str, record: CharacterRecord) -> Refusal | None:
    """umh 4.2.3: nobody rejoins a combat he fled, on either side, ever."""
    if not record.has_fled(gate.query.combat_id):
        return None
    return Refusal(character=character, code="cannot_rejoin_fled_combat", rule="umh 4.2.3")


def irrumpir_locked(gate: Gate, character: str, record: CharacterRecord) -> Refusal | None:
    """umh 4.2.3.1: while his room ban lasts, whoever fled cannot IRRUMPIR into any combat."""
    ban = record.irrumpir_ban
    if gate.query.via != "irrumpir" or ban is None or not ban.active(gate.now_ms):
        return None
    return Refusal(
        character=character,
        code="irrumpir_locked",
        rule="umh 4.2.3.1",
        until=rfc3339(ban.until_ms),
    )


def flee_on_cooldown(gate: Gate, character: str, record: CharacterRecord) -> Refusal | None:
    """umh 4.1.1.1.1 - 4.1.1.1.2: a flight waits for its cooldown (shared by basic profiles)."""
    profile = record.own.profile if record.own else "basic"
    cooldown = record.cooldown(flight_cooldown_key(profile, gate.query.skill), gate.now_ms)
    if cooldown is None:
        return None
    return Refusal(
        character=character,
        code="flee_on_cooldown",
        rule=cooldown.rule,
        until=rfc3339(cooldown.until_ms),
    )


RULES: dict[str, Sequence[Rule]] = {
    "start": (in_another_combat, room_locked, prisoner_start, challenge_immune),
    "join": (rejoin_fled, in_another_combat, prisoner_join, room_locked, irrumpir_locked),
    "flee": (flee_on_cooldown,),
}
"""Each purpose's rules, in the order they are checked."""


def attacker_of(query: StatesCheck) -> str:
    return query.attacker or query.characters[0]


def own_facts(record: CharacterRecord | None) -> SheetFacts | None:
    return record.own if record else None


def weekly_uses(gate: Gate) -> dict[str, dict[str, int]]:
    """umh 2.3.4.2: each character's uses this week, per weekly-limited skill."""
    uses: dict[str, dict[str, int]] = {}
    for character, record in gate.records.items():
        if record is None or not record.weekly_uses:
            continue
        counted = uses_this_week(record.weekly_uses, gate.now_ms, record.config.timezone)
        if counted:
            uses[character] = dict(counted)
    return uses


def check(
    records: Records,
    query: StatesCheck,
    *,
    room: str,
    ended_combats: set[str],
    now_ms: int,
) -> StatesChecked:
    """The gates before a start, a join or a flight; and the weekly uses of whoever asked."""
    gate = Gate(records, query, room, ended_combats, now_ms)
    refusals: list[Refusal] = []
    for rule in RULES[query.purpose]:
        for character in query.characters:
            record = records.get(character)
            refusal = rule(gate, character, record) if record is not None else None
            if refusal is not None:
                refusals.append(refusal)
    attacker = records.get(attacker_of(query))
    prisoner = bool(
        query.purpose == "start"
        and not refusals
        and attacker is not None
        and attacker.imprisoned(now_ms) is not None
    )
    return StatesChecked(
        allowed=not refusals,
        refusals=refusals,
        weekly_uses=weekly_uses(gate),
        prisoner_challenge=prisoner,
        carried=carried_into(gate),
    )


def carried_into(gate: Gate) -> dict[str, Carried]:
    """umh 4.1.7: what each one starting or joining carries from his last combat."""
    if gate.query.purpose == "flee":
        return {}
    found = {c: carried_for(gate.records.get(c)) for c in gate.query.characters}
    return {c: carried for c, carried in found.items() if carried is not None}
