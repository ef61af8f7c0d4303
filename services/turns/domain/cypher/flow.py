"""Rounds and turns of a cypher combat (seed 001 ASALTO, ACCIÓN, INICIATIVA, DAÑO ESPECIAL).

The state is a JSON-ready dict (see :func:`services.turns.domain.cypher.opening.new_state`). An
:class:`Out` collects the events and timers of one input, in order.
"""

from __future__ import annotations

from typing import Any, Final

from shared.dice.combat import keep_draws, rolled, stream_of
from shared.dice.rolls import roll
from shared.dict_state import Out, arm_timer, cancel_timer
from shared.domain import ms
from shared.messages import (
    COMBAT_ENDED,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
)

State = dict[str, Any]
PHASE_FIGHTING: Final = "fighting"
PHASE_ENDED: Final = "ended"
OUT_OF_FIGHT: Final = frozenset({"dead", "debilitated", "fled"})
INITIATIVE_ROLLED: Final = "initiative.rolled"


def npc_target_number(state: State) -> int | None:
    """B-1 / B-2: the highest target number among the NPCs (3 x level), if any."""
    levels = [int(s.get("level") or 1) for s in state["sheets"].values() if s.get("kind") == "npc"]
    return 3 * max(levels) if levels else None


def initiative_order(
    pcs: list[str], npcs: list[str], rolls: dict[str, int], npc_tn: int | None
) -> list[str]:
    """001 INICIATIVA, B-2: PCs whose roll is strictly above the NPCs' target number act
    before them, the rest after; PCs by roll, descending (ties keep the given order)."""
    ranked = sorted(pcs, key=lambda c: -rolls[c])
    before = [c for c in ranked if npc_tn is None or rolls[c] > npc_tn]
    after = [c for c in ranked if c not in before]
    return [*before, *npcs, *after]


def initiative(state: State, out: Out) -> list[str]:
    """001 INICIATIVA, B-2: every PC rolls a Speed roll (d20); those strictly above the
    highest NPC target number act before the NPCs, the rest after; among PCs, by roll,
    descending (ties keep the sides' order); NPCs in the sides' order. No NPC: by roll."""
    stream = stream_of(state, "turns")
    everyone = [*state["sides"]["attackers"], *state["sides"]["defenders"]]
    pcs = [c for c in everyone if state["sheets"][c].get("kind", "pc") == "pc"]
    npcs = [c for c in everyone if c not in pcs]
    rolls: dict[str, int] = {}
    for character in pcs:
        result = roll("1d20", stream, purpose=f"initiative (Speed) of {character}")
        rolls[character] = result.total
        out.events.append(rolled(result, roller=character, combat_id=str(state["id"])))
    keep_draws(state, stream)
    tn = npc_target_number(state)
    order = initiative_order(pcs, npcs, rolls, tn)
    state["initiative"] = rolls
    out.emit(
        INITIATIVE_ROLLED,
        {"rolls": rolls, "npc_target_number": tn, "order": order, "round": state["round"] + 1},
    )
    return order


def begin_round(state: State, out: Out, now_ms: int) -> None:
    """001 INICIATIVA: a new round in the same order as the first (re-rolled only when the
    GM asked for it, B-3); then its first turn."""
    if state.get("reroll_next_round"):
        state["order"] = initiative(state, out)
        state["reroll_next_round"] = False
    state["round"] += 1
    out.emit(ROUND_STARTED, {"round": state["round"], "turn_order": list(state["order"])})
    start_turn(state, out, now_ms, 0)


