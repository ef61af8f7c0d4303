"""The driver of the stateful test: a random referee session on the pure turns ruleset,
its bookkeeping of timers and turns, and the invariants that must hold after every step."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from hypothesis.stateful import RuleBasedStateMachine, invariant

from shared.domain import Decision
from shared.errors import CATALOGUE, RuleViolation
from shared.payloads import ActOnCombat, TimerFired

from .builders import ATTACK, T0, TURNS, act_cmd

State = dict[str, Any]


def snapshot(state: State) -> str:
    """A deep, comparable copy of a JSON-ready state (faster than ``copy.deepcopy``)."""
    return json.dumps(state, sort_keys=True)


def in_fight(p: dict[str, Any]) -> bool:
    """umh 4.3.3: active, or disconnected within the grace."""
    return bool(p["status"] == "active" or (p["status"] == "disconnected" and not p["grace_over"]))


class Session(RuleBasedStateMachine):
    """Drives the pure turns ruleset and checks its invariants after every step."""

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
        self.effects = 0

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
        """umh 2.1.3: every own turn of the round happened, unless its actor left the fight."""
        for index, actor in enumerate(previous["turn_order"]):
            gone = not in_fight(new["participants"][actor])
            assert index in self.started[number] or gone, (number, index, actor)

    def attempt(self, call: Callable[[State], Decision[State]], fired: str | None = None) -> None:
        before = snapshot(self.state)
        try:
            decision = call(self.state)
        except RuleViolation as violation:
            assert violation.code in CATALOGUE, violation.code
            assert snapshot(self.state) == before, "a refused input changed the state"
            return
        assert snapshot(self.state) == before, "the input state was mutated"
        self.apply(decision, fired)

    def current(self) -> str:
        turn = self.state.get("turn")
        interference = self.state.get("interference")
        if interference:
            return str(interference["holder"])
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
        found = []
        for action, v in sorted(self.state["actions"].items()):
            found += [(action, r) for r, w in v["reactions"].items() if w["status"] == "open"]
            found += [
                (action, v["attacker"]) for w in v["answers"].values() if w["status"] == "open"
            ]
        return found

    def ready(self) -> list[str]:
        return sorted(a for a, v in self.state["actions"].items() if v["resolution_requested"])

    def act(self, action: dict[str, Any], reuse_id: bool = False, **extra: Any) -> None:
        if not reuse_id:
            self.n += 1
        cmd = act_cmd(action, self.n)
        if extra:
            cmd = ActOnCombat.model_validate({**cmd.model_dump(mode="json"), **extra})
        self.attempt(lambda s: TURNS.act(s, cmd, now_ms=self.now))

    def fire(self, timer: TimerFired) -> None:
        self.fired.append(timer.timer_id)
        self.attempt(lambda s: TURNS.on_timer(s, timer, now_ms=self.now), fired=timer.timer_id)

    def event(self, event_type: str, payload: dict[str, Any]) -> None:
        self.attempt(lambda s: TURNS.on_event(s, event_type, payload, now_ms=self.now))

    def resolve(self, action: str, downs: list[str], **more: Any) -> None:
        self.settled.append(action)
        flight = self.state["actions"].get(action, {})
        payload = {
            "action_id": action,
            "attacker": flight.get("attacker", "ana"),
            "skill": flight.get("skill", ATTACK),
            "hit": flight.get("hit", 1),
            "results": [
                {"target": d, "damage": 10, "vit_before": 10, "vit_after": 0, "down": True}
                for d in downs
            ],
            "downs": downs,
            **more,
        }
        self.event("action.resolved", payload)

    # --- invariants ------------------------------------------------------------------
    @invariant()
    def pa_is_never_negative(self) -> None:
        """umh 3.1.1 / 3.1.2 / 1.2.6.2: the round's PA, the bucket and the speed."""
        for p in self.state["participants"].values():
            assert p["pa"] >= 0 and p["bonus_pa"] >= 0
            assert p["pa"] <= self.state["settings"]["pa_per_round"]
            assert p["movement_left"] >= 0

    @invariant()
    def exactly_one_current_turn_while_fighting(self) -> None:
        s = self.state
        if s["phase"] != "fighting":
            assert s["turn"] is None or s["phase"] == "fighting"
            return
        turn = s["turn"]
        assert turn is not None
        assert s["turn_order"][s["turn_index"]] == turn["actor"]
        waiting = any(a["reactions"] or a["answers"] for a in s["actions"].values())
        # umh 2.1.3: a beaten side's end waits for the hit being resolved; the turn stays put
        ending = s.get("end_reason") and any(
            a["resolution_requested"] for a in s["actions"].values()
        )
        assert in_fight(s["participants"][turn["actor"]]) or waiting or ending
        turn_timers = [tid for tid, t in s["timers"].items() if t["kind"] == "turn"]
        if turn["paused_remaining_ms"] is None:
            assert turn_timers == [turn["timer_id"]]
            assert not waiting and s["interference"] is None, "a defense or interference pauses"
        else:
            assert turn_timers == [] and turn["timer_id"] is None

    @invariant()
    def the_order_holds_everyone_still_fighting(self) -> None:
        s = self.state
        if s["phase"] != "fighting":
            return
        fighting = {c for c, p in s["participants"].items() if in_fight(p)}
        assert fighting <= set(s["turn_order"])

    @invariant()
    def sides_never_exceed_their_places(self) -> None:
        """umh 1.2.3 / 1.2.5: places are spent for good and never exceeded."""
        s = self.state
        for side, members in s["sides"].items():
            pending = sum(1 for j in s["pending_joins"].values() if j["side"] == side)
            assert len(members) + pending <= 3 + s["slot_boosts"].get(side, 0)

    @invariant()
    def decisions_account_for_every_timer(self) -> None:
        assert set(TURNS.timers(self.state)) == self.armed
        if not TURNS.is_active(self.state):
            assert self.armed == set()
            assert self.state["result"] is not None

    @invariant()
    def something_always_moves_the_combat_on(self) -> None:
        """Issue 18: a combat that has not ended always has a timer armed or a resolution
        awaited (never ``no_clock``, what the reconciler reports as stalled; read on the dict,
        as ``TURNS.stalled`` would parse the whole state on every step)."""
        s = self.state
        awaited = any(a["resolution_requested"] for a in s["actions"].values())
        assert s["phase"] == "ended" or s["timers"] or awaited, "stalled: nothing moves it on"

    @invariant()
    def state_round_trips_through_json(self) -> None:
        again = json.loads(json.dumps(self.state))
        assert again == self.state
        assert TURNS.view(again) == TURNS.view(self.state)
