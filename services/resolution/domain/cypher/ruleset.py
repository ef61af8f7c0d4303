"""services/resolution for cypher (seed 001): rolls, difficulty steps, damage, the track.

services/turns keeps each combatant's condition (it decides who may act) and sends it with
every ``resolution.requested``; this service rolls on the combat's ``resolution`` stream,
computes with the pure functions of :mod:`resolve` and answers ``action.resolved`` with
every step and the new conditions. It keeps the sheets and the last conditions it saw.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import TypeAdapter

from services.resolution.domain.cypher import resolve
from services.resolution.interface import ResolutionRuleset, State
from shared.dice.combat import keep_draws, rolled, stream_of
from shared.domain import Decision
from shared.messages import ACTION_RESOLVED, COMBATANT_DOWN, RESOLUTION_REQUESTED, Event
from shared.rulesets.cypher.actions import (
    CypherActions,
    CypherAttack,
    CypherGenericAction,
    CypherInflict,
    CypherMove,
    CypherRecover,
)
from shared.rulesets.cypher.sheet import CypherSheet

ACTIONS: TypeAdapter[Any] = TypeAdapter(CypherActions)


def sheets_of(state: State) -> dict[str, CypherSheet]:
    return {c: CypherSheet.model_validate(s) for c, s in state["sheets"].items()}


def compute(
    action: Any,
    sheets: dict[str, CypherSheet],
    conditions: dict[str, Any],
    stream: Any,
    *,
    literal_low_light: bool,
) -> resolve.Resolved:
    """Dispatch one action to its rule."""
    if isinstance(action, CypherAttack):
        return resolve.resolve_attack(
            action, sheets, conditions, stream, literal_low_light=literal_low_light
        )
    if isinstance(action, CypherGenericAction):
        return resolve.resolve_action(action, sheets, conditions, stream)
    if isinstance(action, CypherMove):
        return resolve.resolve_long_move(action, conditions, stream)
    if isinstance(action, CypherRecover):
        return resolve.resolve_recover(
            action.actor,
            list(action.distribution),
            action.special_damage,
            sheets[action.actor],
            conditions,
            stream,
        )
    if isinstance(action, CypherInflict):
        return resolve.resolve_inflict(action, conditions, stream)
    raise ValueError(f"nothing to resolve for {type(action).__name__}")


class CypherResolution:
    name: str = "cypher"

    def on_combat_started(self, payload: dict[str, Any], *, now_ms: int) -> Decision[State]:
        state: State = {
            "id": payload["combat_id"],
            "ruleset": self.name,
            "sheets": copy.deepcopy(payload.get("sheets", {})),
            "conditions": copy.deepcopy(payload.get("conditions", {})),
        }
        return Decision(state)

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        if event_type != RESOLUTION_REQUESTED:
            return Decision(None)
        action = ACTIONS.validate_python(payload["action"])
        new = copy.deepcopy(state)
        stream = stream_of(new, "resolution")
        done = compute(
            action,
            sheets_of(state),
            payload["conditions"],
            stream,
            literal_low_light=bool(payload.get("literal_low_light", False)),
        )
        keep_draws(new, stream)
        before = {c: v.get("status") for c, v in payload["conditions"].items()}
        new["conditions"] = {**new.get("conditions", {}), **done.conditions}
        events = [rolled(r, roller=who, combat_id=str(state["id"])) for r, who in done.rolls]
        events.append(
            Event(
                ACTION_RESOLVED,
                {
                    "ruleset": self.name,
                    "action_id": payload["action_id"],
                    "attacker": action.actor,
                    "skill": action.type,
                    "round": payload.get("round", 0),
                    **done.payload,
                    "conditions": done.conditions,
                },
            )
        )
        for character, cond in done.conditions.items():
            if cond["status"] == "dead" and before.get(character) != "dead":
                events.append(
                    Event(
                        COMBATANT_DOWN,
                        {
                            "character": character,
                            "action_id": payload["action_id"],
                            "by": action.actor,
                            "cause": "damage",
                        },
                    )
                )
        return Decision(new, events)

    def view(self, state: State) -> dict[str, Any]:
        shown: dict[str, Any] = {}
        for character, cond in state.get("conditions", {}).items():
            effects = []
            if cond.get("dazed_turns"):
                effects.append(
                    {"kind": "state", "type": "dazed", "actions_left": cond["dazed_turns"]}
                )
            if cond.get("stunned"):
                effects.append({"kind": "control", "type": "stunned", "actions_left": 1})
            if cond.get("paralyzed"):
                effects.append({"kind": "control", "type": "paralyzed", "actions_left": None})
            shown[character] = {
                "vit": cond.get("health"),
                "vit_max": cond.get("health_max"),
                "effects": effects,
            }
        return {"participants": shown}


def _conforms() -> ResolutionRuleset:
    return CypherResolution()
