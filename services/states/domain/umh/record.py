"""One character's record of what outlives his combats: the state of services/states.

The runtime stores it as a JSON-ready dict; :class:`CharacterRecord` is its domain form
(frozen dataclasses, converted by pydantic at this one seam). Every wall-clock state is a
:class:`Timed` with the id of the timer that ends it (docs/rules.md 7.1), so the timers the record
expects are read off the record itself. Lists are bounded so that a character who fights for
years keeps a small record.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from pydantic import TypeAdapter

from services.states.domain.umh.facts import AftermathConfig, SheetFacts
from shared.carried import CarriedEffect

MAX_COMBATS_SEEN: Final = 200
"""Ended combats remembered to refuse a redelivered ``combat.ended`` (or a late start)."""

MAX_HISTORY: Final = 100
"""History entries kept, newest last."""

MAX_ENDED: Final = 20
"""Ended combats whose details are kept for post-combat effects and requirements."""

MAX_OPEN: Final = 5
"""Combats entered and not yet ended (one, plus a fled one still running)."""

MAX_FLED: Final = 200
"""Combats fled, never to be rejoined (umh 4.2.3)."""

MAX_REQUIREMENTS: Final = 100


@dataclass(frozen=True)
class HistoryEntry:
    """One line of the character's history: when, what, in which combat, and details."""

    at_ms: int
    kind: str
    combat_id: str | None
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Timed:
    """A wall-clock state ended by the timer ``timer_id`` at ``until_ms`` (docs/rules.md 7.1).

    ``key`` says which one where a character can hold several (a room, a cooldown, a state).
    """

    timer_id: str
    kind: str
    until_ms: int
    since_ms: int
    rule: str
    reason: str
    combat_id: str | None = None
    key: str | None = None

    def active(self, now_ms: int) -> bool:
        return self.until_ms > now_ms


@dataclass(frozen=True)
class Imprisonment:
    """umh 4.5: held by the side that beat him; ``captors`` may be challenged (4.5.4)."""

    timed: Timed
    by: str
    captors: tuple[str, ...]
    captor_alliance: str | None = None


@dataclass(frozen=True)
class PostCombatState:
    """A post-combat state received from a winner's skill (umh 4.1.2, 4.3.1)."""

    state: str
    by: str
    combat_id: str
    skill: str
    timed: Timed | None = None


@dataclass(frozen=True)
class Requirement:
    """A combat requirement earned (umh 4.4): ``general``, ``profile`` or ``skill``."""

    combat_id: str
    kind: str
    name: str | None
    at_ms: int


@dataclass(frozen=True)
class Participant:
    """Someone of an ended combat as its end reported him, with his sheet's rank and alliance."""

    side: str
    status: str
    reached_zero_vit: bool = False
    rank: int | None = None
    alliance: str | None = None


@dataclass(frozen=True)
class AppliedEffect:
    """A post-combat effect this character received in one combat (umh 4.1.2)."""

    kind: str
    skill: str
    by: str
    stacks: bool = False
    state: str | None = None


@dataclass(frozen=True)
class CarriedCondition:
    """umh 4.1.7: what he keeps into his next combat from ``combat_id`` (ended at
    ``since_ms``): his VIT when below his sheet's (``None``: whole) and the lasting effects;
    ``recovery`` heals the VIT when the community set a time for it."""

    combat_id: str
    since_ms: int
    vit_max: int
    vit: int | None = None
    effects: tuple[CarriedEffect, ...] = ()
    recovery: Timed | None = None


@dataclass(frozen=True)
class Theft:
    """umh 4.2.5: an item he stole from ``victim`` in a running combat (decided at its end)."""

    victim: str
    item: str
    skill: str
    at_ms: int


@dataclass(frozen=True)
class OpenCombat:
    """A combat he entered and that has not ended yet."""

    combat_id: str
    side: str
    room: str
    entered_ms: int
    roster: Mapping[str, SheetFacts] = field(default_factory=dict)
    config: AftermathConfig = field(default_factory=AftermathConfig)
    received_state: bool = False
    skills_used: tuple[str, ...] = ()
    prisoner_challenge: bool = False
    fled: bool = False
    thefts: tuple[Theft, ...] = ()


@dataclass(frozen=True)
class EndedCombat:
    """What is kept of an ended combat for its post-combat effects and requirements."""

    combat_id: str
    room: str
    reason: str
    winner: str | None
    ended_ms: int
    participants: Mapping[str, Participant]
    roster: Mapping[str, SheetFacts] = field(default_factory=dict)
    config: AftermathConfig = field(default_factory=AftermathConfig)
    skills_used: tuple[str, ...] = ()
    effects: tuple[AppliedEffect, ...] = ()
    requirements: tuple[tuple[str, str | None], ...] = ()

    def facts_of(self, character: str) -> SheetFacts | None:
        return self.roster.get(character)


