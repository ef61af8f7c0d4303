"""services/resolution: one handler per message type; each returns a Decision."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from services.resolution.registry import ruleset_named, ruleset_of
from shared.dice import combat as combat_dice
from shared.domain import Decision, TimerRequest
from shared.keys import Keys
from shared.messages import (
    ACTION_DECLARED,
    COMBAT_ENDED,
    COMBAT_STARTED,
    COMBATANT_FLED,
    COMBATANT_JOINED,
    DICE_SEEDED,
    RESOLUTION_REQUESTED,
    TURN_ENDED,
    TURN_STARTED,
    Envelope,
    Event,
)
from shared.runtime import Handler, ServiceSpec, State, Target

SERVICE = "resolution"


class CombatNotKnownYetError(RuntimeError):
    """An input about a combat whose start this service has not seen: retried later."""


def on_combat_started(env: Envelope, state: State | None, _: Target, now: int) -> Decision[State]:
    """Take the snapshot of every sheet the combat started with (keeping the dice seed, if
    ``combat.dice_seeded`` was handled first)."""
    if state is not None and not _seed_only(state):
        return Decision(None)
    ruleset = ruleset_named(str(env.payload.get("ruleset", "")))
    decision = ruleset.on_combat_started(env.payload, now_ms=now)
    return decision if state is None else combat_dice.carried(state, decision)


def _seed_only(state: State) -> bool:
    """What :func:`on_dice_seeded` keeps of a combat whose start is still on its way."""
    return set(state) == {combat_dice.DICE}


@runtime_checkable
class KeepsCondition(Protocol):
    """A ruleset whose fighters keep their condition into their next combat (umh 4.1.7)."""

    def on_combat_ended(self, state: State, payload: dict[str, Any]) -> list[Event]: ...


def on_combat_ended(env: Envelope, state: State | None, _: Target, now: int) -> Decision[State]:
    """The combat is over: its condition is kept for the retention time, then expires; a
    ruleset that carries it into the next combat tells services/states (umh 4.1.7)."""
    if state is None or _seed_only(state) or state.get("ended"):
        return Decision(None)
    ruleset = ruleset_of(state)
    events = (
        ruleset.on_combat_ended(state, env.payload) if isinstance(ruleset, KeepsCondition) else []
    )
    return combat_dice.carried(state, Decision({**state, "ended": True}, events))


def on_combat_event(env: Envelope, state: State | None, _: Target, now: int) -> Decision[State]:
    """A combat's input, routed to its ruleset. Once the combat has ended nothing is
    resolved any more: a request still on its way (an annulment came first) is dropped."""
    if state is None or _seed_only(state):
        raise CombatNotKnownYetError(f"{env.type} for unknown combat {env.combat_id}")
    if state.get("ended") and env.type == RESOLUTION_REQUESTED:
        return Decision(None)
    decision = ruleset_of(state).on_event(state, env.type, env.payload, now_ms=now)
    return combat_dice.carried(state, decision)


def on_dice_seeded(env: Envelope, state: State | None, _: Target, now: int) -> Decision[State]:
    """The combat's secret dice seed, for the rolls resolution makes (shared/dice/combat.py).

    Both messages come from one commit of turns, but this service handles messages of one
    combat concurrently: when the seed is handled first it is kept on its own, and
    ``combat.started`` completes the state (no retry, no redelivery)."""
    seed = str(env.payload["seed"])
    if state is None:
        return Decision({combat_dice.DICE: combat_dice.known(seed)})
    if state.get(combat_dice.DICE):
        return Decision(None)
    return Decision({**state, combat_dice.DICE: combat_dice.known(seed)})


HANDLERS: dict[str, Handler] = {
    COMBAT_STARTED: on_combat_started,
    COMBATANT_JOINED: on_combat_event,
    COMBATANT_FLED: on_combat_event,
    RESOLUTION_REQUESTED: on_combat_event,
    COMBAT_ENDED: on_combat_ended,
    DICE_SEEDED: on_dice_seeded,
    ACTION_DECLARED: on_combat_event,
    TURN_STARTED: on_combat_event,
    TURN_ENDED: on_combat_event,
}


def spec(keys: Keys) -> ServiceSpec:
    def targets(env: Envelope) -> list[Target]:
        combat_id = env.combat_id or env.payload.get("combat_id")
        if not combat_id:
            return []
        return [Target(keys.combat(SERVICE, combat_id), combat_id)]

    def view(state: State, _now: int) -> dict[str, Any]:
        if _seed_only(state):
            return {"participants": {}}
        return ruleset_of(state).view(state)

    def is_active(_state: State) -> bool:
        return False  # resolution arms no timers yet

    def armed(_state: State) -> list[TimerRequest]:
        return []

    def expires(state: State) -> bool:
        return bool(state.get("ended", False))

    return ServiceSpec(SERVICE, HANDLERS, targets, view, is_active, armed, expires)
