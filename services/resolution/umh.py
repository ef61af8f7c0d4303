"""The umh ruleset of services/resolution (seed 000): condition and damage of each hit."""

from __future__ import annotations

from typing import Any

from services.resolution.domain.condition import CombatCondition, condition_at_start
from services.resolution.domain.hit import Reaction
from services.resolution.domain.resolve import ActionRequest, resolve_action
from services.resolution.ruleset import State
from shared.domain import Decision
from shared.messages import RESOLUTION_REQUESTED
from shared.payloads import ResolutionRequested


def action_request(payload: dict[str, Any]) -> ActionRequest:
    """Validate ``resolution.requested`` at the boundary and take its domain form."""
    msg = ResolutionRequested.model_validate(payload)
    return ActionRequest(
        action_id=msg.action_id,
        attacker=msg.attacker,
        skill=msg.skill,
        targets=tuple(msg.targets),
        reactions={
            target: Reaction(skill=choice.skill, resist=choice.resist, timed_out=choice.timed_out)
            for target, choice in msg.reactions.items()
        },
        round=msg.round,
    )


class UmhResolution:
    """:class:`services.resolution.ruleset.ResolutionRuleset` for ``umh``."""

    name: str = "umh"

    def on_combat_started(self, payload: dict[str, Any], *, now_ms: int) -> Decision[State]:
        """umh 1.2.1: every participant enters at full VIT with his sheet's snapshot."""
        return Decision(condition_at_start(payload).to_dict(), [])

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        """``resolution.requested`` resolves the action once; anything else changes nothing.

        Keys the runtime keeps in the state beside the condition (such as ``ended``) are
        carried over unchanged.
        """
        if event_type != RESOLUTION_REQUESTED:
            return Decision(None)
        request = action_request(payload)
        condition = CombatCondition.from_dict(state)
        if condition.has_resolved(request.action_id):
            return Decision(None)
        new_condition, events = resolve_action(condition, request)
        return Decision({**state, **new_condition.to_dict()}, events)

    def view(self, state: State) -> dict[str, Any]:
        """The per-participant part of API.md "Combats": vit, vit_max, effects."""
        condition = CombatCondition.from_dict(state)
        return {
            "participants": {
                cid: {"vit": c.vit, "vit_max": c.vit_max, "effects": [dict(e) for e in c.effects]}
                for cid, c in condition.participants.items()
            }
        }
