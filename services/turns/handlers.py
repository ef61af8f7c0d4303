"""services/turns: one handler per message type; each returns a Decision, never does I/O."""

from __future__ import annotations

from typing import Any

from services.turns.registry import ruleset_named, ruleset_of
from shared.dice import combat as combat_dice
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.keys import Keys
from shared.messages import (
    ACTION_RESOLVED,
    CMD_COMBAT_ACT,
    CMD_COMBAT_START,
    CMD_TIMER_FIRED,
    COMBATANT_DOWN,
    EFFECT_APPLIED,
    EFFECT_EXPIRED,
    Envelope,
)
from shared.payloads import ActOnCombat, StartCombat, TimerFired
from shared.runtime import Handler, ServiceSpec, State, Target

SERVICE = "turns"


def on_combat_start(env: Envelope, state: State | None, _: Target, now: int) -> Decision[State]:
    """Open a combat (umh 1.1). A second start of the same combat id is refused."""
    cmd = StartCombat.model_validate(env.payload)
    if state is not None:
        raise RuleViolation("wrong_phase", None, reason="combat already started")
    cmd = cmd.model_copy(update={"dice": combat_dice.fresh()})
    decision = ruleset_named(cmd.ruleset).start(cmd, tenant=env.tenant, room=env.room, now_ms=now)
    return combat_dice.carried({combat_dice.DICE: cmd.dice}, decision)


def on_combat_act(env: Envelope, state: State | None, _: Target, now: int) -> Decision[State]:
    if state is None:
        raise RuleViolation("not_found", None, combat_id=env.combat_id)
    if state.get("tenant") != env.tenant:
        raise RuleViolation("not_found", None, combat_id=env.combat_id)
    cmd = ActOnCombat.model_validate(env.payload)
    return combat_dice.carried(state, ruleset_of(state).act(state, cmd, now_ms=now))


def on_timer_fired(env: Envelope, state: State | None, _: Target, now: int) -> Decision[State]:
    if state is None:
        return Decision(None)
    timer = TimerFired.model_validate(env.payload)
    return combat_dice.carried(state, ruleset_of(state).on_timer(state, timer, now_ms=now))


def on_service_event(env: Envelope, state: State | None, _: Target, now: int) -> Decision[State]:
    if state is None:
        return Decision(None)
    decision = ruleset_of(state).on_event(state, env.type, env.payload, now_ms=now)
    return combat_dice.carried(state, decision)


HANDLERS: dict[str, Handler] = {
    CMD_COMBAT_START: on_combat_start,
    CMD_COMBAT_ACT: on_combat_act,
    CMD_TIMER_FIRED: on_timer_fired,
    ACTION_RESOLVED: on_service_event,
    COMBATANT_DOWN: on_service_event,
    EFFECT_APPLIED: on_service_event,
    EFFECT_EXPIRED: on_service_event,
}


def spec(keys: Keys) -> ServiceSpec:
    def targets(env: Envelope) -> list[Target]:
        combat_id = env.combat_id or env.payload.get("combat_id")
        if not combat_id:
            return []
        return [Target(keys.combat(SERVICE, combat_id), combat_id)]

    def view(state: State, _now: int) -> dict[str, Any]:
        shown = ruleset_of(state).view(state)
        dice = combat_dice.view(state, ended=not ruleset_of(state).is_active(state))
        return shown if dice is None else {**shown, "dice": dice}

    def is_active(state: State) -> bool:
        return ruleset_of(state).is_active(state)

    def armed(state: State) -> list[TimerRequest]:
        timers: dict[str, dict[str, Any]] = state.get("timers", {})
        return [
            TimerRequest(tid, int(t["due_ms"]), str(t["kind"]), dict(t.get("data", {})))
            for tid, t in timers.items()
        ]

    def expires(state: State) -> bool:
        return not is_active(state)

    def stalled(state: State, quiet_ms: int) -> str | None:
        return ruleset_of(state).stalled(state, quiet_ms)

    # A turn timer is applied as soon as it falls due unless an action the gateway accepted
    # before is still queued for the combat (shared/runtime/firing.py).
    return ServiceSpec(
        SERVICE,
        HANDLERS,
        targets,
        view,
        is_active,
        armed,
        expires,
        stalled=stalled,
        timer_lane=True,
    )
