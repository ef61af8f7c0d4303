"""Builders of services/states' inputs and a small in-memory stand-in for its runtime.

:class:`World` keeps one state per character and applies messages the way the runtime does
(each character concerned is decided on his own; an unchanged decision commits nothing),
collecting the events and the timers each message armed and cancelled.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from services.states.domain.umh.ruleset import UmhAftermath
from services.states.interface import Context
from shared.domain import Decision, TimerRequest
from shared.messages import (
    ACTION_DECLARED,
    COMBAT_ENDED,
    COMBAT_STARTED,
    COMBATANT_FLED,
    COMBATANT_JOINED,
    CONDITION_CARRIED,
    EFFECT_APPLIED,
    ITEM_STOLEN,
    Event,
)
from shared.payloads import StatesCheck, StatesChecked

RULESET = UmhAftermath()
TENANT = "t_1"
MADRID = ZoneInfo("Europe/Madrid")
SECOND = 1000
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE

T0 = int(datetime(2025, 5, 14, 20, 0, tzinfo=MADRID).timestamp() * 1000)
"""A Wednesday, 20:00 in Madrid: test vector T000-35's "HUIR at 20:00"."""

JSON = dict[str, Any]


def at_madrid(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> int:
    """Unix ms of a wall-clock time in Europe/Madrid."""
    moment = datetime(year, month, day, hour, minute, second, tzinfo=MADRID)
    return int(moment.timestamp() * 1000)


def skill(name: str, **extra: Any) -> JSON:
    body: JSON = {"name": name, "tier": 1, "pa": 1, "type": "offensive", "natures": ["fisica"]}
    body.update(extra)
    return body


def sheet(
    name: str,
    *,
    rank: int = 2,
    alliance: str | None = None,
    profile: str = "basic",
    cell: bool = False,
    skills: Iterable[JSON] = (),
) -> JSON:
    """A valid umh sheet with the facts services/states reads."""
    return {
        "name": name,
        "ruleset": "umh",
        "stats": {"vit": 1000, "vel": 6, "ref": 3, "vol": 2, "fue": 100, "rank": rank, "vigor": 5},
        "alliance": alliance,
        "profile": profile,
        "cell": cell,
        "skills": [skill("Puño"), *skills],
    }


def started(
    combat_id: str = "c_1",
    *,
    attackers: Iterable[str] = ("ana",),
    defenders: Iterable[str] = ("bruno",),
    sheets: Mapping[str, JSON] | None = None,
    aftermath: Mapping[str, int] | None = None,
    challenge: bool = True,
    at: int = T0,
    room: str = "plaza",
) -> JSON:
    sides = {"attackers": list(attackers), "defenders": list(defenders)}
    everyone = [*sides["attackers"], *sides["defenders"]]
    return {
        "combat_id": combat_id,
        "ruleset": "umh",
        "room": room,
        "tenant": TENANT,
        "initiator": sides["attackers"][0],
        "sides": sides,
        "opening": {"kind": "challenge"} if challenge else {"kind": "skill", "skill": "Puño"},
        "positions": None,
        "sheets": dict(sheets) if sheets is not None else {c: sheet(c) for c in everyone},
        "settings": {"aftermath": dict(aftermath or {}), "timezone": "Europe/Madrid"},
        "started_at_ms": at,
    }


def ended(
    combat_id: str = "c_1",
    *,
    winner: str | None = "attackers",
    reason: str = "defeat",
    people: Mapping[str, tuple[str, str, bool]] | None = None,
    at: int = T0 + 10 * MINUTE,
) -> JSON:
    """``combat.ended``; ``people``: character -> (side, status, reached_zero_vit)."""
    people = people or {
        "ana": ("attackers", "active", False),
        "bruno": ("defenders", "down", True),
    }
    return {
        "combat_id": combat_id,
        "ruleset": "umh",
        "winner": winner,
        "reason": reason,
        "participants": {
            c: {"side": side, "status": status, "reached_zero_vit": zero}
            for c, (side, status, zero) in people.items()
        },
        "ended_at_ms": at,
    }


def joined(
    character: str, *, combat_id: str = "c_1", side: str = "defenders", at: int = T0
) -> JSON:
    return {
        "combat_id": combat_id,
        "ruleset": "umh",
        "character": character,
        "side": side,
        "via": "irrumpir",
        "joined_at_ms": at,
        "sheet": sheet(character),
    }


def fled(
    character: str,
    *,
    combat_id: str = "c_1",
    side: str = "defenders",
    at: int = T0,
    skill_name: str | None = None,
    hours: float | None = None,
    profile: str = "basic",
) -> JSON:
    return {
        "combat_id": combat_id,
        "character": character,
        "side": side,
        "skill": skill_name,
        "flight_cooldown_hours": hours,
        "profile": profile,
        "fled_at_ms": at,
    }


def declared(
    attacker: str, skill_name: str = "Puño", *, offensive: bool = True, weekly: int | None = None
) -> JSON:
    return {
        "action_id": "a_" + "0" * 32,
        "attacker": attacker,
        "skill": skill_name,
        "offensive": offensive,
        "weekly_limit": weekly,
    }


def effect(character: str, *, combat_id: str = "c_1", is_state: bool = True) -> JSON:
    return {
        "combat_id": combat_id,
        "character": character,
        "effect": {"effect_id": "e_1", "kind": "state", "type": "mojado"},
        "is_state": is_state,
    }


def characters_in(event_type: str, payload: JSON) -> list[str]:
    if event_type == COMBAT_STARTED:
        return [c for members in payload["sides"].values() for c in members]
    if event_type == COMBAT_ENDED:
        return sorted(payload["participants"])
    if event_type == ACTION_DECLARED:
        return [payload["attacker"]]
    if event_type in (COMBATANT_JOINED, COMBATANT_FLED, EFFECT_APPLIED, ITEM_STOLEN):
        return [payload["character"]]
    if event_type == CONDITION_CARRIED:
        return sorted(payload["participants"])
    raise AssertionError(event_type)


@dataclass
class World:
    """Characters' states, and what the last messages produced."""

    states: dict[str, JSON | None] = field(default_factory=dict)
    events: list[tuple[str, Event]] = field(default_factory=list)
    armed: dict[str, TimerRequest] = field(default_factory=dict)
    cancelled: list[str] = field(default_factory=list)

    def ctx(self, now: int, room: str = "plaza", combat_id: str | None = "c_1") -> Context:
        return Context(TENANT, room, combat_id, now, now)

    def take(self, character: str, decision: Decision[JSON]) -> Decision[JSON]:
        if decision.state is not None:
            self.states[character] = decision.state
        self.events += [(character, e) for e in decision.events]
        for timer_id in decision.cancel:
            self.armed.pop(timer_id, None)
            self.cancelled.append(timer_id)
        self.armed.update({t.timer_id: t for t in decision.arm})
        return decision

    def on(
        self,
        event_type: str,
        payload: JSON,
        *,
        now: int | None = None,
        room: str = "plaza",
        combat_id: str | None = None,
    ) -> dict[str, Decision[JSON]]:
        when = now if now is not None else T0
        combat = combat_id or payload.get("combat_id") or "c_1"
        ctx = self.ctx(when, room, combat)
        return {
            c: self.take(c, RULESET.on_event(self.states.get(c), c, event_type, payload, ctx))
            for c in characters_in(event_type, payload)
        }

    def command(
        self, character: str, command_type: str, payload: JSON, *, now: int, room: str = "plaza"
    ) -> Decision[JSON]:
        ctx = self.ctx(now, room, payload.get("combat_id"))
        decision = RULESET.on_command(
            self.states.get(character), character, command_type, payload, ctx
        )
        return self.take(character, decision)

    def fire(self, character: str, timer_id: str, *, now: int | None = None) -> Decision[JSON]:
        timer = self.armed.pop(timer_id, None)
        when = now if now is not None else (timer.due_ms if timer else T0)
        decision = RULESET.on_timer(self.states.get(character), character, timer_id, self.ctx(when))
        return self.take(character, decision)

    def fire_due(self, character: str, kind: str) -> Decision[JSON]:
        """Fire the (only) armed timer of ``kind`` of ``character`` at its due time."""
        (timer,) = [
            t for t in self.armed.values() if t.kind == kind and f":{character}:" in t.timer_id
        ]
        return self.fire(character, timer.timer_id)

    def status(self, character: str, now: int) -> JSON:
        view: JSON = RULESET.view(self.states.get(character), now_ms=now)
        status: JSON = view["status"]
        return status

    def history(self, character: str) -> list[JSON]:
        view: JSON = RULESET.view(self.states.get(character), now_ms=T0)
        history: list[JSON] = view["history"]
        return history

    def check(self, query: JSON, *, now: int, room: str = "plaza") -> StatesChecked:
        parsed = StatesCheck.model_validate(query)
        return RULESET.check(
            {c: self.states.get(c) for c in parsed.characters},
            parsed,
            room=room,
            ended_combats=set(),
            now_ms=now,
        )

    def changes(self, character: str | None = None) -> list[tuple[str, str]]:
        """(event type, change) of every event so far (of one character)."""
        return [
            (e.type, str(e.payload.get("change")))
            for c, e in self.events
            if character is None or c == character
        ]

    def clear(self) -> None:
        self.events.clear()
