"""services/turns' part of the toy ruleset: who acts, and when the combat ends."""

from __future__ import annotations

from typing import Any

from shared.actions import SkillAction
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.messages import (
    ACTION_DECLARED,
    ACTION_RESOLVED,
    COMBAT_ENDED,
    COMBAT_STARTED,
    RESOLUTION_REQUESTED,
    TURN_ENDED,
    TURN_STARTED,
    Event,
)
from shared.payloads import ActOnCombat, StartCombat, TimerFired
from tests.chain.toy import ATTACK, HP, NAME

State = dict[str, Any]


class ToyTurns:
    name: str = NAME

    def start(self, cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
        """toy 1: two fighters, the attacker acts first."""
        fighters = [cmd.attacker, *cmd.defenders]
        if len(fighters) != 2:
            raise RuleViolation("invalid_request", "toy 1", fighters=len(fighters))
        hp = {c: int(cmd.sheets[c].get("hp", HP)) for c in fighters}
        state: State = {"ruleset": NAME, "id": cmd.combat_id, "tenant": tenant, "room": room}
        state |= {"fighters": fighters, "hp": hp, "actor": 0, "round": 1, "result": None}
        state |= {"pending": None, "timers": {}}
        started = {
            "combat_id": cmd.combat_id,
            "ruleset": NAME,
            "sides": {"attackers": [cmd.attacker], "defenders": list(cmd.defenders)},
            "sheets": cmd.sheets,
        }
        events = [Event(COMBAT_STARTED, started), self._turn_started(state)]
        return Decision(state, events)

    def act(self, state: State, cmd: ActOnCombat, *, now_ms: int) -> Decision[State]:
        """toy 2: the fighter whose turn it is attacks the other one, once a turn."""
        action = cmd.action
        if state["result"] is not None:
            raise RuleViolation("combat_ended", "toy 4")
        if not isinstance(action, SkillAction) or action.skill != ATTACK:
            raise RuleViolation("unknown_skill", "toy 2", skill=getattr(action, "skill", None))
        actor = state["fighters"][state["actor"]]
        if action.actor != actor or state["pending"] is not None:
            raise RuleViolation("not_your_turn", "toy 3", actor=action.actor)
        target = state["fighters"][1 - state["actor"]]
        fields = {"combat_id": state["id"], "action_id": cmd.action_id, "attacker": actor}
        declared = Event(ACTION_DECLARED, {**fields, "skill": ATTACK, "targets": [target]})
        requested = Event(RESOLUTION_REQUESTED, {**fields, "target": target})
        return Decision({**state, "pending": cmd.action_id}, [declared, requested])

    def on_timer(self, state: State, timer: TimerFired, *, now_ms: int) -> Decision[State]:
        return Decision(None)  # the toy arms no timers

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        """toy 3 / toy 4: after a hit the turn passes, unless the target is down."""
        if event_type != ACTION_RESOLVED or payload.get("action_id") != state["pending"]:
            return Decision(None)
        (result,) = payload["results"]
        hp = {**state["hp"], result["target"]: result["vit_after"]}
        actor = state["fighters"][state["actor"]]
        new = {**state, "hp": hp, "pending": None}
        if result["down"]:
            outcome = {"winner": "attackers" if state["actor"] == 0 else "defenders"}
            new["result"] = {**outcome, "reason": "defeat"}
            sides = ("attackers", "defenders")
            ended = {
                "combat_id": state["id"],
                "ruleset": NAME,
                **new["result"],
                "participants": {c: {"side": sides[i]} for i, c in enumerate(state["fighters"])},
            }
            return Decision(new, [Event(COMBAT_ENDED, ended)])
        new["actor"] = 1 - state["actor"]
        new["round"] = state["round"] + state["actor"]
        ended_turn = Event(TURN_ENDED, {"combat_id": state["id"], "actor": actor})
        return Decision(new, [ended_turn, self._turn_started(new)])

    def view(self, state: State) -> dict[str, Any]:
        ended = state["result"] is not None
        sides = ("attackers", "defenders")
        return {
            "id": state["id"],
            "tenant": state["tenant"],
            "room": state["room"],
            "ruleset": NAME,
            "phase": "ended" if ended else "fighting",
            "round": state["round"],
            "turn": None if ended else {"actor": state["fighters"][state["actor"]]},
            "result": state["result"],
            "participants": {c: {"side": sides[i]} for i, c in enumerate(state["fighters"])},
        }

    def is_active(self, state: State) -> bool:
        return state["result"] is None

    def timers(self, state: State) -> dict[str, int]:
        return {}

    @staticmethod
    def _turn_started(state: State) -> Event:
        actor = state["fighters"][state["actor"]]
        return Event(
            TURN_STARTED, {"combat_id": state["id"], "actor": actor, "round": state["round"]}
        )
