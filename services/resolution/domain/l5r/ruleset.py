"""services/resolution for l5r (seed 004): rolls and resolves each attack that services/turns
requests (``strike``) on the combat's "resolution" stream, and answers ``action.resolved``.

services/turns owns the combatants' condition (wounds, Void, stances) and sends, with each
request, everything the roll needs (the target's wounds and wound table, the TN built step
by step); this service keeps only the dice and which actions it resolved (idempotency).
"""

from __future__ import annotations

from typing import Any

from services.resolution.domain.l5r.strike import strike
from services.resolution.interface import ResolutionRuleset, State
from shared.dice.combat import keep_draws, rolled, stream_of
from shared.domain import Decision
from shared.messages import ACTION_RESOLVED, RESOLUTION_REQUESTED, Event


class L5rResolution:
    name: str = "l5r"

    def on_combat_started(self, payload: dict[str, Any], *, now_ms: int) -> Decision[State]:
        return Decision({"ruleset": "l5r", "combat_id": payload.get("combat_id"), "resolved": []})

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        if event_type != RESOLUTION_REQUESTED or payload.get("ruleset") != "l5r":
            return Decision(None)
        action_id = str(payload["action_id"])
        if action_id in state.get("resolved", []):
            return Decision(None)
        new = {**state, "resolved": [*state.get("resolved", [])[-199:], action_id]}
        new["dice"] = {**state["dice"], "draws": dict(state["dice"]["draws"])}
        stream = stream_of(new, "resolution")
        struck = strike(payload, stream)
        keep_draws(new, stream)
        combat_id = str(state.get("combat_id") or "")
        events = [rolled(r, roller=who, combat_id=combat_id) for r, who in struck.rolls]
        events.append(Event(ACTION_RESOLVED, struck.payload))
        return Decision(new, events)

    def view(self, state: State) -> dict[str, Any]:
        return {"participants": {}}


def _conforms() -> ResolutionRuleset:
    return L5rResolution()
