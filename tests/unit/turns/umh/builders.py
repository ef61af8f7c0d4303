"""Sheets, commands and small drivers for the umh turns tests (pure: no I/O, no clock)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import pytest

from services.turns.domain.umh.ruleset import UmhTurns
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
AEGIS = "Égida"  # external defense that covers allies (umh 8.1.1.3.1)
CLASH = "Choque"  # a melee counterattack (umh 8.2.4.4: not reactable)
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
JAB = "Jab"  # offensive, 1 PA (umh 3.4)
WINK = "Guiño"  # supplementary, 0 PA (umh 3.3)
SLASH = "Tajo"  # offensive, 2 PA, cooldown 2 rounds (umh 2.3.4)
TWICE = "Doble"  # offensive, 1 PA, twice per round (umh 2.3.1.3)
WEEKLY = "Semanal"  # supplementary, once a week (umh 2.3.4.2)
RUN = "Huida"  # a flight skill with its own cooldown (umh 4.1.1.1)
PORTAL = "Portal"  # a teleporting flight skill (umh 7.1.1.1)
RALLY = "Refuerzo"  # raises the side's slots by 1 (umh 1.2.3)
ENTRY = "Entrada"  # an entry skill (umh 1.2.4.1)
ORDER = "Orden"  # grants a free interference turn (umh 2.5.3.1)
COMMAND = "Mando"  # grants a predetermined interference turn: Puño (umh 2.5.3.2)
FLY = "Vuelo"  # sets the user's height to voladora (umh 10.1)
SHOUT = "Grito"  # offensive, needs the voice (umh 11.5.8)
MIND = "Telepatía"  # offensive, telepathic (umh 11.4.2)
LEAP = "Salto"  # an evasion that needs the legs (umh 11.5.1)
FORESIGHT = "Presagio"  # an anticipation with 2 uses per combat (umh 2.3.4.1)
QUICK = "Reflejo"  # supplementary, usable out of turn (umh 2.4.1)
READY_UP = "Preparar"  # supplementary, usable in the preparation round (umh 1.3.3)


def skill(name: str, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"name": name, "tier": 1, "pa": 1, "type": "offensive"}
    return {**base, "natures": ["fisica"], **fields}


def join_cmd(
    joiner: str,
    side: str = "defenders",
    via: str = "irrumpir",
    *,
    n: int | str = "join",
    skill_name: str | None = None,
    vel: float = 5,
    weekly: dict[str, int] | None = None,
    square: tuple[int, int] | None = None,
) -> ActOnCombat:
    """A ``join`` with the joiner's sheet snapshot, as the gateway sends it."""
    action: dict[str, Any] = {"type": "join", "actor": joiner, "side": side, "via": via}
    if skill_name is not None:
        action["skill"] = skill_name
    if square is not None:
        action["square"] = list(square)
    return ActOnCombat.model_validate(
        {
            "action_id": action_id(f"{n}-{joiner}"),
            "action": action,
            "sheet": sheet(joiner.title(), vel=vel),
            "weekly_uses": weekly or {},
        }
    )


def joined(state: dict[str, Any], cmd: ActOnCombat, now_ms: int) -> Decision[Any]:
    return TURNS.act(state, cmd, now_ms=now_ms)


def passes(state: dict[str, Any], actor: str, now_ms: int, n: int | str = "pass") -> dict[str, Any]:
    """``actor`` passes his turn (umh 2.3.3)."""
    action = {"type": "pass_turn", "actor": actor}
    return new_state(TURNS.act(state, act_cmd(action, f"{n}-{actor}"), now_ms=now_ms))


