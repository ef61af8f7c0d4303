"""services/states: what outlives a combat, one aggregate per character."""

from __future__ import annotations

import json
from typing import Any

from services.states.rulesets import ruleset_named
from shared.domain import Decision, TimerRequest
from shared.keys import Keys
from shared.messages import (
    ACTION_DECLARED,
    COMBAT_ENDED,
    COMBAT_STARTED,
    COMBATANT_FLED,
    COMBATANT_JOINED,
    EFFECT_APPLIED,
    QUERY_STATES_CHECK,
    Envelope,
)
from shared.payloads import StatesCheck
from shared.runtime import Handler, QueryContext, ServiceSpec, State, Target

SERVICE = "states"


def characters_of(env: Envelope) -> list[str]:
    """The characters a combat event (or a check) concerns, in a stable order."""
    payload = env.payload
    if env.type == QUERY_STATES_CHECK:
        return list(dict.fromkeys(str(c) for c in payload.get("characters", [])))
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


async def on_states_check(
    env: Envelope, states: dict[str, State | None], ctx: QueryContext, now: int
) -> dict[str, Any]:
    """``states.check``: answered from the characters' records. A combat they are marked in
    may have ended already without this service having applied its end yet: the combat's
    published read model (turns' view) tells."""
    query = StatesCheck.model_validate(env.payload)
    marked = {str(s["in_combat"]) for s in states.values() if s and s.get("in_combat")}
    ended: set[str] = set()
    for combat_id in marked:
        raw = await ctx.redis.get(ctx.keys.combat("turns", combat_id).view_of("turns"))
        if raw is None or json.loads(raw).get("phase") == "ended":
            ended.add(combat_id)
    ruleset = ruleset_named("umh")
    answer = ruleset.check(states, query, ended_combats=ended, now_ms=now)
    return answer.model_dump(mode="json")


HANDLERS: dict[str, Handler] = {
    COMBAT_STARTED: on_combat_event,
    COMBATANT_JOINED: on_combat_event,
    COMBAT_ENDED: on_combat_event,
    COMBATANT_FLED: on_combat_event,
    ACTION_DECLARED: on_combat_event,
    EFFECT_APPLIED: on_combat_event,
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

    return ServiceSpec(
        SERVICE,
        HANDLERS,
        targets,
        view,
        is_active,
        armed,
        expires,
        queries={QUERY_STATES_CHECK: on_states_check},
    )
