"""Phases, rounds and turns: the transitions that every input shares.

Each function works on a parsed :class:`CombatState` (a private copy) and records what it
did in an :class:`Outcome`.
"""

from __future__ import annotations

from services.turns.domain.umh import approach, fainted, terrain
from services.turns.domain.umh.economy import lone_fighter_bucket
from services.turns.domain.umh.ending import end_combat
from services.turns.domain.umh.order import Fighter, first_round_order, round_order
from services.turns.domain.umh.state import CombatState, Turn, TurnEnd
from shared.domain import ms
from shared.messages import (
    COMBAT_PHASE_CHANGED,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_RESUMED,
    TURN_STARTED,
)
from shared.outcome import Outcome, arm_timer, cancel_timer
from shared.payloads import TurnEnded
from shared.vocabulary import EndReason, Phase

STALEMATE_ROUNDS = 3
"""umh 2.3.3.1: three consecutive rounds of mutual passing end the combat."""


def fighters(state: CombatState) -> list[Fighter]:
    """The participants who keep their turns (umh 4.3.3: within the grace too)."""
    return [
        Fighter(cid, p.side, p.vel, p.joined_seq)
        for cid, p in state.participants.items()
        if p.in_fight
    ]


def enter_preparation(state: CombatState, out: Outcome, now_ms: int) -> None:
    """umh 1.3.1 / A-65: one shared preparation window after the opening (2 minutes)."""
    previous = state.phase
    deadline = now_ms + ms(state.settings.preparation_seconds)
    state.phase = Phase.PREPARATION
    state.phase_deadline_ms = deadline
    arm_timer(state, out, "preparation", deadline, {})
    out.emit(
        COMBAT_PHASE_CHANGED,
        {"from": previous, "to": Phase.PREPARATION, "deadline_ms": deadline},
    )


def start_fighting(state: CombatState, out: Outcome, now_ms: int) -> None:
    """umh 2.1.1 / 2.2.1 / 2.2.2: the preparation round is over; round 1 in the opening order.

    The aggressor, then his targets by speed; whoever joined during the preparation round
    follows his side's original members (``via`` is set only for joiners).
    """
    for timer_id, timer in list(state.timers.items()):
        if timer.kind == "preparation":
            cancel_timer(state, out, timer_id)
    state.phase = Phase.FIGHTING
    state.phase_deadline_ms = None
    out.emit(COMBAT_PHASE_CHANGED, {"from": Phase.PREPARATION, "to": Phase.FIGHTING})
    by_id = {f.id: f for f in fighters(state)}
    initiator = by_id.get(state.initiator)
    if initiator is None:  # the aggressor left during the preparation round
        begin_round(state, out, now_ms, next_round_order(state))
        return
    originals = [by_id[c] for c in state.sides["defenders"] if c in by_id]
    targets = [f for f in originals if state.participants[f.id].via is None]
    joiners = [f for f in originals if state.participants[f.id].via is not None]
    allies = [by_id[c] for c in state.sides["attackers"] if c in by_id and c != initiator.id]
    order = first_round_order(initiator, targets, allies, joiners)
    begin_round(state, out, now_ms, order)


def next_round_order(state: CombatState) -> list[str]:
    """umh 2.2.5: every round is ordered again by total speed (see ``order.round_order``)."""
    side = state.participants[state.initiator].side
    return round_order(fighters(state), state.initiator, side)


def refill(state: CombatState) -> None:
    """umh 3.1.3 / 2.3.2.1 / 2.5.4 / 8.2.1.2: PA and speed back, per-round counters reset."""
    for p in state.participants.values():
        p.pa = state.settings.pa_per_round
        p.bonus_pa = 0
        p.movement_left = p.vel
        p.own_turns = 0
        p.offensive_1pa = 0
        p.used_round = {}
    state.round_offensive = False
    state.round_timeouts = False


def begin_round(state: CombatState, out: Outcome, now_ms: int, order: list[str]) -> None:
    """umh 2.1.2 / 2.2.5: a new round with its order; PA and speed refilled; what is kept on
    the terrain counts one round down (4.1.5.1); first turn."""
    state.round += 1
    state.turn_order = order
    refill(state)
    out.emit(ROUND_STARTED, {"round": state.round, "turn_order": list(order)})
    terrain.round_started(state, out)
    start_turn(state, out, now_ms, 0)


