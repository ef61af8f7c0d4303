"""Phases, rounds and turns: the transitions that every input shares.

Each function works on a parsed :class:`CombatState` (a private copy) and records what it
did in an :class:`Outcome`.
"""

from __future__ import annotations

from services.turns.domain.order import Fighter, first_round_order, round_order
from services.turns.domain.outcome import Outcome, arm_timer, cancel_timer
from services.turns.domain.state import (
    PHASE_ENDED,
    PHASE_FIGHTING,
    PHASE_PREPARATION,
    CombatState,
    Result,
    Side,
    Turn,
)
from shared.domain import ms
from shared.messages import (
    COMBAT_ENDED,
    COMBAT_PHASE_CHANGED,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_RESUMED,
    TURN_STARTED,
)
from shared.payloads import CombatEnded, CombatEndedParticipant, EndReason


def fighters(state: CombatState) -> list[Fighter]:
    """The active participants as the order functions see them."""
    return [
        Fighter(cid, p.side, p.vel, p.joined_seq)
        for cid, p in state.participants.items()
        if p.active
    ]


def enter_preparation(state: CombatState, out: Outcome, now_ms: int) -> None:
    """umh 1.3.1 / A-65: one shared preparation window after the opening (2 minutes)."""
    previous = state.phase
    deadline = now_ms + ms(state.settings.preparation_seconds)
    state.phase = PHASE_PREPARATION
    state.phase_deadline_ms = deadline
    arm_timer(state, out, "preparation", deadline, {})
    out.emit(
        COMBAT_PHASE_CHANGED,
        {"from": previous, "to": PHASE_PREPARATION, "deadline_ms": deadline},
    )


def start_fighting(state: CombatState, out: Outcome, now_ms: int) -> None:
    """umh 2.1.1 / 2.2.1: the preparation round is over; round 1 in the opening order."""
    state.phase = PHASE_FIGHTING
    state.phase_deadline_ms = None
    out.emit(COMBAT_PHASE_CHANGED, {"from": PHASE_PREPARATION, "to": PHASE_FIGHTING})
    by_id = {f.id: f for f in fighters(state)}
    targets = [by_id[c] for c in state.sides["defenders"] if c in by_id]
    begin_round(state, out, now_ms, first_round_order(by_id[state.initiator], targets))


def refill(state: CombatState) -> None:
    """umh 3.1.3 / 2.3.2.1: every active participant gets his PA and his speed back."""
    for p in state.participants.values():
        if p.active:
            p.pa = state.settings.pa_per_round
            p.movement_left = p.vel


def begin_round(state: CombatState, out: Outcome, now_ms: int, order: list[str]) -> None:
    """umh 2.1.2 / 2.2.5: a new round with its order; PA and speed refilled; first turn."""
    state.round += 1
    state.turn_order = order
    refill(state)
    out.emit(ROUND_STARTED, {"round": state.round, "turn_order": list(order)})
    start_turn(state, out, now_ms, 0)


def start_turn(state: CombatState, out: Outcome, now_ms: int, index: int) -> None:
    """umh 2.3 / 2.3.5: the own turn at ``index`` starts with a full turn clock."""
    state.turn_index = index
    state.turn_seq += 1
    actor = state.turn_order[index]
    deadline = now_ms + ms(state.settings.turn_seconds)
    timer_id = arm_timer(state, out, "turn", deadline, {"turn_seq": state.turn_seq})
    state.turn = Turn(actor=actor, deadline_ms=deadline, timer_id=timer_id)
    out.emit(
        TURN_STARTED,
        {
            "actor": actor,
            "index": index,
            "round": state.round,
            "turn_seq": state.turn_seq,
            "deadline_ms": deadline,
        },
    )


def end_turn(state: CombatState, out: Outcome, now_ms: int, reason: str) -> None:
    """umh 2.3.3 / 2.3.5: the current turn ends (passed, timeout, down); the next starts."""
    assert state.turn is not None
    cancel_timer(state, out, state.turn.timer_id)
    out.emit(TURN_ENDED, {"actor": state.turn.actor, "reason": reason})
    advance(state, out, now_ms)


def advance(state: CombatState, out: Outcome, now_ms: int) -> None:
    """umh 2.1.2 / 2.1.3: the next active entry of the order, or a new round after the last.

    Entries whose actor is no longer active (down, fled) are skipped.
    """
    for index in range(state.turn_index + 1, len(state.turn_order)):
        if state.participants[state.turn_order[index]].active:
            start_turn(state, out, now_ms, index)
            return
    out.emit(ROUND_ENDED, {"round": state.round})
    order = round_order(fighters(state), state.initiator, state.participants[state.initiator].side)
    begin_round(state, out, now_ms, order)


def pause_turn(state: CombatState, out: Outcome, now_ms: int) -> int:
    """umh 2.4.2: a defense window stops the attacker's clock; returns the time left."""
    turn = state.turn
    assert turn is not None
    if turn.paused_remaining_ms is not None:
        return turn.paused_remaining_ms
    remaining = max(0, (turn.deadline_ms or now_ms) - now_ms)
    cancel_timer(state, out, turn.timer_id)
    turn.paused_remaining_ms = remaining
    turn.deadline_ms = None
    turn.timer_id = None
    return remaining


def resume_turn(state: CombatState, out: Outcome, now_ms: int) -> None:
    """umh 2.4.2 / A-24: after the defense, the clock resumes from where it stopped."""
    turn = state.turn
    assert turn is not None and turn.paused_remaining_ms is not None
    deadline = now_ms + turn.paused_remaining_ms
    turn.timer_id = arm_timer(state, out, "turn", deadline, {"turn_seq": state.turn_seq})
    turn.deadline_ms = deadline
    turn.paused_remaining_ms = None
    out.emit(TURN_RESUMED, {"actor": turn.actor, "deadline_ms": deadline})


def defeated_sides(state: CombatState) -> list[Side]:
    """umh 4.1.1 / 4.1.1.2: the sides none of whose members can still fight."""
    return [s for s in ("attackers", "defenders") if not state.active_members(s)]


def end_combat(
    state: CombatState, out: Outcome, now_ms: int, winner: Side | None, reason: EndReason
) -> None:
    """umh 4.1.1: the combat ends; every armed timer is cancelled, nothing stays in flight."""
    previous = state.phase
    for timer_id in list(state.timers):
        cancel_timer(state, out, timer_id)
    state.phase = PHASE_ENDED
    state.phase_deadline_ms = None
    state.result = Result(winner=winner, reason=reason)
    state.ended_at_ms = now_ms
    state.actions = {}
    state.turn = None
    out.emit(COMBAT_PHASE_CHANGED, {"from": previous, "to": PHASE_ENDED})
    ended = CombatEnded(
        combat_id=state.id,
        ruleset=state.ruleset,
        winner=winner,
        reason=reason,
        participants={
            cid: CombatEndedParticipant(
                side=p.side,
                status=p.status,
                reached_zero_vit=p.reached_zero_vit,
            )
            for cid, p in state.participants.items()
        },
        ended_at_ms=now_ms,
    )
    out.emit(COMBAT_ENDED, ended.model_dump(mode="json"))
