"""A small fight on the umh resolution ruleset, driven by payloads (no network)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from services.resolution.domain.umh.ruleset import UmhResolution
from shared.domain import Decision
from shared.messages import (
    ACTION_DECLARED,
    ACTION_RESOLVED,
    RESOLUTION_REQUESTED,
    TURN_ENDED,
    TURN_STARTED,
    Event,
)

JSON = dict[str, Any]
NOW = 5_000


def attack(
    name: str = "Golpe", damage: int = 100, natures: list[str] | None = None, **fields: Any
) -> JSON:
    base: JSON = {"name": name, "tier": 1, "pa": 2, "type": "offensive", "damage": damage}
    return {**base, "natures": natures or ["fisica"], **fields}


def defense(name: str, kind: str, value: int = 0, **fields: Any) -> JSON:
    base: JSON = {"name": name, "tier": 1, "pa": 1, "type": "defensive", "defense_kind": kind}
    return {**base, "natures": ["fisica"], "defense": value, **fields}


def support(name: str, **fields: Any) -> JSON:
    base: JSON = {"name": name, "tier": 1, "pa": 1, "type": "supplementary"}
    return {**base, "natures": ["fisica"], **fields}


def sheet(
    name: str, *skills: JSON, vit: int = 1000, ref: float = 3, vel: float = 6, **more: Any
) -> JSON:
    resistance = more.pop("resistance", 0)
    hardness = more.pop("hardness", None)
    return {
        "name": name,
        "ruleset": "umh",
        "stats": {"vit": vit, "vel": vel, "ref": ref, "vol": 2, "fue": 100, "rank": 2, "vigor": 5},
        "resistance": {"value": resistance, "hardness": hardness},
        "skills": list(skills),
        **more,
    }


@dataclass
class Fight:
    """A combat on the ruleset: ``ana`` attacks, everyone else defends. ``readings`` are the
    community's ``umh.readings`` settings the ``combat.started`` snapshot carries."""

    sheets: dict[str, JSON]
    readings: JSON = field(default_factory=dict)
    state: JSON = field(default_factory=dict)
    last: Decision[JSON] | None = None
    seq: int = 0

    def __post_init__(self) -> None:
        self.ruleset = UmhResolution()
        attackers = [c for c in self.sheets if c == "ana"]
        defenders = [c for c in self.sheets if c != "ana"]
        payload = {
            "combat_id": "c_1",
            "ruleset": "umh",
            "sides": {"attackers": attackers, "defenders": defenders},
            "sheets": self.sheets,
            "settings": {"umh": {"readings": self.readings}},
        }
        decision = self.ruleset.on_combat_started(payload, now_ms=NOW)
        assert decision.state is not None
        self.state = decision.state

    def send(self, event_type: str, payload: JSON) -> list[Event]:
        decision = self.ruleset.on_event(self.state, event_type, payload, now_ms=NOW)
        self.last = decision
        if decision.state is not None:
            self.state = decision.state
        return decision.events

    def hit(self, skill: str, targets: list[str], attacker: str = "ana", **request: Any) -> JSON:
        """One ``resolution.requested``; returns the ``action.resolved`` payload."""
        self.seq += 1
        payload = {
            "action_id": request.pop("action_id", f"a_{self.seq}"),
            "attacker": attacker,
            "skill": skill,
            "targets": targets,
            "round": 1,
            **request,
        }
        events = self.send(RESOLUTION_REQUESTED, payload)
        resolved = [e for e in events if e.type == ACTION_RESOLVED]
        assert len(resolved) == 1, events
        return resolved[0].payload

    def declared(self, *, general: bool = True, interference: bool = False) -> list[Event]:
        self.seq += 1
        payload = {
            "action_id": f"a_d{self.seq}",
            "attacker": "ana",
            "skill": "x",
            "general_action": general,
            "interference": interference,
        }
        return self.send(ACTION_DECLARED, payload)

    def turn(self, actor: str) -> list[Event]:
        return self.send(TURN_STARTED, {"actor": actor})

    def end_turn(self, actor: str) -> list[Event]:
        return self.send(TURN_ENDED, {"actor": actor, "reason": "pass_turn"})

    def who(self, character: str) -> JSON:
        participant: JSON = self.state["participants"][character]
        return participant

    def vit(self, character: str) -> int:
        return int(self.who(character)["vit"])

    def effects(self, character: str, kind: str | None = None) -> list[JSON]:
        return [e for e in self.who(character)["effects"] if kind is None or e["kind"] == kind]

    def events_of(self, event_type: str) -> list[Event]:
        assert self.last is not None
        return [e for e in self.last.events if e.type == event_type]


def result_of(resolved: JSON, target: str) -> JSON:
    rows = [r for r in resolved["results"] if r["target"] == target]
    assert rows, resolved
    row: JSON = rows[-1]
    return row


def step(row: JSON, name: str) -> JSON | None:
    return next((s for s in row["steps"] if s["step"] == name), None)


def one_hit(
    skill: JSON,
    target: JSON,
    reaction: JSON | None = None,
    *,
    attacker: dict[str, Any] | None = None,
    readings: JSON | None = None,
) -> tuple[JSON, Fight]:
    fight = Fight({"ana": sheet("Ana", skill, **(attacker or {})), "bruno": target}, readings or {})
    reactions = {"bruno": reaction} if reaction else {}
    resolved = fight.hit(skill["name"], ["bruno"], reactions=reactions)
    return result_of(resolved, "bruno"), fight


BLOCK = "Bloqueo"
FIELD = "Campo"
DODGE = "Esquiva"


def blocker(value: int, **more: Any) -> JSON:
    return sheet("Bruno", defense(BLOCK, "internal", value), **more)


def fielder(value: int, all_angles: bool = False, **more: Any) -> JSON:
    return sheet("Bruno", defense(FIELD, "external", value, all_angles=all_angles), **more)


def dodger(ref: float, **more: Any) -> JSON:
    return sheet("Bruno", defense(DODGE, "evasion"), ref=ref, **more)


def duel_started(ana: JSON, bruno: JSON | None = None) -> JSON:
    """``combat.started`` of ana (attackers) against bruno (defenders), umh, c_1."""
    return {
        "combat_id": "c_1",
        "ruleset": "umh",
        "sides": {"attackers": ["ana"], "defenders": ["bruno"]},
        "sheets": {"ana": ana, "bruno": bruno or sheet("Bruno")},
        "settings": {},
    }
