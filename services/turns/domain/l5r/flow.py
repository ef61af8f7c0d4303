"""The course of an l5r combat (004 "Resolución de combate"): preparation (Velocidad), the
initiative roll (Paso 1), rounds and turns in initiative order (Paso 2), Curso de combate at
each round's end (C-12), and the end (Paso 3; a side all Down, Out, dead or gone).
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import rules
from services.turns.domain.l5r.state import (
    ENDED,
    FIGHTING,
    OUT_OF_FIGHT,
    PREPARATION,
    SIDES,
    State,
    can_fight,
    fresh_round,
)
from shared.dice.combat import keep_draws, stream_of
from shared.dice.rolls import roll
from shared.dict_state import Out, arm_timer, cancel_timer
from shared.messages import (
    COMBAT_ENDED,
    COMBAT_PHASE_CHANGED,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
)
from shared.payloads import CombatEnded, CombatEndedParticipant, EndReason


def roll_initiative(state: State, out: Out, now_ms: int) -> None:
    """Paso 1 (C-2, C-6, T004-11): one roll per participant for the whole combat; ties broken
    by Reflexes, then the Void ring, then a d100 (C-11). Round 1 follows."""
    for tid, timer in list(state["timers"].items()):
        if timer["kind"] == "preparation":
            cancel_timer(state, out, tid)
    stream = stream_of(state, "turns")
    for cid, p in state["participants"].items():
        spec = rules.initiative_spec(p["insight"], p["reflexes"], velocidad=p["velocidad"])
        result = roll(spec, stream, purpose=f"initiative {cid}")
        out.rolled(state, result, cid)
        p["initiative_roll"] = result.total
        p["initiative"] = result.total
        out.emit(
            "initiative.rolled",
            {"character": cid, "spec": result.spec, "total": result.total, "rule": "l5r Paso 1"},
        )
    tied: dict[tuple[int, int, int], list[str]] = {}
    for cid, p in state["participants"].items():
        tied.setdefault((p["initiative"], p["reflexes"], p["void_max"]), []).append(cid)
    for group in tied.values():
        if len(group) > 1:
            for cid in group:
                tie = roll("1d100", stream, purpose=f"initiative tie-break {cid}")
                out.rolled(state, tie, cid)
                state["participants"][cid]["tiebreak"] = tie.total
    keep_draws(state, stream)
    previous = state["phase"]
    state["phase"] = FIGHTING
    out.emit(COMBAT_PHASE_CHANGED, {"from": previous, "to": FIGHTING})
    start_round(state, out, now_ms, 1)


def round_order(state: State) -> list[str]:
    """Paso 2: highest effective initiative first (wound penalties subtracted, C-13)."""
    ids = list(state["participants"])
    return sorted(ids, key=lambda c: rules.order_key(state["participants"][c], c))


def start_round(state: State, out: Out, now_ms: int, number: int) -> None:
    """A new round: per-round counters reset; protections older than a round lapse (C-25)."""
    state["round"] = number
    state["order"] = round_order(state)
    state["turn_index"] = -1
    for p in state["participants"].values():
        p["round"] = fresh_round()
        p["protected"] = {e: v for e, v in p["protected"].items() if int(v["round"]) >= number}
    out.emit(ROUND_STARTED, {"round": number, "order": list(state["order"])})
    next_turn(state, out, now_ms)


def next_turn(state: State, out: Out, now_ms: int) -> None:
    """The next participant in order who can act takes his turn; after the last, the round
    ends (Paso 3)."""
    order: list[str] = state["order"]
    index = int(state["turn_index"]) + 1
    while index < len(order) and not can_fight(state["participants"][order[index]]):
        index += 1
    if index >= len(order):
        end_round(state, out, now_ms)
        return
    state["turn_index"] = index
    actor = order[index]
    p = state["participants"][actor]
    # C-8 / G18 / G19: stances and Incremento del NO end when the player's turn starts.
    p["stance"], p["full_defense"], p["tn_boost"] = None, None, 0
    p["wounded_since_turn"], p["hit_since_turn"] = False, []
    state["turn_seq"] = int(state.get("turn_seq", 0)) + 1
    due = now_ms + int(state["settings"]["turn_seconds"]) * 1000
    timer = arm_timer(state, out, "turn", due, {"turn_seq": state["turn_seq"], "actor": actor})
    state["turn"] = {
        "actor": actor,
        "stance_declared": False,
        "timer_id": timer,
        "deadline_ms": due,
    }
    out.emit(
        TURN_STARTED,
        {
            "actor": actor,
            "index": index,
            "round": state["round"],
            "turn_seq": state["turn_seq"],
            "deadline_ms": due,
        },
    )


def end_turn(state: State, out: Out, now_ms: int, reason: str) -> None:
    """The turn is over (a pass, the timer, a Golpe final spent); a beaten side ends it all."""
    turn = state["turn"]
    if turn is None:
        return
    cancel_timer(state, out, turn.get("timer_id"))
    actor = turn["actor"]
    p = state["participants"][actor]
    if p.get("golpe_final") == "pending":
        p["golpe_final"] = "used"  # G23: his next turn (one action), then he falls
    out.emit(
        TURN_ENDED,
        {"actor": actor, "reason": reason, "round": state["round"], "turn_seq": state["turn_seq"]},
    )
    state["turn"] = None
    if end_if_beaten(state, out, now_ms):
        return
    next_turn(state, out, now_ms)


def delay_turn(state: State, out: Out, now_ms: int) -> bool:
    """Paso 2 (delay): act later this round; initiative is unchanged for later rounds."""
    order: list[str] = state["order"]
    index = int(state["turn_index"])
    actor = order[index]
    rest = [c for c in order[index + 1 :] if can_fight(state["participants"][c])]
    if not rest:
        return False
    state["order"] = order[:index] + order[index + 1 :] + [actor]
    state["turn_index"] = index - 1
    cancel_timer(state, out, state["turn"].get("timer_id"))
    out.emit("turn.delayed", {"actor": actor, "round": state["round"], "rule": "l5r Paso 2"})
    state["turn"] = None
    next_turn(state, out, now_ms)
    return True


def end_round(state: State, out: Out, now_ms: int) -> None:
    """Paso 3 and Curso de combate (C-12, T004-13): everyone not wounded since his last turn
    rolls 1d10 (not exploding) and adds it to his initiative, or subtracts it from an opponent
    he hit or wounded since then (his ``l5r.tide`` choice); then the next round."""
    out.emit(ROUND_ENDED, {"round": state["round"]})
    stream = stream_of(state, "turns")
    for cid, p in state["participants"].items():
        if p["status"] in OUT_OF_FIGHT or p["wounded_since_turn"]:
            continue
        die = rules.tide_roll(stream)
        out.rolled(state, die, cid)
        against = p.get("tide_against")
        foe = state["participants"].get(against) if against else None
        if foe is not None and against in p["hit_since_turn"]:
            _, foe["initiative"] = rules.apply_tide(
                p["initiative"], die.total, against=foe["initiative"]
            )
            target = against
        else:
            p["initiative"], _ = rules.apply_tide(p["initiative"], die.total)
            target = cid
        p["tide_against"] = None
        out.emit(
            "tide.rolled",
            {
                "character": cid,
                "die": die.total,
                "applied_to": target,
                "rule": "l5r Curso de combate",
            },
        )
    keep_draws(state, stream)
    if end_if_beaten(state, out, now_ms):
        return
    start_round(state, out, now_ms, int(state["round"]) + 1)


def beaten(state: State) -> list[str]:
    """A side none of whose members can fight (all Down, Out, dead or gone)."""
    return [
        side
        for side in SIDES
        if not any(can_fight(p) for p in state["participants"].values() if p["side"] == side)
    ]


def end_if_beaten(state: State, out: Out, now_ms: int) -> bool:
    if state["phase"] == ENDED:
        return True
    lost = beaten(state)
    if not lost:
        return False
    winner = None if len(lost) == 2 else ("defenders" if lost[0] == "attackers" else "attackers")
    losers = [p for p in state["participants"].values() if p["side"] in lost]
    reason: EndReason = "fled" if all(p["status"] == "fled" for p in losers) else "defeat"
    end_combat(state, out, now_ms, winner, reason)
    return True


def end_combat(
    state: State,
    out: Out,
    now_ms: int,
    winner: Any,
    reason: EndReason,
    annul_reason: str | None = None,
) -> None:
    """``combat.ended`` (CombatEnded), plus ``l5r``: each one's wound rank and Void left, for
    services/states (the pool between combats, T004-03)."""
    for tid in list(state["timers"]):
        cancel_timer(state, out, tid)
    previous = state["phase"]
    state["phase"] = ENDED
    state["turn"] = None
    state["pending"] = None
    state["ended_at_ms"] = now_ms
    state["result"] = {"winner": winner, "reason": reason, "annul_reason": annul_reason}
    out.emit(COMBAT_PHASE_CHANGED, {"from": previous, "to": ENDED})
    participants = {
        cid: CombatEndedParticipant(
            side=p["side"],
            status="fled"
            if p["status"] == "fled"
            else ("active" if p["status"] == "active" else "down"),
        )
        for cid, p in state["participants"].items()
    }
    ended = CombatEnded(
        combat_id=state["id"],
        ruleset="l5r",
        winner=winner,
        reason=reason,
        participants=participants,
        ended_at_ms=now_ms,
        room=state["room"],
        annul_reason=annul_reason,
    ).model_dump(mode="json")
    ended["l5r"] = {
        cid: {
            "wound_rank": p["rank"],
            "wounds": p["wounds"],
            "void_points": p["void"],
            "void_max": p["void_max"],
            "alentar_received": p["alentar_received"],
        }
        for cid, p in state["participants"].items()
    }
    out.emit(COMBAT_ENDED, ended)


def on_timer(state: State, timer_id: str, now_ms: int) -> Out | None:
    """RULES.md 7.1 W1 (preparation) and W2 (turn): the window ran out. Stale: ``None``."""
    if state["phase"] == ENDED or timer_id not in state["timers"]:
        return None
    armed = state["timers"].pop(timer_id)
    out = Out()
    if armed["kind"] == "preparation" and state["phase"] == PREPARATION:
        roll_initiative(state, out, now_ms)
    elif armed["kind"] == "turn":
        turn = state.get("turn")
        if turn is None or turn.get("timer_id") != timer_id:
            return out
        if state.get("pending"):  # an attack is being resolved: give the turn its time again
            due = now_ms + int(state["settings"]["turn_seconds"]) * 1000
            turn["timer_id"] = arm_timer(state, out, "turn", due, armed["data"])
            turn["deadline_ms"] = due
            return out
        turn["timer_id"] = None
        out.emit("turn.timed_out", {"actor": turn["actor"], "round": state["round"]})
        end_turn(state, out, now_ms, "timeout")
    return out
