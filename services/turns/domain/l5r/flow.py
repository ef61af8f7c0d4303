"""The course of an l5r combat (004 "Resolución de combate"): preparation (Velocidad), the
initiative roll (Paso 1), rounds and turns in initiative order (Paso 2), Curso de combate at
each round's end (C-12), and the end (Paso 3; a side all Down, Out, dead or gone).
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import rules, void_dice
from services.turns.domain.l5r.fighter import OUT_OF_FIGHT, Fighter, GolpeFinal, RoundCounters
from services.turns.domain.l5r.state import L5rCombat, Result, Turn, TurnEnd
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import roll
from shared.dice.streams import SeededStream
from shared.messages import (
    COMBAT_ENDED,
    COMBAT_PHASE_CHANGED,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
)
from shared.outcome import Outcome, arm_timer, cancel_timer
from shared.payloads import CombatEnded, CombatEndedParticipant
from shared.vocabulary import EndReason, Phase, PublicStatus, Side


def roll_initiative(state: L5rCombat, out: Outcome, now_ms: int) -> None:
    """Paso 1 (C-2, C-6, T004-11): one roll per participant for the whole combat; ties broken
    by Reflexes, then the Void ring, then a d100 (C-11). Round 1 follows."""
    for tid, timer in list(state.timers.items()):
        if timer.kind == "preparation":
            cancel_timer(state, out, tid)
    dice = state.dice_of()
    stream = dice.stream("turns")
    for cid, p in state.participants.items():
        spec = rules.initiative_spec(p.insight, p.reflexes, velocidad=p.velocidad)
        result = roll(spec, stream, purpose=RollPurpose.INITIATIVE)
        out.rolled(result, roller=cid, combat_id=state.id)
        void_dice.after_roll(state, out, cid, result.dice, None)
        p.initiative_roll = p.initiative = result.total
        out.emit(
            "initiative.rolled",
            {"character": cid, "spec": result.spec, "total": result.total, "rule": "l5r Paso 1"},
        )
    break_ties(state, out, stream)
    dice.keep(stream)
    previous = state.phase
    state.phase = Phase.FIGHTING
    out.emit(COMBAT_PHASE_CHANGED, {"from": str(previous), "to": str(Phase.FIGHTING)})
    start_round(state, out, now_ms, 1)


def break_ties(state: L5rCombat, out: Outcome, stream: SeededStream) -> None:
    """C-11: equal initiative, Reflexes and Void ring: each of them rolls a d100."""
    tied: dict[tuple[int, int, int], list[str]] = {}
    for cid, p in state.participants.items():
        tied.setdefault((p.initiative, p.reflexes, p.void_max), []).append(cid)
    for group in tied.values():
        if len(group) > 1:
            for cid in group:
                tie = roll("1d100", stream, purpose=RollPurpose.INITIATIVE_TIE_BREAK)
                out.rolled(tie, roller=cid, combat_id=state.id)
                state.participants[cid].tiebreak = tie.total


def round_order(state: L5rCombat) -> list[str]:
    """Paso 2: highest effective initiative first (wound penalties subtracted, C-13)."""
    return sorted(state.participants, key=lambda c: rules.order_key(state.participants[c], c))


def start_round(state: L5rCombat, out: Outcome, now_ms: int, number: int) -> None:
    """A new round: per-round counters reset; protections older than a round lapse (C-25)."""
    state.round = number
    state.order = round_order(state)
    state.turn_index = -1
    for p in state.participants.values():
        p.round = RoundCounters()
        p.protected = {e: v for e, v in p.protected.items() if v.round >= number}
    out.emit(ROUND_STARTED, {"round": number, "order": list(state.order)})
    next_turn(state, out, now_ms)


def next_turn(state: L5rCombat, out: Outcome, now_ms: int) -> None:
    """The next participant in order who can act takes his turn; after the last, the round
    ends (Paso 3). C-8 / G18 / G19: stances and Incremento del NO end when his turn starts."""
    order = state.order
    index = state.turn_index + 1
    while index < len(order) and not state.participants[order[index]].can_fight:
        index += 1
    if index >= len(order):
        end_round(state, out, now_ms)
        return
    state.turn_index = index
    actor = order[index]
    p = state.participants[actor]
    p.stance, p.full_defense, p.tn_boost = None, None, 0
    p.wounded_since_turn, p.hit_since_turn = False, []
    state.turn_seq += 1
    due = now_ms + state.settings.turn_seconds * 1000
    timer = arm_timer(state, out, "turn", due, {"turn_seq": state.turn_seq, "actor": actor})
    state.turn = Turn(actor=actor, timer_id=timer, deadline_ms=due)
    out.emit(
        TURN_STARTED,
        {
            "actor": actor,
            "index": index,
            "round": state.round,
            "turn_seq": state.turn_seq,
            "deadline_ms": due,
        },
    )


def end_turn(state: L5rCombat, out: Outcome, now_ms: int, reason: TurnEnd) -> None:
    """The turn is over (a pass, the timer, a Golpe final spent); a beaten side ends it all."""
    turn = state.turn
    if turn is None:
        return
    cancel_timer(state, out, turn.timer_id)
    p = state.participants[turn.actor]
    if p.golpe_final == GolpeFinal.PENDING:
        p.golpe_final = GolpeFinal.USED  # G23: his next turn (one action), then he falls
    ended = {"actor": turn.actor, "reason": str(reason)}
    out.emit(TURN_ENDED, {**ended, "round": state.round, "turn_seq": state.turn_seq})
    state.turn = None
    if end_if_beaten(state, out, now_ms):
        return
    next_turn(state, out, now_ms)


def delay_turn(state: L5rCombat, out: Outcome, now_ms: int) -> bool:
    """Paso 2 (delay): act later this round; initiative is unchanged for later rounds."""
    order, index = state.order, state.turn_index
    actor = order[index]
    rest = [c for c in order[index + 1 :] if state.participants[c].can_fight]
    if not rest:
        return False
    state.order = order[:index] + order[index + 1 :] + [actor]
    state.turn_index = index - 1
    cancel_timer(state, out, state.current_turn().timer_id)
    out.emit("turn.delayed", {"actor": actor, "round": state.round, "rule": "l5r Paso 2"})
    state.turn = None
    next_turn(state, out, now_ms)
    return True


def end_round(state: L5rCombat, out: Outcome, now_ms: int) -> None:
    """Paso 3 and Curso de combate (C-12, T004-13): everyone not wounded since his last turn
    rolls 1d10 (not exploding); then the next round."""
    out.emit(ROUND_ENDED, {"round": state.round})
    dice = state.dice_of()
    stream = dice.stream("turns")
    for cid, p in state.participants.items():
        if p.status not in OUT_OF_FIGHT and not p.wounded_since_turn:
            tide(state, out, stream, cid, p)
    dice.keep(stream)
    if end_if_beaten(state, out, now_ms):
        return
    start_round(state, out, now_ms, state.round + 1)


def tide(state: L5rCombat, out: Outcome, stream: SeededStream, cid: str, p: Fighter) -> None:
    """Curso de combate (C-12, T004-13): the die is added to his initiative, or subtracted
    from an opponent he hit or wounded since his last turn (his ``l5r.tide`` choice)."""
    die = rules.tide_roll(stream)
    out.rolled(die, roller=cid, combat_id=state.id)
    against = p.tide_against
    foe = state.participants.get(against) if against else None
    if foe is not None and against in p.hit_since_turn:
        _, lowered = rules.apply_tide(p.initiative, die.total, against=foe.initiative)
        assert lowered is not None
        foe.initiative = lowered
        target = against
    else:
        p.initiative, _ = rules.apply_tide(p.initiative, die.total)
        target = cid
    p.tide_against = None
    out.emit(
        "tide.rolled",
        {"character": cid, "die": die.total, "applied_to": target, "rule": "l5r Curso de combate"},
    )


def end_if_beaten(state: L5rCombat, out: Outcome, now_ms: int) -> bool:
    """Paso 3: a side none of whose members can fight has lost; both at once, nobody won;
    all of the losers fled: ``fled``, else ``defeat``."""
    if state.ended:
        return True
    lost = state.beaten()
    if not lost:
        return False
    winner = None if len(lost) == 2 else lost[0].other
    losers = [p for p in state.participants.values() if p.side in lost]
    fled = all(p.status == "fled" for p in losers)
    end_combat(state, out, now_ms, winner, EndReason.FLED if fled else EndReason.DEFEAT)
    return True


def public_status(p: Fighter) -> PublicStatus:
    """docs/api.md's participant status: fled, active, or down (any fallen rank)."""
    if p.status == "fled":
        return PublicStatus.FLED
    return PublicStatus.ACTIVE if p.status == "active" else PublicStatus.DOWN


