"""services/states: what outlives a combat, one aggregate per character.

A message concerning several characters commits each of them (:func:`characters_of`);
gateway commands and timers concern one. Every wall-clock state is a timer armed with the
record, so the reconciler re-arms what the record expects (``is_active`` / ``armed``).
"""

from __future__ import annotations

from typing import Any

from services.states.interface import Context
from services.states.registry import ruleset_named
from shared.domain import Decision, TimerRequest
from shared.keys import Keys
from shared.messages import (
    ACTION_DECLARED,
    CMD_CHARACTER,
    CMD_MODERATE,
    CMD_POST_COMBAT,
    CMD_REQUIREMENT,
    CMD_TIMER_FIRED,
    COMBAT_ENDED,
    COMBAT_STARTED,
    COMBATANT_FLED,
    COMBATANT_JOINED,
    CONDITION_CARRIED,
    EFFECT_APPLIED,
    ITEM_STOLEN,
    QUERY_STATES_CHECK,
    Envelope,
)
from shared.payloads import StatesCheck, TimerFired
from shared.runtime import Handler, QueryContext, ServiceSpec, State, Target

SERVICE = "states"

ONE_CHARACTER_FIELD: dict[str, str] = {
    COMBATANT_JOINED: "character",
    COMBATANT_FLED: "character",
    ACTION_DECLARED: "attacker",
    EFFECT_APPLIED: "character",
    ITEM_STOLEN: "character",
    CMD_POST_COMBAT: "target",
    CMD_REQUIREMENT: "character",
    CMD_MODERATE: "character",
    CMD_CHARACTER: "character",
}
"""Messages about one character, and the payload field that names him."""


def characters_of(env: Envelope) -> list[str]:
    """The characters a message concerns, in a stable order."""
    payload = env.payload
    if env.type == QUERY_STATES_CHECK:
        return list(dict.fromkeys(str(c) for c in payload.get("characters", [])))
    if env.type == COMBAT_STARTED:
        sides: dict[str, list[str]] = payload.get("sides", {})
        return [c for side in ("attackers", "defenders") for c in sides.get(side, [])]
    if env.type in (COMBAT_ENDED, CONDITION_CARRIED):
        return sorted(payload.get("participants", {}))
    if env.type == CMD_TIMER_FIRED:
        subject = payload.get("data", {}).get("subject")
        return [str(subject)] if subject else []
    field = ONE_CHARACTER_FIELD.get(env.type)
    if field is None or not payload.get(field):
        return []
    return [str(payload[field])]


def context_of(env: Envelope, now: int) -> Context:
    return Context(
        tenant=env.tenant,
        room=env.room,
        combat_id=env.combat_id,
        occurred_ms=int(env.occurred_at.timestamp() * 1000),
        now_ms=now,
    )


def ruleset_of(env: Envelope, state: State | None) -> str:
    return str(env.payload.get("ruleset") or (state or {}).get("ruleset") or "umh")


def on_combat_event(
    env: Envelope, state: State | None, target: Target, now: int
) -> Decision[State]:
    ruleset = ruleset_named(ruleset_of(env, state))
    return ruleset.on_event(state, target.subject, env.type, env.payload, context_of(env, now))


def on_command(env: Envelope, state: State | None, target: Target, now: int) -> Decision[State]:
    ruleset = ruleset_named(ruleset_of(env, state))
    return ruleset.on_command(state, target.subject, env.type, env.payload, context_of(env, now))


def on_timer_fired(env: Envelope, state: State | None, target: Target, now: int) -> Decision[State]:
    fired = TimerFired.model_validate(env.payload)
    ruleset = ruleset_named(ruleset_of(env, state))
    return ruleset.on_timer(state, target.subject, fired.timer_id, context_of(env, now))


async def on_states_check(
    env: Envelope, states: dict[str, State | None], ctx: QueryContext, now: int
) -> dict[str, Any]:
    """``states.check``: answered from the characters' records. A combat they are marked in
    may have ended already without this service having applied its end yet: the combat's
    published read model (turns' view) tells. The room asked about is the envelope's."""
    query = StatesCheck.model_validate(env.payload)
    marked = {str(s["in_combat"]) for s in states.values() if s and s.get("in_combat")}
    ended: set[str] = set()
    for combat_id in marked:
        view = await ctx.read_view(ctx.keys.combat("turns", combat_id))
        if view is None or view.get("phase") == "ended":
            ended.add(combat_id)
    ruleset = ruleset_named(query.ruleset)
    answer = ruleset.check(states, query, room=env.room, ended_combats=ended, now_ms=now)
    return answer.model_dump(mode="json")


HANDLERS: dict[str, Handler] = {
    COMBAT_STARTED: on_combat_event,
    COMBATANT_JOINED: on_combat_event,
    COMBAT_ENDED: on_combat_event,
    COMBATANT_FLED: on_combat_event,
    ACTION_DECLARED: on_combat_event,
    EFFECT_APPLIED: on_combat_event,
    CONDITION_CARRIED: on_combat_event,
    ITEM_STOLEN: on_combat_event,
    CMD_POST_COMBAT: on_command,
    CMD_REQUIREMENT: on_command,
    CMD_MODERATE: on_command,
    CMD_CHARACTER: on_command,
    CMD_TIMER_FIRED: on_timer_fired,
}


def spec(keys: Keys) -> ServiceSpec:
    def targets(env: Envelope) -> list[Target]:
        return [
            Target(keys.character(SERVICE, env.tenant, character), character)
            for character in characters_of(env)
        ]

    def view(state: State, now: int) -> dict[str, Any]:
        return ruleset_named(str(state.get("ruleset", "umh"))).view(state, now_ms=now)

    def armed(state: State) -> list[TimerRequest]:
        return ruleset_named(str(state.get("ruleset", "umh"))).armed_timers(state)

    def is_active(state: State) -> bool:
        return bool(armed(state))

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
