"""services/states: what outlives a combat, one aggregate per character."""

from __future__ import annotations

from typing import Any

from services.states.rulesets import ruleset_named
from shared.domain import Decision, TimerRequest
from shared.keys import Keys
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, COMBATANT_JOINED, Envelope
from shared.runtime import Handler, ServiceSpec, State, Target

SERVICE = "states"


def characters_of(env: Envelope) -> list[str]:
    """The characters a combat event concerns, in a stable order."""
    payload = env.payload
    if env.type == COMBAT_STARTED:
        sides: dict[str, list[str]] = payload.get("sides", {})
        return [c for side in ("attackers", "defenders") for c in sides.get(side, [])]
    if env.type == COMBAT_ENDED:
        return sorted(payload.get("participants", {}))
    if env.type == COMBATANT_JOINED:
        return [str(payload["character"])]
    return []


def on_combat_event(
    env: Envelope, state: State | None, target: Target, now: int
) -> Decision[State]:
    ruleset = ruleset_named(
        str(env.payload.get("ruleset") or (state or {}).get("ruleset") or "umh")
    )
    return ruleset.on_event(state, target.subject, env.type, env.payload, now_ms=now)


HANDLERS: dict[str, Handler] = {
    COMBAT_STARTED: on_combat_event,
    COMBATANT_JOINED: on_combat_event,
    COMBAT_ENDED: on_combat_event,
}


def spec(keys: Keys) -> ServiceSpec:
    def targets(env: Envelope) -> list[Target]:
        return [
            Target(keys.character(SERVICE, env.tenant, character), character)
            for character in characters_of(env)
        ]

    def view(state: State, now: int) -> dict[str, Any]:
        return ruleset_named(str(state.get("ruleset", "umh"))).view(state, now_ms=now)

    def is_active(_state: State) -> bool:
        return False  # no aftermath timers yet

    def armed(_state: State) -> list[TimerRequest]:
        return []

    def expires(_state: State) -> bool:
        return False  # what outlives a combat is kept

    return ServiceSpec(SERVICE, HANDLERS, targets, view, is_active, armed, expires)