@dataclass(frozen=True)
class CharacterRecord:
    """Everything services/states keeps of one character of one community."""

    tenant: str | None
    character: str
    room: str = "_"  # the routing key of his last message (timers re-armed by the reconciler)
    vigor_lost: int = 0
    in_combat: str | None = None
    combats_seen: tuple[str, ...] = ()
    history: tuple[HistoryEntry, ...] = ()
    own: SheetFacts | None = None
    config: AftermathConfig = field(default_factory=AftermathConfig)
    open_combats: tuple[OpenCombat, ...] = ()
    ended: tuple[EndedCombat, ...] = ()
    fled_combats: tuple[str, ...] = ()
    immunity: Timed | None = None
    room_bans: tuple[Timed, ...] = ()
    irrumpir_ban: Timed | None = None
    cooldowns: tuple[Timed, ...] = ()
    imprisonment: Imprisonment | None = None
    post_combat_states: tuple[PostCombatState, ...] = ()
    vigor_recovery: Timed | None = None
    weekly_uses: tuple[tuple[str, int], ...] = ()
    weekly_reset: Timed | None = None
    requirements: tuple[Requirement, ...] = ()
    carried: CarriedCondition | None = None
    carried_from: tuple[str, ...] = ()  # combats whose end condition was kept (4.1.7), newest last
    timer_seq: int = 0

    # --- combats ---
    def has_seen(self, combat_id: str) -> bool:
        return combat_id in self.combats_seen

    def mark_seen(self, combat_id: str) -> CharacterRecord:
        return replace(self, combats_seen=(*self.combats_seen, combat_id)[-MAX_COMBATS_SEEN:])

    def remember(self, *entries: HistoryEntry) -> CharacterRecord:
        return replace(self, history=(*self.history, *entries)[-MAX_HISTORY:])

    def open_combat(self, combat_id: str | None) -> OpenCombat | None:
        return next((c for c in self.open_combats if c.combat_id == combat_id), None)

    def with_open(self, combat: OpenCombat) -> CharacterRecord:
        others = tuple(c for c in self.open_combats if c.combat_id != combat.combat_id)
        return replace(self, open_combats=(*others, combat)[-MAX_OPEN:])

    def without_open(self, combat_id: str) -> CharacterRecord:
        kept = tuple(c for c in self.open_combats if c.combat_id != combat_id)
        return replace(self, open_combats=kept)

    def ended_combat(self, combat_id: str) -> EndedCombat | None:
        return next((c for c in self.ended if c.combat_id == combat_id), None)

    def with_ended(self, combat: EndedCombat) -> CharacterRecord:
        others = tuple(c for c in self.ended if c.combat_id != combat.combat_id)
        return replace(self, ended=(*others, combat)[-MAX_ENDED:])

    def has_fled(self, combat_id: str | None) -> bool:
        return combat_id is not None and combat_id in self.fled_combats

    # --- timed states ---
    def timed_states(self) -> Iterator[Timed]:
        """Every wall-clock state armed as a timer (what the reconciler re-arms)."""
        singles = (self.immunity, self.irrumpir_ban, self.vigor_recovery, self.weekly_reset)
        yield from (t for t in singles if t is not None)
        yield from self.room_bans
        yield from self.cooldowns
        if self.imprisonment is not None:
            yield self.imprisonment.timed
        yield from (s.timed for s in self.post_combat_states if s.timed is not None)
        if self.carried is not None and self.carried.recovery is not None:
            yield self.carried.recovery

    def timed(self, timer_id: str) -> Timed | None:
        return next((t for t in self.timed_states() if t.timer_id == timer_id), None)

    def swap_timed(self, timer_id: str, new: Timed | None) -> CharacterRecord:
        """The record with the timed state ``timer_id`` replaced by ``new`` (None: removed;
        a held imprisonment or post-combat state goes with its timer)."""

        def swap(timed: Timed | None) -> Timed | None:
            return new if timed is not None and timed.timer_id == timer_id else timed

        def swap_all(states: tuple[Timed, ...]) -> tuple[Timed, ...]:
            swapped = (swap(t) for t in states)
            return tuple(t for t in swapped if t is not None)

        held = self.imprisonment
        if held is not None and held.timed.timer_id == timer_id:
            held = replace(held, timed=new) if new is not None else None
        kept_states = []
        for state in self.post_combat_states:
            if state.timed is not None and state.timed.timer_id == timer_id:
                if new is None:
                    continue
                state = replace(state, timed=new)
            kept_states.append(state)
        carried = self.carried
        if carried is not None and carried.recovery is not None:
            carried = replace(carried, recovery=swap(carried.recovery))
        return replace(
            self,
            carried=carried,
            immunity=swap(self.immunity),
            irrumpir_ban=swap(self.irrumpir_ban),
            vigor_recovery=swap(self.vigor_recovery),
            weekly_reset=swap(self.weekly_reset),
            room_bans=swap_all(self.room_bans),
            cooldowns=swap_all(self.cooldowns),
            imprisonment=held,
            post_combat_states=tuple(kept_states),
        )

    def room_ban(self, room: str, now_ms: int) -> Timed | None:
        return next((b for b in self.room_bans if b.key == room and b.active(now_ms)), None)

    def cooldown(self, key: str, now_ms: int) -> Timed | None:
        return next((c for c in self.cooldowns if c.key == key and c.active(now_ms)), None)

    def immune(self, now_ms: int) -> Timed | None:
        return self.immunity if self.immunity and self.immunity.active(now_ms) else None

    def imprisoned(self, now_ms: int) -> Imprisonment | None:
        held = self.imprisonment
        return held if held is not None and held.timed.active(now_ms) else None

    # --- serialisation ---
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = _ADAPTER.dump_python(self, mode="json")
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CharacterRecord:
        known = {k: v for k, v in data.items() if k in _FIELDS}
        return _ADAPTER.validate_python(known)


_ADAPTER: Final = TypeAdapter(CharacterRecord)
_FIELDS: Final = frozenset(CharacterRecord.__dataclass_fields__)