def start_turn(state: State, out: Out, now_ms: int, index: int) -> None:
    """001 ACCIÓN: one turn per character per round; the dead and the fled have none; a
    stunned character loses this turn (but still defends, B-15)."""
    while index < len(state["order"]):
        actor = state["order"][index]
        part = state["participants"][actor]
        if part["status"] in ("dead", "fled"):
            index += 1
            continue
        state["turn_index"] = index
        state["turn_seq"] += 1
        deadline = now_ms + ms(state["settings"]["turn_seconds"])
        payload = {
            "actor": actor,
            "index": index,
            "round": state["round"],
            "turn_seq": state["turn_seq"],
            "deadline_ms": deadline,
        }
        if part.get("stunned"):
            part["stunned"] = False
            out.emit(TURN_STARTED, {**payload, "skipped": "stunned"})
            out.emit(TURN_ENDED, _ended(state, actor, "stunned"))
            index += 1
            continue
        timer_id = arm_timer(state, out, "turn", deadline, {"turn_seq": state["turn_seq"]})
        state["turn"] = {
            "actor": actor,
            "deadline_ms": deadline,
            "timer_id": timer_id,
            "acted": False,
            "free_moved": False,
            "pending": None,
            "dazed_at_start": int(part.get("dazed_turns", 0)) > 0,
        }
        out.emit(TURN_STARTED, payload)
        return
    out.emit(ROUND_ENDED, {"round": state["round"]})
    state["turn"] = None
    if check_end(state, out, now_ms):
        return  # nobody left to take a turn: never a round without turns
    begin_round(state, out, now_ms)


def _ended(state: State, actor: str, reason: str) -> dict[str, Any]:
    return {
        "actor": actor,
        "reason": reason,
        "round": state["round"],
        "turn_seq": state["turn_seq"],
    }


def end_turn(state: State, out: Out, now_ms: int, reason: str) -> None:
    """The turn ends (acted, passed, timed out); dazed counts down at the end of a turn it
    was on at the start (B-18: normally one round); then the end check, then the next turn."""
    turn = state["turn"]
    assert turn is not None
    cancel_timer(state, out, turn["timer_id"])
    part = state["participants"][turn["actor"]]
    if turn.get("dazed_at_start") and int(part.get("dazed_turns", 0)) > 0:
        part["dazed_turns"] = int(part["dazed_turns"]) - 1
    out.emit(TURN_ENDED, _ended(state, turn["actor"], reason))
    state["turn"] = None
    if check_end(state, out, now_ms):
        return
    start_turn(state, out, now_ms, int(state["turn_index"]) + 1)


def side_out(state: State, side: str) -> bool:
    members = state["sides"][side]
    return all(state["participants"][c]["status"] in OUT_OF_FIGHT for c in members)


def check_end(state: State, out: Out, now_ms: int) -> bool:
    """The combat ends when a side is all dead, debilitated (it can do nothing but crawl,
    001 INDICADOR incapacitado: this referee's reading) or fled. Both at once: no winner."""
    attackers, defenders = side_out(state, "attackers"), side_out(state, "defenders")
    if not attackers and not defenders:
        return False
    winner = None if attackers and defenders else ("defenders" if attackers else "attackers")
    losers = [
        c for s in ("attackers", "defenders") if side_out(state, s) for c in state["sides"][s]
    ]
    all_fled = all(state["participants"][c]["status"] == "fled" for c in losers)
    end_combat(state, out, now_ms, winner=winner, reason="fled" if all_fled else "defeat")
    return True


def public_status(status: str) -> str:
    """API.md's participant status: active | down | fled (dead and debilitated are down)."""
    return {"dead": "down", "debilitated": "down"}.get(status, status)


def end_combat(
    state: State,
    out: Out,
    now_ms: int,
    *,
    winner: str | None,
    reason: str,
    annul: str | None = None,
) -> None:
    turn = state.get("turn")
    if turn is not None:
        cancel_timer(state, out, turn.get("timer_id"))
    for timer_id in list(state["timers"]):
        cancel_timer(state, out, timer_id)
    state["turn"] = None
    state["phase"] = PHASE_ENDED
    state["ended_at_ms"] = now_ms
    state["result"] = {"winner": winner, "reason": reason}
    participants = {
        c: {
            "side": p["side"],
            "status": public_status(p["status"]),
            "reached_zero_vit": p["status"] == "dead",
        }
        for c, p in state["participants"].items()
    }
    out.emit(
        COMBAT_ENDED,
        {
            "combat_id": state["id"],
            "ruleset": "cypher",
            "winner": winner,
            "reason": reason,
            "participants": participants,
            "ended_at_ms": now_ms,
            "room": state["room"],
            "annul_reason": annul,
            "conditions": state["participants"],
        },
    )
