"""An in-memory referee for cypher unit tests: the pure turns and resolution rulesets wired
as the bus wires them (``resolution.requested`` -> ``action.resolved``), with a fixed seed."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from services.resolution.domain.cypher.ruleset import CypherResolution
from services.turns.domain.cypher.ruleset import CypherTurns
from shared.dice import combat as combat_dice
from shared.dice.streams import commitment
from shared.domain import Decision
from shared.messages import ACTION_RESOLVED, RESOLUTION_REQUESTED, Event, derived_id
from shared.payloads import ActOnCombat, StartCombat, TimerFired
from shared.rulesets.cypher.conditions import Condition, initial
from shared.rulesets.cypher.sheet import CypherSheet
from shared.vocabulary import Side

SEED = "00" * 32
T0 = 1_700_000_000_000
TURNS = CypherTurns()
RESOLUTION = CypherResolution()

State = dict[str, Any]


def pc(name: str, might: int = 10, speed: int = 10, intellect: int = 10, **fields: Any) -> State:
    sheet: State = {
        "name": name,
        "ruleset": "cypher",
        "kind": "pc",
        "pools": {"might": might, "speed": speed, "intellect": intellect},
        "attacks": [
            {"name": "Espada", "damage": 4, "kind": "melee", "weapon": "slashing"},
            {"name": "Arco", "damage": 3, "kind": "ranged", "range": "long", "ranged_kind": "bow"},
        ],
    }
    sheet.update(fields)
    return sheet


def npc(name: str, level: int = 3, health: int = 9, **fields: Any) -> State:
    sheet: State = {
        "name": name,
        "ruleset": "cypher",
        "kind": "npc",
        "level": level,
        "health": health,
        "attacks": [{"name": "Garra", "damage": 3, "kind": "melee"}],
    }
    sheet.update(fields)
    return sheet


def start_cmd(
    sheets: dict[str, State], attacker: str, defenders: list[str], turn_seconds: int = 300
) -> StartCombat:
    return StartCombat.model_validate(
        {
            "combat_id": "c_test",
            "ruleset": "cypher",
            "attacker": attacker,
            "defenders": defenders,
            "opening": {"kind": "challenge"},
            "sheets": sheets,
            "settings": {"timers": {"turn_seconds": turn_seconds}},
            "dice": {"seed": SEED, "commitment": commitment(SEED), "draws": {}},
        }
    )


@dataclass
class Referee:
    """Turns and resolution states, every event in order, the clock."""

    turns: State = field(default_factory=dict)
    resolution: State = field(default_factory=dict)
    log: list[Event] = field(default_factory=list)
    now: int = T0
    n: int = 0

    @classmethod
    def start(cls, sheets: dict[str, State], attacker: str, defenders: list[str]) -> Referee:
        ref = cls()
        decision = TURNS.start(
            start_cmd(sheets, attacker, defenders), tenant="t", room="r", now_ms=T0
        )
        decision = combat_dice.carried(None, decision)
        assert decision.state is not None
        ref.turns = decision.state
        started = next(e for e in decision.events if e.type == "combat.started")
        res = RESOLUTION.on_combat_started(started.payload, now_ms=T0).state
        assert res is not None
        ref.resolution = {**res, "dice": combat_dice.known(SEED)}
        ref.pump(decision.events)
        return ref

    def pump(self, events: list[Event]) -> None:
        queue = list(events)
        while queue:
            event = queue.pop(0)
            self.log.append(event)
            if event.type == RESOLUTION_REQUESTED:
                d = RESOLUTION.on_event(self.resolution, event.type, event.payload, now_ms=self.now)
                d = combat_dice.carried(self.resolution, d)
                if d.state is not None:
                    self.resolution = d.state
                queue += d.events
            elif event.type == ACTION_RESOLVED:
                d = TURNS.on_event(self.turns, event.type, event.payload, now_ms=self.now)
                d = combat_dice.carried(self.turns, d)
                if d.state is not None:
                    self.turns = d.state
                queue += d.events

    def act(self, action: State, *, moderator: bool = False) -> Decision[State]:
        self.n += 1
        cmd = ActOnCombat.model_validate(
            {
                "action_id": derived_id("a", "t", str(self.n)),
                "action": action,
                "moderator": moderator,
            }
        )
        d = TURNS.act(copy.deepcopy(self.turns), cmd, now_ms=self.now)
        d = combat_dice.carried(self.turns, d)
        if d.state is not None:
            self.turns = d.state
        self.pump(d.events)
        return d

    def fire_turn_timer(self) -> None:
        tid, timer = next((k, v) for k, v in self.turns["timers"].items() if v["kind"] == "turn")
        self.now = int(timer["due_ms"])
        fired = TimerFired(timer_id=tid, kind="turn", due_ms=self.now, data=timer["data"])
        d = combat_dice.carried(self.turns, TURNS.on_timer(self.turns, fired, now_ms=self.now))
        if d.state is not None:
            self.turns = d.state
        self.pump(d.events)

    @property
    def actor(self) -> str:
        turn = self.turns["turn"]
        assert turn is not None
        return str(turn["actor"])

    def part(self, character: str) -> State:
        return dict(self.turns["participants"][character])

    def of_type(self, event_type: str) -> list[State]:
        return [e.payload for e in self.log if e.type == event_type]

    def last(self, event_type: str) -> State:
        return self.of_type(event_type)[-1]


class Fixed:
    """A dice stream that answers the given faces in order (a vector's "rolls 13")."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, sides: int) -> int:
        face = self.faces.pop(0)
        assert 1 <= face <= sides, (face, sides)
        return face


def condition(sheet: State, side: str = "attackers", **changes: Any) -> Condition:
    """The condition a sheet starts with, changed (pools, special steps...), track refreshed."""
    cond = initial(CypherSheet.model_validate(sheet), Side(side))
    changed = Condition.parse({**cond.to_dict(), **changes})
    changed.refresh()
    return changed
