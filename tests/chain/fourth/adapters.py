"""The toy ruleset's part in each service (``services/<service>/domain/toy/ruleset.py`` in
real code): pure adapters implementing each service's ``interface.py``."""

from __future__ import annotations

from typing import Any

from services.states.interface import Context
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.messages import (
    ACTION_RESOLVED,
    COMBAT_ENDED,
    COMBAT_STARTED,
    RESOLUTION_REQUESTED,
    TURN_ENDED,
    TURN_STARTED,
    Event,
)
from shared.payloads import (
    ActOnCombat,
    CharacterStatus,
    CombatEnded,
    CombatEndedParticipant,
    StartCombat,
    StatesCheck,
    StatesChecked,
    TimerFired,
)
from shared.vocabulary import SIDES, EndReason, PublicStatus, Side
from tests.chain.fourth.definition import ToyPoke, ToySettings

State = dict[str, Any]


class ToyTurns:
    name = "toy"

    def start(self, cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
        """Two fighters with the settings' points each; the attacker pokes first."""
        points = cmd.settings.ruleset("toy", ToySettings).points
        fighters = [cmd.attacker, *cmd.defenders]
        if len(fighters) != 2:
            raise RuleViolation("invalid_request", "toy", fighters=len(fighters))
        state: State = {"ruleset": "toy", "tenant": tenant, "room": room}
        state["combat_id"] = cmd.combat_id
        state["points"] = dict.fromkeys(fighters, points)
        state["fighters"], state["phase"], state["next"] = fighters, "fighting", 0
        sides = {"attackers": [cmd.attacker], "defenders": list(cmd.defenders)}
        started = {"ruleset": "toy", "combat_id": cmd.combat_id, "sides": sides}
        return Decision(state, [Event(COMBAT_STARTED, started), _turn(state)])

    def act(self, state: State, cmd: ActOnCombat, *, now_ms: int) -> Decision[State]:
        action = cmd.action
        if state["phase"] == "ended":
            raise RuleViolation("combat_ended", "toy")
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
        if payload["points_left"] > 0:  # the turn passes to the other fighter
            ended_turn = Event(TURN_ENDED, {"actor": payload["actor"]})
            return Decision(state, [ended_turn, _turn(state)])
        sides: dict[str, Side] = dict(zip(state["fighters"], SIDES, strict=True))
        ended = CombatEnded(
            combat_id=state["combat_id"],
            ruleset="toy",
            winner=sides[payload["actor"]],
            reason=EndReason.DEFEAT,
            participants={
                c: CombatEndedParticipant(
                    side=side, status=PublicStatus.ACTIVE if points[c] else PublicStatus.DOWN
                )
                for c, side in sides.items()
            },
            ended_at_ms=now_ms,
        )
        state = {**state, "phase": "ended"}
        return Decision(state, [Event(COMBAT_ENDED, ended.model_dump(mode="json"))])

    def view(self, state: State) -> dict[str, Any]:
        """What the gateway reads of any combat (id, tenant, room, ruleset, phase), and the
        toy's own: whose turn, the points left."""
        fighting = state["phase"] == "fighting"
        return {
            "id": state["combat_id"],
            "tenant": state["tenant"],
            "room": state["room"],
            "ruleset": "toy",
            "phase": state["phase"],
            "turn": {"actor": state["fighters"][state["next"]]} if fighting else None,
            "points": state["points"],
        }

    def is_active(self, state: State) -> bool:
        return bool(state["phase"] != "ended")

    def timers(self, state: State) -> dict[str, int]:
        return {}

    def stalled(self, state: State, quiet_ms: int) -> str | None:
        return None  # no clock at all: a toy combat waits for its players, never stalled


def _turn(state: State) -> Event:
    return Event(TURN_STARTED, {"actor": state["fighters"][state["next"]]})


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
        status = CharacterStatus().model_dump(mode="json")
        status["ruleset_status"] = {"toy": {"defeats": (state or {}).get("defeats", 0)}}
        return {"status": status, "history": []}

    def armed_timers(self, state: State) -> list[TimerRequest]:
        return []
