"""The toy ruleset's part in each service (``services/<service>/domain/toy/ruleset.py`` in
real code): pure adapters implementing each service's ``interface.py``."""

from __future__ import annotations

from typing import Any, Literal

from services.states.interface import Context
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.messages import (
    ACTION_RESOLVED,
    COMBAT_ENDED,
    COMBAT_STARTED,
    RESOLUTION_REQUESTED,
    Event,
)
from shared.payloads import (
    ActOnCombat,
    CombatEnded,
    CombatEndedParticipant,
    StartCombat,
    StatesCheck,
    StatesChecked,
    TimerFired,
)
from tests.unit.rulesets.fourth.definition import ToyPoke, ToySettings

State = dict[str, Any]
Side = Literal["attackers", "defenders"]
SIDES: tuple[Side, Side] = ("attackers", "defenders")


class ToyTurns:
    name = "toy"

    def start(self, cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
        points = cmd.settings.ruleset("toy", ToySettings).points
        fighters = [cmd.attacker, *cmd.defenders]
        state = {"ruleset": "toy", "tenant": tenant, "combat_id": cmd.combat_id, "next": 0}
        state["points"] = dict.fromkeys(fighters, points)
        state["fighters"], state["phase"] = fighters, "fighting"
        sides = {"attackers": [cmd.attacker], "defenders": list(cmd.defenders)}
        started = {"ruleset": "toy", "combat_id": cmd.combat_id, "sides": sides}
        return Decision(state, [Event(COMBAT_STARTED, started)])

    def act(self, state: State, cmd: ActOnCombat, *, now_ms: int) -> Decision[State]:
        action = cmd.action
        if not isinstance(action, ToyPoke):
            raise RuleViolation("not_implemented", "toy", type=action.type)
        if action.actor != state["fighters"][state["next"]]:
            raise RuleViolation("toy_not_your_poke", "toy 1")
        asked = {"action_id": cmd.action_id, "actor": action.actor, "target": action.target}
        return Decision(dict(state), [Event(RESOLUTION_REQUESTED, asked)])

    def on_timer(self, state: State, timer: TimerFired, *, now_ms: int) -> Decision[State]:
        return Decision(None)

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        if event_type != ACTION_RESOLVED:
            return Decision(None)
        points = {**state["points"], payload["target"]: payload["points_left"]}
        state = {**state, "points": points, "next": 1 - state["next"]}
        if payload["points_left"] > 0:
            return Decision(state)
        sides: dict[str, Side] = dict(zip(state["fighters"], SIDES, strict=True))
        ended = CombatEnded(
            combat_id=state["combat_id"],
            ruleset="toy",
            winner=sides[payload["actor"]],
            reason="defeat",
            participants={
                c: CombatEndedParticipant(side=side, status="active" if points[c] else "down")
                for c, side in sides.items()
            },
            ended_at_ms=now_ms,
        )
        state = {**state, "phase": "ended"}
        return Decision(state, [Event(COMBAT_ENDED, ended.model_dump(mode="json"))])

    def view(self, state: State) -> dict[str, Any]:
        return {"phase": state["phase"], "points": state["points"]}

    def is_active(self, state: State) -> bool:
        return bool(state["phase"] != "ended")

    def timers(self, state: State) -> dict[str, int]:
        return {}


class ToyResolution:
    name = "toy"

    def on_combat_started(self, payload: dict[str, Any], *, now_ms: int) -> Decision[State]:
        fighters = [c for side in payload["sides"].values() for c in side]
        return Decision({"ruleset": "toy", "points": dict.fromkeys(fighters, 2)})

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        if event_type != RESOLUTION_REQUESTED:
            return Decision(None)
        left = state["points"][payload["target"]] - 1
        resolved = {**payload, "points_left": left}
        state = {**state, "points": {**state["points"], payload["target"]: left}}
        return Decision(state, [Event(ACTION_RESOLVED, resolved)])

    def view(self, state: State) -> dict[str, Any]:
        return {"points": state["points"]}


class ToyAftermath:
    name = "toy"

    def on_event(
        self,
        state: State | None,
        character: str,
        event_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        ended = payload["participants"].get(character, {}) if event_type == COMBAT_ENDED else {}
        if ended.get("status") != "down":
            return Decision(None)
        record = state or {"ruleset": "toy", "defeats": 0}
        return Decision({**record, "defeats": record["defeats"] + 1})

    def on_command(
        self,
        state: State | None,
        character: str,
        command_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        raise RuleViolation("not_implemented", "toy")

    def on_timer(
        self, state: State | None, character: str, timer_id: str, ctx: Context
    ) -> Decision[State]:
        return Decision(None)

    def check(
        self,
        states: dict[str, State | None],
        query: StatesCheck,
        *,
        room: str,
        ended_combats: set[str],
        now_ms: int,
    ) -> StatesChecked:
        return StatesChecked(allowed=True)

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        return {"status": {"defeats": (state or {}).get("defeats", 0)}, "history": []}

    def armed_timers(self, state: State) -> list[TimerRequest]:
        return []
