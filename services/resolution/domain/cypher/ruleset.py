"""services/resolution for cypher (seed 001): rolls, difficulty steps, damage, the track.

services/turns keeps each combatant's condition (it decides who may act) and sends it with
every ``resolution.requested``; this service rolls on the combat's ``resolution`` stream,
computes with the pure functions of :mod:`resolve` and answers ``action.resolved`` with
every step and the new conditions. It keeps the sheets and the last conditions it saw
(:class:`CypherResolutionState`, parsed once per input and dumped once).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_serializer

from services.resolution.domain.cypher import resolve
from services.resolution.interface import ResolutionRuleset, State
from shared.dice.combat import Dice, rolled
from shared.dice.streams import Stream
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
from shared.rulesets.cypher.conditions import Condition, Status, conditions_of, dumped
from shared.rulesets.cypher.sheet import CypherSheet

ACTIONS: TypeAdapter[Any] = TypeAdapter(CypherActions)


class CypherResolutionState(BaseModel):
    """What resolution keeps of a cypher combat: the sheets' snapshot and the conditions it
    last computed; keys the platform keeps beside them (``dice``, ``ended``) stay."""

    model_config = ConfigDict(extra="allow")

    id: str
    ruleset: str = "cypher"
    sheets: dict[str, CypherSheet] = Field(default_factory=dict)
    conditions: dict[str, Condition] = Field(default_factory=dict)
    dice: Dice | None = None

    @field_serializer("sheets")
    def _sheets_as_given(self, sheets: dict[str, CypherSheet]) -> dict[str, Any]:
        return {character: sheet.as_given() for character, sheet in sheets.items()}

    def to_dict(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        if data.get("dice") is None:
            data.pop("dice", None)
        return data


def compute(
    action: Any,
    sheets: dict[str, CypherSheet],
    conditions: dict[str, Condition],
    stream: Stream,
    *,
    literal_low_light: bool,
    declared: dict[str, Any] | None = None,
) -> resolve.Resolved:
    """Dispatch one action to its rule (``declared``: what turns adds to an attack: the
    target's defense Effort, the attacker's GM intrusion)."""
    if isinstance(action, CypherAttack):
        said = declared or {}
        effort = said.get("defense_effort") or {}
        return resolve.resolve_attack(
            action,
            sheets,
            conditions,
            stream,
            literal_low_light=literal_low_light,
            defense_effort=int(effort.get(action.target, 0)),
            intrusion=bool(said.get("intrusion")),
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


def downs(
    before: dict[str, Condition], done: resolve.Resolved, action_id: str, by: str
) -> list[Event]:
    """``combatant.down`` for each one this action killed (001 INDICADOR muerto)."""
    return [
        Event(
            COMBATANT_DOWN,
            {"character": character, "action_id": action_id, "by": by, "cause": "damage"},
        )
        for character, cond in done.conditions.items()
        if cond.status == Status.DEAD and before[character].status != Status.DEAD
    ]


def resolved(
    state: CypherResolutionState, payload: dict[str, Any]
) -> tuple[CypherResolutionState, list[Event]]:
    """``resolution.requested``: the action computed on the conditions turns sent, on the
    combat's ``resolution`` stream; ``dice.rolled``, ``action.resolved``, then the downs."""
    action = ACTIONS.validate_python(payload["action"])
    assert state.dice is not None, "the handler puts the combat's dice in its state"
    stream = state.dice.stream("resolution")
    before = conditions_of(payload["conditions"])
    done = compute(
        action,
        state.sheets,
        before,
        stream,
        literal_low_light=bool(payload.get("literal_low_light", False)),
        declared=payload,
    )
    state.dice.keep(stream)
    state.conditions = {**state.conditions, **done.conditions}
    action_id = str(payload["action_id"])
    events = [
        rolled(r, roller=who, combat_id=state.id, action_id=action_id) for r, who in done.rolls
    ]
    body = {
        "ruleset": "cypher",
        "action_id": payload["action_id"],
        "attacker": action.actor,
        "skill": action.type,
        "round": payload.get("round", 0),
        **done.payload,
        "conditions": dumped(done.conditions),
    }
    events.append(Event(ACTION_RESOLVED, body))
    return state, events + downs(before, done, str(payload["action_id"]), action.actor)


def effects_view(cond: Condition) -> list[dict[str, Any]]:
    """docs/api.md effects of a cypher combatant: dazed (B-18), stunned (B-15), paralysed."""
    effects: list[dict[str, Any]] = []
    if cond.dazed_turns:
        effects.append({"kind": "state", "type": "dazed", "actions_left": cond.dazed_turns})
    if cond.stunned:
        effects.append({"kind": "control", "type": "stunned", "actions_left": 1})
    if cond.paralyzed:
        effects.append({"kind": "control", "type": "paralyzed", "actions_left": None})
    return effects


class CypherResolution:
    name: str = "cypher"

    def on_combat_started(self, payload: dict[str, Any], *, now_ms: int) -> Decision[State]:
        state = CypherResolutionState(
            id=payload["combat_id"],
            sheets={c: CypherSheet.model_validate(s) for c, s in payload.get("sheets", {}).items()},
            conditions=conditions_of(payload.get("conditions", {})),
        )
        return Decision(state.to_dict())

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        if event_type != RESOLUTION_REQUESTED:
            return Decision(None)
        new, events = resolved(CypherResolutionState.model_validate(state), payload)
        return Decision(new.to_dict(), events)

    def view(self, state: State) -> dict[str, Any]:
        conditions = CypherResolutionState.model_validate(state).conditions
        shown = {
            character: {"vit": c.health, "vit_max": c.health_max, "effects": effects_view(c)}
            for character, c in conditions.items()
        }
        return {"participants": shown}


def _conforms() -> ResolutionRuleset:
    return CypherResolution()
