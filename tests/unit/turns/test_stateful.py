"""A random referee session: legal and illegal actions, timers and resolutions, in any order.

After every step the invariants of umh turns must hold; a refused input leaves the state
dict untouched, and no function mutates its input.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from shared.domain import Decision
from shared.errors import CATALOGUE, RuleViolation
from shared.payloads import TimerFired

from .builders import (
    ATTACK,
    BLESSING,
    COMBO,
    DEFENSE_KINDS,
    FIELD,
    HEAVY,
    SHIELD,
    T0,
    TURNS,
    WAVE,
    act_cmd,
    action_id,
    attack_opening,
    start_cmd,
    where,
)

CHARACTERS = ["ana", "bruno", "carla"]
# "@..." picks the likely-legal choice, so that random sessions get far into the combat.
ACTORS = ["@current", "@current", "@current", "@reactor", *CHARACTERS, "zoe"]
REACTORS = ["@reactor", "@reactor", "@reactor", "@current", *CHARACTERS]
SKILLS = [ATTACK, ATTACK, ATTACK, HEAVY, FIELD, BLESSING, COMBO, WAVE, *DEFENSE_KINDS, "Nada"]
DEFENSES = [SHIELD, SHIELD, FIELD, ATTACK, *DEFENSE_KINDS, "Nada"]
TARGETS = ["@opponent", "@opponent", "@opponent", *CHARACTERS, "zoe"]
OTHER_ACTIONS: list[dict[str, Any]] = [
    {"type": "move", "to": [1, 1]},
    {"type": "flee"},
    {"type": "join", "side": "defenders", "via": "irrumpir"},
    {"type": "annul", "reason": "test"},
]

State = dict[str, Any]


def snapshot(state: State) -> str:
    """A deep, comparable copy of a JSON-ready state (faster than ``copy.deepcopy``)."""
    return json.dumps(state, sort_keys=True)


class CombatMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.state: State = {}
        self.now = T0
        self.n = 0
        self.armed: set[str] = set()
        self.ever_armed: set[str] = set()
        self.started: dict[int, set[int]] = defaultdict(set)
        self.fired: list[str] = []
        self.settled: list[str] = []

    # --- driving ---------------------------------------------------------------------
    def apply(self, decision: Decision[State], fired: str | None = None) -> None:
        if decision.state is None:
            return
        previous, new = self.state, decision.state
        if fired is not None:
            self.armed.discard(fired)
        for timer_id in decision.cancel:
            assert timer_id in self.armed, timer_id
            self.armed.remove(timer_id)
        for request in decision.arm:
            assert request.timer_id not in self.ever_armed, "timer ids are never reused"
            self.armed.add(request.timer_id)
            self.ever_armed.add(request.timer_id)
        for event in decision.events:
            json.dumps(event.payload)
            if event.type == "turn.started":
                self.started[event.payload["round"]].add(event.payload["index"])
            if event.type == "round.ended":
                self.check_round_complete(previous, new, event.payload["round"])
                assert not any(a["reactions"] for a in new["actions"].values()), "A-100"
        self.state = new

    def check_round_complete(self, previous: State, new: State, number: int) -> None:
        """umh 2.1.3: every own turn of the round happened, unless its actor had fallen."""
        for index, actor in enumerate(previous["turn_order"]):
            fallen = new["participants"][actor]["status"] != "active"
            assert index in self.started[number] or fallen, (number, index, actor)

    def attempt(self, call: Callable[[State], Decision[State]], fired: str | None = None) -> None:
        before = snapshot(self.state)
        try:
            decision = call(self.state)
        except RuleViolation as violation:
            assert violation.code in CATALOGUE
            assert snapshot(self.state) == before, "a refused input changed the state"
            return
        assert snapshot(self.state) == before, "the input state was mutated"
        self.apply(decision, fired)

    def current(self) -> str:
        turn = self.state.get("turn")
        return str(turn["actor"]) if turn else "ana"

    def who(self, name: str) -> str:
        """Resolve the "@..." choices; plain names stay as they are."""
        if name == "@current":
            return self.current()
        if name == "@reactor":
            windows = self.open_windows()
            return windows[0][1] if windows else "bruno"
        if name == "@opponent":
            side = self.state["participants"].get(self.current(), {}).get("side")
            foes = [c for c, p in self.state["participants"].items() if p["side"] != side]
            return foes[0] if foes else "bruno"
        return name

    def open_windows(self) -> list[tuple[str, str]]:
        return [
            (action, reactor)
            for action, v in sorted(self.state["actions"].items())
            for reactor, r in v["reactions"].items()
            if r["status"] == "open"
        ]

    def ready(self) -> list[str]:
        return sorted(a for a, v in self.state["actions"].items() if v["resolution_requested"])

    def act(self, action: dict[str, Any], reuse_id: bool = False) -> None:
        if not reuse_id:
            self.n += 1
        cmd = act_cmd(action, self.n)
        self.attempt(lambda s: TURNS.act(s, cmd, now_ms=self.now))

    def fire(self, timer: TimerFired) -> None:
        self.fired.append(timer.timer_id)
        self.attempt(lambda s: TURNS.on_timer(s, timer, now_ms=self.now), fired=timer.timer_id)

    def resolve(self, action: str, downs: list[str]) -> None:
        self.settled.append(action)
        payload = {
            "action_id": action,
            "attacker": "ana",
            "skill": ATTACK,
            "results": [
                {"target": d, "damage": 10, "vit_before": 10, "vit_after": 0, "down": True}
                for d in downs
            ],
            "downs": downs,
        }
        self.attempt(lambda s: TURNS.on_event(s, "action.resolved", payload, now_ms=self.now))

    # --- rules: a start, then mostly legal moves -------------------------------------
    @initialize(
        defenders=st.sampled_from([1, 2, 2]),
        challenge=st.booleans(),
        vel=st.lists(st.integers(1, 6), min_size=3, max_size=3),
        pa=st.sampled_from([2, 3, 4, 10]),
        skip_to_fighting=st.sampled_from([True, True, True, False]),
    )
    def start(
        self, defenders: int, challenge: bool, vel: list[int], pa: int, skip_to_fighting: bool
    ) -> None:
        names = tuple(CHARACTERS[1 : 1 + defenders])
        opening = {"kind": "challenge"} if challenge and defenders == 1 else attack_opening(*names)
        speeds = dict(zip(CHARACTERS, vel, strict=True))
        cmd = start_cmd(defenders=names, vel=speeds, opening=opening, pa_per_round=pa)
        self.apply(TURNS.start(cmd, **where(self.now)))
        while skip_to_fighting and self.state["phase"] in ("opening", "preparation"):
            if self.ready():
                self.resolve(self.ready()[0], [])
            else:
                self.fire_due(which=0, turns_too=False)

    @precondition(lambda self: self.state["phase"] == "fighting")
    @rule(
        move=st.sampled_from([ATTACK, ATTACK, ATTACK, HEAVY, BLESSING, "pass"]),
        which=st.integers(0, 2),
    )
    def play(self, move: str, which: int) -> None:
        """The current actor passes, or uses a skill on an opponent (maybe a fallen one)."""
        if move == "pass":
            self.act({"type": "pass_turn", "actor": self.current()})
            return
        side = self.state["participants"][self.current()]["side"]
        foes = [c for c, p in self.state["participants"].items() if p["side"] != side]
        target = foes[which % len(foes)]
        self.act({"type": "skill", "actor": self.current(), "skill": move, "targets": [target]})

    @precondition(lambda self: bool(self.open_windows()))
    @rule(skill=st.sampled_from([None, None, SHIELD, FIELD]), which=st.integers(0, 2))
    def defend(self, skill: str | None, which: int) -> None:
        """An open window is answered, with a defense or by taking the hit."""
        windows = self.open_windows()
        action, reactor = windows[which % len(windows)]
        self.act({"type": "react", "actor": reactor, "action_id": action, "skill": skill})

    @precondition(lambda self: bool(self.ready()))
    @rule(fallen=st.sampled_from([None, None, None, None, "target", "target", "attacker"]))
    def settle(self, fallen: str | None) -> None:
        """Resolution answers the oldest request; sometimes its target or attacker falls."""
        action = self.ready()[0]
        settled = self.state["actions"][action]
        downs = {
            None: [],
            "target": settled["targets"][:1],
            "attacker": [settled["attacker"]],
        }[fallen]
        self.resolve(action, downs)

    @precondition(lambda self: bool(self.state["timers"]))
    @rule(which=st.sampled_from([0, 0, 1, 2]), turns_too=st.sampled_from([True, False, False]))
    def fire_due(self, which: int, turns_too: bool) -> None:
        """A timer fires (mostly the earliest); the clock jumps to its due time.

        Turn timers fire a third of the time, so that sessions get past the first turns.
        """
        armed = sorted(self.state["timers"].items(), key=lambda kv: (kv[1]["due_ms"], kv[0]))
        armed = [kv for kv in armed if turns_too or kv[1]["kind"] != "turn"]
        if not armed:
            return
        timer_id, t = armed[which % len(armed)]
        self.now = max(self.now, int(t["due_ms"]))
        self.fire(TimerFired(timer_id=timer_id, kind=t["kind"], due_ms=t["due_ms"], data=t["data"]))

    @rule(seconds=st.integers(1, 400))
    def wait(self, seconds: int) -> None:
        self.now += seconds * 1000

    # --- one rule for random, mostly illegal inputs ---------------------------------
    @rule(data=st.data())
    def noise(self, data: st.DataObject) -> None:
        """A random input, mostly illegal: refused without a change, or harmless."""
        inputs = [
            self.random_skill,
            self.random_react,
            self.random_pass,
            self.unrefereed_action,
            self.stale_timer,
            self.stale_resolution,
        ]
        data.draw(st.sampled_from(inputs))(data)

    def random_skill(self, data: st.DataObject) -> None:
        actor = self.who(data.draw(st.sampled_from(ACTORS)))
        skill = data.draw(st.sampled_from(SKILLS))
        aims = [self.who(t) for t in data.draw(st.lists(st.sampled_from(TARGETS), max_size=2))]
        reuse_id = data.draw(st.booleans()) and self.n > 0
        self.act({"type": "skill", "actor": actor, "skill": skill, "targets": aims}, reuse_id)

    def random_react(self, data: st.DataObject) -> None:
        in_flight = sorted(self.state["actions"])
        known = data.draw(st.booleans())
        action = {
            "type": "react",
            "actor": self.who(data.draw(st.sampled_from(REACTORS))),
            "action_id": in_flight[0] if known and in_flight else action_id(-1),
            "skill": data.draw(st.one_of(st.none(), st.sampled_from(DEFENSES))),
            "resist": data.draw(st.sampled_from([True, False, False])),
        }
        self.act(action)

    def random_pass(self, data: st.DataObject) -> None:
        self.act({"type": "pass_turn", "actor": self.who(data.draw(st.sampled_from(ACTORS)))})

    def unrefereed_action(self, data: st.DataObject) -> None:
        other = data.draw(st.sampled_from(OTHER_ACTIONS))
        self.act({**other, "actor": self.who(data.draw(st.sampled_from(ACTORS)))})

    def stale_timer(self, data: st.DataObject) -> None:
        """A timer fired again (lease lost) or never armed: nothing happens."""
        timer_id = data.draw(st.sampled_from([*self.fired, f"{self.state['id']}:turn:0"]))
        if timer_id in self.state["timers"]:
            return
        before = snapshot(self.state)
        timer = TimerFired(timer_id=timer_id, kind="turn", due_ms=self.now)
        assert TURNS.on_timer(self.state, timer, now_ms=self.now).state is None
        assert snapshot(self.state) == before

    def stale_resolution(self, data: st.DataObject) -> None:
        """A redelivered or unknown ``action.resolved``: nothing happens."""
        action = data.draw(st.sampled_from([*self.settled, action_id(-2)]))
        if action in self.state["actions"]:
            return
        before = snapshot(self.state)
        downs = data.draw(st.lists(st.sampled_from(CHARACTERS), max_size=2))
        payload = {"action_id": action, "results": [], "downs": downs}
        assert TURNS.on_event(self.state, "action.resolved", payload, now_ms=self.now).state is None
        assert snapshot(self.state) == before

    # --- invariants ------------------------------------------------------------------
    @invariant()
    def pa_is_never_negative(self) -> None:
        for p in self.state["participants"].values():
            assert p["pa"] >= 0

    @invariant()
    def exactly_one_current_turn_while_fighting(self) -> None:
        s = self.state
        if s["phase"] != "fighting":
            return
        turn = s["turn"]
        assert turn is not None
        assert s["turn_order"][s["turn_index"]] == turn["actor"]
        assert s["participants"][turn["actor"]]["status"] == "active"
        turn_timers = [tid for tid, t in s["timers"].items() if t["kind"] == "turn"]
        if turn["paused_remaining_ms"] is None:
            assert turn_timers == [turn["timer_id"]]
        else:
            assert turn_timers == [] and turn["timer_id"] is None

    @invariant()
    def every_active_participant_has_a_turn(self) -> None:
        s = self.state
        if s["phase"] != "fighting":
            return
        active = {c for c, p in s["participants"].items() if p["status"] == "active"}
        assert active <= set(s["turn_order"])

    @invariant()
    def decisions_account_for_every_timer(self) -> None:
        assert set(TURNS.timers(self.state)) == self.armed
        if not TURNS.is_active(self.state):
            assert self.armed == set()
            assert self.state["result"] is not None

    @invariant()
    def state_round_trips_through_json(self) -> None:
        again = json.loads(json.dumps(self.state))
        assert again == self.state
        assert TURNS.view(again) == TURNS.view(self.state)


CombatMachine.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# Passing takes a few seconds; shrinking a failure to a short session can take minutes,
# which the suite-wide 120 s timeout would cut short into a confusing FlakyFailure.
TestCombat = pytest.mark.timeout(900)(CombatMachine.TestCase)
