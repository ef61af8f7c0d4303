"""Events of services/resolution about this combat: ``action.resolved`` (hit by hit),
``combatant.down`` (by a hit or a damage-over-time tick), ``effect.applied`` /
``effect.expired`` (mirrored to refuse what they forbid, umh 11.4 - 11.5).

A redelivered or unknown event changes nothing (``Decision(None)``).
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.umh import (
    approach,
    conditions,
    economy,
    fainted,
    interference,
    stats,
    teleport,
    terrain,
)
from services.turns.domain.umh.ending import end_if_a_side_is_beaten, end_if_agreed
from services.turns.domain.umh.events import PA_REFUNDED, POSITION_CHANGED
from services.turns.domain.umh.flow import enter_preparation
from services.turns.domain.umh.inflight import InFlight
from services.turns.domain.umh.participant import DOWN
from services.turns.domain.umh.progress import move_on
from services.turns.domain.umh.reactions import close_windows_of, next_hit
from services.turns.domain.umh.state import CombatState
from shared.domain import Decision
from shared.messages import (
    ACTION_COMPLETED,
    ACTION_RESOLVED,
    COMBATANT_DOWN,
    EFFECT_APPLIED,
    EFFECT_EXPIRED,
)
from shared.outcome import Outcome
from shared.payloads import CombatantDown, Position
from shared.vocabulary import EndReason, Phase

State = dict[str, Any]


def on_event(
    state_dict: State, event_type: str, payload: dict[str, Any], now_ms: int
) -> Decision[State]:
    """Route an event by type; types turns does not follow change nothing."""
    if state_dict.get("phase") == Phase.ENDED:
        return Decision(None)
    if event_type == ACTION_RESOLVED:
        return on_action_resolved(state_dict, payload, now_ms)
    if event_type == COMBATANT_DOWN:
        return on_down(state_dict, payload, now_ms)
    if event_type in (EFFECT_APPLIED, EFFECT_EXPIRED):
        return on_effect(state_dict, event_type, payload)
    return Decision(None)


def downed(payload: dict[str, Any]) -> list[str]:
    """umh 4.1.1.2 / 4.1.4: who fell (VIT 0): ``downs`` plus any result flagged ``down``."""
    ids = [str(c) for c in payload.get("downs") or []]
    ids += [str(r["target"]) for r in payload.get("results") or [] if r.get("down")]
    return list(dict.fromkeys(ids))


def fall(state: CombatState, out: Outcome, character: str) -> bool:
    """umh 4.1.1.2 / 4.1.4: he reached 0 VIT; his open windows close (A-24)."""
    player = state.participants.get(character)
    if player is None:
        return False
    changed = not player.reached_zero_vit or player.in_fight
    player.reached_zero_vit = True
    if player.in_fight:
        player.status = DOWN
        close_windows_of(state, out, character)
    return changed


def apply_refunds(
    state: CombatState, out: Outcome, action: InFlight, refunds: dict[str, Any]
) -> None:
    """umh 3.2 / 3.2.1 / 3.1.3: PA given back for an anticipated skill, in the round it was
    spent (the next round refilled them anyway), never to an attacker who answered the
    anticipation with a skill, never more than the action cost."""
    if action.round != state.round:
        return
    answered = any(a.skill is not None for a in action.answers.values())
    for character, amount in refunds.items():
        player = state.participants.get(character)
        if player is None or (character == action.attacker and answered):
            continue
        wanted = min(int(amount), action.pa_spent) if character == action.attacker else int(amount)
        given = economy.refund(player, wanted, state.settings)
        if given:
            out.emit(PA_REFUNDED, {"character": character, "pa": given, "rule": "umh 3.2"})


def apply_movement(state: CombatState, out: Outcome, payload: dict[str, Any]) -> None:
    """umh 8.2.1.1 / 8.2.1.2: speed spent by evasions (back at the round's start); where
    evaders and pushed combatants now stand (11.6)."""
    for character, spent in (payload.get("speed_spent") or {}).items():
        player = state.participants.get(character)
        if player is not None:
            player.movement_left = max(0, player.movement_left - spent)
    for character, raw in (payload.get("moved") or {}).items():
        if character not in state.participants:
            continue
        position = Position.model_validate(raw)
        if position.square is not None:
            state.positions[character] = [position.square[0], position.square[1]]
        state.heights[character] = position.height
        approach.settle(state, character)
        out.emit(POSITION_CHANGED, {"character": character, **position.model_dump(mode="json")})


def complete(
    state: CombatState, out: Outcome, action_id: str, action: InFlight, cancelled: bool
) -> None:
    """The action is settled: a levitate / fly skill sets its user's height (umh 10.1), a
    skill that grants interference turns queues them (2.5); unless it was cancelled."""
    skill = state.participants[action.attacker].skill(action.skill)
    if skill is not None and not cancelled:
        if skill.sets_position:
            state.heights[action.attacker] = skill.sets_position
            approach.settle(state, action.attacker)
            position = {"character": action.attacker, "height": skill.sets_position}
            out.emit(POSITION_CHANGED, position)
        interference.grant(state, out, action_id, action, skill)
        terrain.place(state, out, action_id, action)
    teleport.complete(state, out, action, cancelled)
    del state.actions[action_id]
    out.emit(
        ACTION_COMPLETED,
        {"action_id": action_id, "attacker": action.attacker, "skill": action.skill},
    )


def on_action_resolved(state_dict: State, payload: dict[str, Any], now_ms: int) -> Decision[State]:
    """umh 4.1.1.2 / 3.2 / 8.2.1.1 / 8.1.1.1 / 2.4.2 / 1.3.1: settle one resolved hit.

    Order: the fallen (VIT 0); refunds; speed and positions; then the combo's next hit
    (its own windows) while ``combo_continues``, or the action is complete; then the end
    (4.1.1), the opening leading to preparation (1.3.1), or the combat moving on.
    A hit that is not the one awaited (redelivered, unknown) changes nothing.
    """
    state = CombatState.from_dict(state_dict)
    action_id = str(payload.get("action_id"))
    action = state.actions.get(action_id)
    if action is None or not action.resolution_requested:
        return Decision(None)
    if int(payload.get("hit", action.hit)) != action.hit:
        return Decision(None)
    out = Outcome()
    for character in downed(payload):
        fall(state, out, character)
    apply_refunds(state, out, action, payload.get("refunds") or {})
    apply_movement(state, out, payload)
    cancelled = bool(payload.get("cancelled", False))
    continues = bool(payload.get("combo_continues")) and not cancelled
    if continues and action.hit < action.hits and next_hit(state, out, action_id, now_ms):
        end_if_a_side_is_beaten(state, out, now_ms, EndReason.DEFEAT)
        return out.decision(state)
    complete(state, out, action_id, action, cancelled)
    if end_if_a_side_is_beaten(state, out, now_ms, EndReason.DEFEAT) or end_if_agreed(
        state, out, now_ms
    ):
        return out.decision(state)
    if action.opening:
        enter_preparation(state, out, now_ms)
    else:
        move_on(state, out, now_ms)
    return out.decision(state)


def on_down(state_dict: State, payload: dict[str, Any], now_ms: int) -> Decision[State]:
    """umh 4.1.1.2 / 11.2: ``combatant.down`` outside a hit (a damage-over-time tick) or
    beside one; the fall counts once."""
    state = CombatState.from_dict(state_dict)
    down = CombatantDown.model_validate(payload)
    out = Outcome()
    if not fall(state, out, down.character):
        return Decision(None)
    if state.phase != "opening":
        move_on(state, out, now_ms)
    else:
        end_if_a_side_is_beaten(state, out, now_ms, EndReason.DEFEAT)
    return out.decision(state)


def on_effect(state_dict: State, event_type: str, payload: dict[str, Any]) -> Decision[State]:
    """umh 11.4 / 11.5: mirror what resolution applied or removed; refusals read it, a limb
    state changes his VEL (11.5.4 - 11.5.5, ``stats.refresh_speed``), and a stun, faint or
    sleep ends what he keeps on the terrain (11.4.1 - 11.4.1.2)."""
    character = str(payload.get("character"))
    state = CombatState.from_dict(state_dict)
    player = state.participants.get(character)
    if player is None:
        return Decision(None)
    out = Outcome()
    if event_type == EFFECT_APPLIED:
        applied = conditions.mirror_applied(player, payload)
        stats.wings_keep_moving(player, applied.effect.effect_id)
        if applied.effect.kind == "control":  # umh 11.4.1 - 11.4.1.2
            terrain.knocked_out(state, out, character, applied.effect.type)
    elif not conditions.mirror_expired(player, payload):
        return Decision(None)
    else:
        fainted.faint_ended(player, payload, state.turn_seq)  # umh 11.4.1.1
    stats.refresh_speed(player, state.settings.readings.stat_below_one)  # umh 11.5.4 - 11.5.5
    return out.decision(state)