def start_turn(state: CombatState, out: Outcome, now_ms: int, index: int) -> None:
    """umh 2.3 / 2.3.5 / 1.2.6.1 - 1.2.6.2: the own turn at ``index`` with a full clock.

    The lone fighter's second and third own turns of a round start with his bucket of up
    to 2 PA (A-15), announced as ``pa_bonus``; the hazards kept on the terrain he starts it
    on are named (``hazards``, 11.3.3).
    """
    state.turn_index = index
    state.turn_seq += 1
    actor = state.turn_order[index]
    player = state.participants[actor]
    player.own_turns += 1
    player.zero_pa_actions = 0
    lone = state.turn_order.count(actor) > 1
    player.bonus_pa = lone_fighter_bucket(player, state.settings) if lone else 0
    deadline = now_ms + ms(state.settings.turn_seconds)
    timer_id = arm_timer(state, out, "turn", deadline, {"turn_seq": state.turn_seq})
    state.turn = Turn(actor=actor, deadline_ms=deadline, timer_id=timer_id)
    started = {
        "actor": actor,
        "index": index,
        "round": state.round,
        "turn_seq": state.turn_seq,
        "deadline_ms": deadline,
        "pa_bonus": player.bonus_pa,
    }
    hazards = terrain.hazards_under(state, actor)
    if hazards:  # umh 11.3.3: services/resolution hurts him once with each
        started["hazards"] = hazards
    out.emit(TURN_STARTED, started)


def end_turn(state: CombatState, out: Outcome, now_ms: int, reason: TurnEnd) -> None:
    """umh 2.3.3 / 2.3.5 / 2.3.6: the current own turn ends once (passed, timeout, down...).

    ``turn.ended`` tells resolution to apply regenerations (2.3.6, 1.2.6.4); the lone
    fighter's unused bucket is lost (1.2.6.3). Then the next turn, or the next round.
    """
    assert state.turn is not None
    turn = state.turn
    cancel_timer(state, out, turn.timer_id)
    player = state.participants[turn.actor]
    player.bonus_pa = 0
    fainted.turn_over(player, state.turn_seq)  # umh 11.4.1.1
    if reason == TurnEnd.TIMEOUT:
        state.round_timeouts = True
    ended = TurnEnded(
        actor=turn.actor, reason=str(reason), round=state.round, turn_seq=state.turn_seq
    )
    out.emit(TURN_ENDED, ended.model_dump(mode="json"))
    approach.back_home(state, out)
    state.turn = None
    advance(state, out, now_ms)


def advance(state: CombatState, out: Outcome, now_ms: int) -> None:
    """umh 2.1.2 / 2.1.3: the next entry of the order whose actor still fights, or a new
    round after the last (skipping the fallen, the fled and those out after the grace).

    At a round's end the stalemate count moves on (2.3.3.1); the third round ends it.
    """
    for index in range(state.turn_index + 1, len(state.turn_order)):
        if state.participants[state.turn_order[index]].in_fight:
            start_turn(state, out, now_ms, index)
            return
    count_stalemate(state)
    out.emit(ROUND_ENDED, {"round": state.round, "stalemate_rounds": state.stalemate_rounds})
    if state.stalemate_rounds >= STALEMATE_ROUNDS:
        end_combat(state, out, now_ms, None, EndReason.STALEMATE)
        return
    begin_round(state, out, now_ms, next_round_order(state))


def count_stalemate(state: CombatState) -> None:
    """umh 2.3.3.1 / A-89: a round where every turn was passed voluntarily (none timed
    out) and nobody used an offensive skill adds one; any other round resets the count."""
    mutual_pass = not state.round_offensive and not state.round_timeouts
    state.stalemate_rounds = state.stalemate_rounds + 1 if mutual_pass else 0


def pause_turn(state: CombatState, out: Outcome, now_ms: int) -> int:
    """umh 2.4.2: a defense window (or an interference turn, 2.5.1) stops the attacker's
    clock; returns the time left."""
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