def end_combat(
    state: L5rCombat,
    out: Outcome,
    now_ms: int,
    winner: Side | None,
    reason: EndReason,
    annul_reason: str | None = None,
) -> None:
    """``combat.ended`` (CombatEnded), plus ``l5r``: each one's wound rank and Void left, for
    services/states (the pool between combats, T004-03)."""
    for tid in list(state.timers):
        cancel_timer(state, out, tid)
    previous = state.phase
    state.phase = Phase.ENDED
    state.turn = None
    state.pending = None
    state.ended_at_ms = now_ms
    state.result = Result(winner=winner, reason=reason, annul_reason=annul_reason)
    out.emit(COMBAT_PHASE_CHANGED, {"from": str(previous), "to": str(Phase.ENDED)})
    out.emit(COMBAT_ENDED, ended_payload(state, now_ms, winner, reason, annul_reason))


def ended_payload(
    state: L5rCombat,
    now_ms: int,
    winner: Side | None,
    reason: EndReason,
    annul_reason: str | None,
) -> dict[str, Any]:
    """``combat.ended`` (CombatEnded) plus ``l5r``: each one's wound rank and Void left."""
    ended = CombatEnded(
        combat_id=state.id,
        ruleset="l5r",
        winner=winner,
        reason=reason,
        participants={
            cid: CombatEndedParticipant(side=p.side, status=public_status(p))
            for cid, p in state.participants.items()
        },
        ended_at_ms=now_ms,
        room=state.room,
        annul_reason=annul_reason,
    ).model_dump(mode="json")
    ended["l5r"] = {
        cid: {
            "wound_rank": str(p.rank),
            "wounds": p.wounds,
            "void_points": p.void,
            "void_max": p.void_max,
            "alentar_received": p.alentar_received,
        }
        for cid, p in state.participants.items()
    }
    return ended


def on_timer(state: L5rCombat, timer_id: str, now_ms: int) -> Outcome | None:
    """docs/rules.md 7.1 W1 (preparation) and W2 (turn): the window ran out. Stale: ``None``."""
    if state.ended or timer_id not in state.timers:
        return None
    armed = state.timers.pop(timer_id)
    out = Outcome()
    if armed.kind == "preparation" and state.phase == Phase.PREPARATION:
        roll_initiative(state, out, now_ms)
    elif armed.kind == "turn":
        turn_ran_out(state, out, timer_id, armed.data, now_ms)
    return out


def turn_ran_out(
    state: L5rCombat, out: Outcome, timer_id: str, data: dict[str, object], now_ms: int
) -> None:
    """W2: the turn passes; while an attack is being resolved, the turn gets its time again."""
    turn = state.turn
    if turn is None or turn.timer_id != timer_id:
        return
    if state.pending is not None:
        due = now_ms + state.settings.turn_seconds * 1000
        turn.timer_id = arm_timer(state, out, "turn", due, dict(data))
        turn.deadline_ms = due
        return
    turn.timer_id = None
    out.emit("turn.timed_out", {"actor": turn.actor, "round": state.round})
    end_turn(state, out, now_ms, TurnEnd.TIMEOUT)
