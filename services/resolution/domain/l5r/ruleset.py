"""services/resolution for l5r (seed 004): rolls and resolves each attack that services/turns
requests (``strike``) on the combat's "resolution" stream, and answers ``action.resolved``.

services/turns owns the combatants' condition (wounds, Void, stances) and sends, with each
request, everything the roll needs (the target's wounds and wound table, the TN built step
by step); this service keeps only the dice and which actions it resolved (idempotency), in
an :class:`L5rResolutionState` parsed once per input and dumped once.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field

from services.resolution.domain.l5r.request import StrikeRequest
from services.resolution.domain.l5r.strike import strike
from services.resolution.interface import ResolutionRuleset, State
from shared.dice.combat import Dice, rolled
from shared.domain import Decision
from shared.messages import ACTION_RESOLVED, RESOLUTION_REQUESTED, Event

RESOLVED_KEPT: Final = 200
"""How many resolved action ids are remembered (a redelivered request is dropped)."""


class L5rResolutionState(BaseModel):
    """The dice and the actions already resolved; keys the platform keeps beside (``ended``)
    stay."""

    model_config = ConfigDict(extra="allow")

    ruleset: str = "l5r"
    combat_id: str | None = None
    resolved: list[str] = Field(default_factory=list)
    dice: Dice | None = None

    def to_dict(self) -> dict[str, Any]:
        data = self.model_dump(mode="json")
        if data.get("dice") is None:
            data.pop("dice", None)
        return data


class L5rResolution:
    name: str = "l5r"

    def on_combat_started(self, payload: dict[str, Any], *, now_ms: int) -> Decision[State]:
        state = L5rResolutionState(combat_id=payload.get("combat_id"))
        return Decision(state.to_dict())

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        """``resolution.requested`` of an l5r attack, once: the strike on the combat's
        ``resolution`` stream; ``dice.rolled`` for each roll, then ``action.resolved``."""
        if event_type != RESOLUTION_REQUESTED or payload.get("ruleset") != "l5r":
            return Decision(None)
        combat = L5rResolutionState.model_validate(state)
        request = StrikeRequest.model_validate(payload)
        if request.action_id in combat.resolved:
            return Decision(None)
        combat.resolved = [*combat.resolved[-(RESOLVED_KEPT - 1) :], request.action_id]
        assert combat.dice is not None, "the handler puts the combat's dice in its state"
        stream = combat.dice.stream("resolution")
        struck = strike(request, stream)
        combat.dice.keep(stream)
        combat_id = combat.combat_id or ""
        events = [
            rolled(r, roller=who, combat_id=combat_id, action_id=request.action_id)
            for r, who in struck.rolls
        ]
        events.append(Event(ACTION_RESOLVED, struck.payload))
        return Decision(combat.to_dict(), events)

    def view(self, state: State) -> dict[str, Any]:
        return {"participants": {}}


def _conforms() -> ResolutionRuleset:
    return L5rResolution()