def play_round(state: dict[str, Any], now_ms: int, n: int | str = "r") -> dict[str, Any]:
    """Every turn left in this round passes (umh 2.3.3): the next round starts."""
    start = state["round"]
    i = 0
    while state["phase"] == "fighting" and state["round"] == start:
        i += 1
        state = passes(state, state["turn"]["actor"], now_ms, f"{n}-{start}-{i}")
    return state


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
            skill(
                AEGIS, type="defensive", defense_kind="external", defense=100, covers_allies=True
            ),
            skill(CLASH, type="defensive", defense_kind="counter", defense=300, melee=True),
            skill(BLESSING, type="supplementary"),
            skill(COMBO, hits=3, damage=50),
            skill(WAVE, area={"shape": "square", "size": 1}, damage=50),
            *(
                skill(n, type="defensive", defense_kind=kind, defense=100, damage=50)
                for n, kind in DEFENSE_KINDS.items()
            ),
            skill(JAB, pa=1, damage=10),
            skill(WINK, pa=0, type="supplementary"),
            skill(SLASH, pa=2, damage=100, cooldown_rounds=2),
            skill(TWICE, pa=1, damage=10, uses_per_round=2),
            skill(WEEKLY, type="supplementary", uses_per_week=1),
            skill(RUN, type="supplementary", flight=True, flight_cooldown_hours=24),
            skill(PORTAL, type="supplementary", flight=True, natures=["teletransportadora"]),
            skill(RALLY, type="supplementary", raises_slots=1),
            skill(ENTRY, type="supplementary", joins_combat=True),
            skill(ORDER, type="supplementary", grants_interference="free"),
            skill(
                COMMAND,
                type="supplementary",
                grants_interference="predetermined",
                interference_skill=ATTACK,
            ),
            skill(FLY, type="supplementary", sets_position="voladora"),
            skill(SHOUT, damage=10, speech=True),
            skill(MIND, damage=10, telepathic=True, natures=["psionica"]),
            skill(LEAP, type="defensive", defense_kind="evasion", needs_legs=True),
            skill(FORESIGHT, type="defensive", defense_kind="anticipation", uses_per_combat=2),
            skill(QUICK, type="supplementary", out_of_turn=True),
            skill(READY_UP, type="supplementary", preparation=True),
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
    prisoner: bool = False,
    weekly_uses: dict[str, dict[str, int]] | None = None,
    settings: dict[str, Any] | None = None,
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
            "settings": settings or {"umh": {"pa_per_round": pa_per_round}},
            "prisoner_challenge": prisoner,
            "weekly_uses": weekly_uses or {},
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
    *,
    defenders: tuple[str, ...] = ("bruno",),
    vel: Mapping[str, float] | None = None,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A combat whose preparation round is over: round 1, ``ana`` (the initiator) acts.

    One defender: a challenge. Two: an opening attack that both take, resolved at once.
    ``settings``: the community settings the combat starts with (see :func:`start_cmd`).
    """
    if len(defenders) == 1:
        cmd = start_cmd(defenders=defenders, vel=vel, settings=settings)
        state = new_state(TURNS.start(cmd, **where(T0)))
        return new_state(fire_kind(state, "preparation"))
    cmd = start_cmd(
        defenders=defenders, vel=vel, opening=attack_opening(*defenders), settings=settings
    )
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


def act(
    state: dict[str, Any], action: dict[str, Any], now_ms: int, n: int | str = 1
) -> Decision[Any]:
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


def settle(state: dict[str, Any], now_ms: int) -> dict[str, Any]:
    """Every open window times out and every requested resolution comes back (no damage)."""
    for timer_id, timer in list(state["timers"].items()):
        if timer["kind"] in ("defense", "answer") and timer_id in state["timers"]:
            state = new_state(fire(state, timer_id, now_ms))
    for aid, flight in list(state["actions"].items()):
        if flight["resolution_requested"]:
            answer = {**resolved(aid), "attacker": flight["attacker"], "skill": flight["skill"]}
            state = new_state(TURNS.on_event(state, "action.resolved", answer, now_ms=now_ms))
    return state


STOPPERS = ("anticipation", "annulment", "reflection")


def without_stoppers(state: dict[str, Any], who: str = "bruno") -> dict[str, Any]:
    """``who`` no longer holds a skill able to stop a supplementary one (umh 8.2.2.2,
    8.2.3.1), so nobody gets a window on it."""
    skills = state["participants"][who]["skills"]
    for key in [k for k, s in skills.items() if s["defense_kind"] in STOPPERS]:
        del skills[key]
    return state


def use(
    state: dict[str, Any],
    actor: str,
    skill_name: str,
    now_ms: int,
    n: int | str,
    targets: tuple[str, ...] = (),
) -> dict[str, Any]:
    """``actor`` uses a skill; its windows time out and it resolves with no damage."""
    action = {"type": "skill", "actor": actor, "skill": skill_name, "targets": list(targets)}
    return settle(new_state(act(state, action, now_ms, n=n)), now_ms)
