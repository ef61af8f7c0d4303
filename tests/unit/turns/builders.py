"""Sheets, commands and small drivers for the umh turns tests (pure: no I/O, no clock)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import pytest

from services.turns.umh import UmhTurns
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.messages import derived_id
from shared.payloads import ActOnCombat, StartCombat, TimerFired

T0 = 1_700_000_000_000
COMBAT_ID = "c_" + "ab" * 16
TURNS = UmhTurns()
SECOND = 1000

ATTACK = "Puño"  # offensive, 2 PA
HEAVY = "Meteoro"  # offensive, 9 PA
SHIELD = "Escudo"  # internal defense, 1 PA
FIELD = "Campo"  # external defense, 1 PA
BLESSING = "Bendición"  # supplementary, 1 PA
COMBO = "Ráfaga"  # offensive, 3 hits
WAVE = "Onda"  # offensive area
DEFENSE_KINDS = {
    "Esquiva": "evasion",
    "Previsión": "anticipation",
    "Anulación": "annulment",
    "Réplica": "counter",
    "Espejo": "reflection",
}


def skill(name: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"name": name, "tier": 1, "pa": 1, "type": "offensive"}
    return {**base, "natures": ["fisica"], **fields}


def sheet(name: str, *, vel: float = 5, ruleset: str = "umh") -> dict[str, Any]:
    """A valid umh sheet with every kind of skill the tests need."""
    return {
        "name": name,
        "ruleset": ruleset,
        "stats": {"vit": 1000, "vel": vel, "ref": 3, "vol": 2, "fue": 100, "rank": 2, "vigor": 5},
        "skills": [
            skill(ATTACK, pa=2, damage=100),
            skill(HEAVY, pa=9, damage=900),
            skill(SHIELD, type="defensive", defense_kind="internal", defense=100),
            skill(FIELD, type="defensive", defense_kind="external", defense=100),
            skill(BLESSING, type="supplementary"),
            skill(COMBO, hits=3, damage=50),
            skill(WAVE, area={"shape": "square", "size": 1}, damage=50),
            *(
                skill(n, type="defensive", defense_kind=kind, defense=100)
                for n, kind in DEFENSE_KINDS.items()
            ),
        ],
    }


def start_cmd(
    *,
    attacker: str = "ana",
    defenders: tuple[str, ...] = ("bruno",),
    opening: dict[str, Any] | None = None,
    vel: Mapping[str, float] | None = None,
    positions: dict[str, tuple[int, int]] | None = None,
    sheets: dict[str, dict[str, Any]] | None = None,
    ruleset: str = "umh",
    pa_per_round: int = 10,
) -> StartCombat:
    """A ``combat.start``; a challenge unless ``opening`` says otherwise."""
    speeds = vel or {}
    if sheets is None:
        sheets = {c: sheet(c.title(), vel=speeds.get(c, 5)) for c in (attacker, *defenders)}
    return StartCombat.model_validate(
        {
            "combat_id": COMBAT_ID,
            "ruleset": ruleset,
            "attacker": attacker,
            "defenders": list(defenders),
            "opening": opening or {"kind": "challenge"},
            "positions": positions,
            "sheets": sheets,
            "settings": {"umh": {"pa_per_round": pa_per_round}},
        }
    )


def attack_opening(*targets: str, skill_name: str = ATTACK) -> dict[str, Any]:
    return {"kind": "skill", "skill": skill_name, "targets": list(targets)}


def action_id(n: int | str) -> str:
    return derived_id("a", "test", str(n))


def act_cmd(action: dict[str, Any], n: int | str = 1) -> ActOnCombat:
    return ActOnCombat.model_validate({"action_id": action_id(n), "action": action})


def timer_of(state: dict[str, Any], kind: str) -> str:
    """The id of the only armed timer of ``kind``."""
    ids = [tid for tid, t in state["timers"].items() if t["kind"] == kind]
    assert len(ids) == 1, (kind, state["timers"])
    return str(ids[0])


def fire(state: dict[str, Any], timer_id: str, now_ms: int | None = None) -> Decision[Any]:
    armed = state["timers"].get(timer_id, {"kind": "turn", "due_ms": T0, "data": {}})
    timer = TimerFired(
        timer_id=timer_id, kind=armed["kind"], due_ms=armed["due_ms"], data=armed["data"]
    )
    return TURNS.on_timer(state, timer, now_ms=armed["due_ms"] if now_ms is None else now_ms)


def fire_kind(state: dict[str, Any], kind: str, now_ms: int | None = None) -> Decision[Any]:
    return fire(state, timer_of(state, kind), now_ms)


def types(decision: Decision[Any]) -> list[str]:
    return [e.type for e in decision.events]


def payload(decision: Decision[Any], event_type: str) -> dict[str, Any]:
    found = [e.payload for e in decision.events if e.type == event_type]
    assert len(found) == 1, (event_type, types(decision))
    return found[0]


def new_state(decision: Decision[Any]) -> dict[str, Any]:
    assert decision.state is not None
    state: dict[str, Any] = decision.state
    return state


def fighting(
    *, defenders: tuple[str, ...] = ("bruno",), vel: Mapping[str, float] | None = None
) -> dict[str, Any]:
    """A combat whose preparation round is over: round 1, ``ana`` (the initiator) acts.

    One defender: a challenge. Two: an opening attack that both take, resolved at once.
    """
    if len(defenders) == 1:
        state = new_state(TURNS.start(start_cmd(defenders=defenders, vel=vel), **where(T0)))
        return new_state(fire_kind(state, "preparation"))
    cmd = start_cmd(defenders=defenders, vel=vel, opening=attack_opening(*defenders))
    state = new_state(TURNS.start(cmd, **where(T0)))
    opening = derived_id("a", COMBAT_ID, "opening")
    for n, defender in enumerate(defenders):
        react = {"type": "react", "actor": defender, "action_id": opening, "skill": None}
        state = new_state(act(state, react, T0, n))
    state = new_state(TURNS.on_event(state, "action.resolved", resolved(opening), now_ms=T0))
    return new_state(fire_kind(state, "preparation"))


def where(now_ms: int) -> dict[str, Any]:
    return {"tenant": "t_1", "room": "plaza", "now_ms": now_ms}


def now_of(state: dict[str, Any]) -> int:
    """The time the current turn started (its deadline minus the turn length)."""
    turn = state["turn"]
    return int(turn["deadline_ms"]) - int(state["settings"]["turn_seconds"]) * SECOND


def act(state: dict[str, Any], action: dict[str, Any], now_ms: int, n: int = 1) -> Decision[Any]:
    return TURNS.act(state, act_cmd(action, n), now_ms=now_ms)


def rejects(
    state: dict[str, Any], action: dict[str, Any], now_ms: int | None = None
) -> RuleViolation:
    """The action is refused and the input state is left exactly as it was."""
    before = copy.deepcopy(state)
    when = now_ms if now_ms is not None else T0
    with pytest.raises(RuleViolation) as caught:
        act(state, action, when)
    assert state == before
    return caught.value


def resolved(action: str, *, downs: tuple[str, ...] = ()) -> dict[str, Any]:
    """An ``action.resolved`` payload as resolution sends it."""
    return {
        "action_id": action,
        "attacker": "ana",
        "skill": ATTACK,
        "results": [
            {"target": d, "damage": 1000, "vit_before": 1000, "vit_after": 0, "down": True}
            for d in downs
        ],
        "downs": list(downs),
    }
