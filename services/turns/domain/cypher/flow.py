"""Rounds and turns of a cypher combat (seed 001 ASALTO, ACCIÓN, INICIATIVA, DAÑO ESPECIAL).

Functions work on a parsed :class:`CypherCombat`; an :class:`Outcome` collects the events and
timers of one input, in order.
"""

from __future__ import annotations

from typing import Any, Final

from services.turns.domain.cypher.state import CypherCombat, Result, Turn, TurnEnd
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import roll
from shared.domain import ms
from shared.messages import (
    COMBAT_ENDED,
    ROUND_ENDED,
    ROUND_STARTED,
    TURN_ENDED,
    TURN_STARTED,
)
from shared.outcome import Outcome, arm_timer, cancel_timer
from shared.rulesets.cypher.conditions import GONE, Status, dumped
from shared.vocabulary import SIDES, EndReason, Phase, PublicStatus, Side

INITIATIVE_ROLLED: Final = "initiative.rolled"


def npc_target_number(state: CypherCombat) -> int | None:
    """B-1 / B-2: the highest target number among the NPCs (3 x level), if any."""
    levels = [s.level or 1 for s in state.sheets.values() if s.kind == "npc"]
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


def initiative(state: CypherCombat, out: Outcome) -> list[str]:
    """001 INICIATIVA, B-2: every PC rolls a Speed roll (d20); those strictly above the
    highest NPC target number act before the NPCs, the rest after; among PCs, by roll,
    descending (ties keep the sides' order); NPCs in the sides' order. No NPC: by roll."""
    dice = state.dice_of()
    stream = dice.stream("turns")
    everyone = [*state.sides[Side.ATTACKERS], *state.sides[Side.DEFENDERS]]
    pcs = [c for c in everyone if state.sheets[c].kind == "pc"]
    npcs = [c for c in everyone if c not in pcs]
    rolls: dict[str, int] = {}
    for character in pcs:
        result = roll("1d20", stream, purpose=RollPurpose.INITIATIVE)
        rolls[character] = result.total
        out.rolled(result, roller=character, combat_id=state.id)
    dice.keep(stream)
    tn = npc_target_number(state)
    order = initiative_order(pcs, npcs, rolls, tn)
    state.initiative = rolls
    out.emit(
        INITIATIVE_ROLLED,
        {"rolls": rolls, "npc_target_number": tn, "order": order, "round": state.round + 1},
    )
    return order


def begin_round(state: CypherCombat, out: Outcome, now_ms: int) -> None:
    """001 INICIATIVA: a new round in the same order as the first (re-rolled only when the
    GM asked for it, B-3); then its first turn."""
    if state.reroll_next_round:
        state.order = initiative(state, out)
        state.reroll_next_round = False
    state.round += 1
    out.emit(ROUND_STARTED, {"round": state.round, "turn_order": list(state.order)})
    start_turn(state, out, now_ms, 0)


def start_turn(state: CypherCombat, out: Outcome, now_ms: int, index: int) -> None:
    """001 ACCIÓN: one turn per character per round; the dead and the fled have none; a
    stunned character loses this turn (but still defends, B-15)."""
    while index < len(state.order):
        actor = state.order[index]
        part = state.participants[actor]
        if part.status in GONE:
            index += 1
            continue
        state.turn_index = index
        state.turn_seq += 1
        deadline = now_ms + ms(state.settings.turn_seconds)
        payload = {
            "actor": actor,
            "index": index,
            "round": state.round,
            "turn_seq": state.turn_seq,
            "deadline_ms": deadline,
        }
        if part.stunned:
            part.stunned = False
            out.emit(TURN_STARTED, {**payload, "skipped": "stunned"})
            out.emit(TURN_ENDED, _ended(state, actor, TurnEnd.STUNNED))
            index += 1
            continue
        timer_id = arm_timer(state, out, "turn", deadline, {"turn_seq": state.turn_seq})
        state.turn = Turn(
            actor=actor, deadline_ms=deadline, timer_id=timer_id, dazed_at_start=part.dazed
        )
        out.emit(TURN_STARTED, payload)
        return
    out.emit(ROUND_ENDED, {"round": state.round})
    state.turn = None
    if check_end(state, out, now_ms):
        return  # nobody left to take a turn: never a round without turns
    begin_round(state, out, now_ms)


def _ended(state: CypherCombat, actor: str, reason: TurnEnd) -> dict[str, Any]:
    return {
        "actor": actor,
        "reason": str(reason),
        "round": state.round,
        "turn_seq": state.turn_seq,
    }


def end_turn(state: CypherCombat, out: Outcome, now_ms: int, reason: TurnEnd) -> None:
    """The turn ends (acted, passed, timed out); dazed counts down at the end of a turn it
    was on at the start (B-18: normally one round); then the end check, then the next turn."""
    turn = state.current_turn()
    cancel_timer(state, out, turn.timer_id)
    part = state.participants[turn.actor]
    if turn.dazed_at_start and part.dazed:
        part.dazed_turns -= 1
    out.emit(TURN_ENDED, _ended(state, turn.actor, reason))
    state.turn = None
    if check_end(state, out, now_ms):
        return
    start_turn(state, out, now_ms, state.turn_index + 1)


def check_end(state: CypherCombat, out: Outcome, now_ms: int) -> bool:
    """The combat ends when a side is all dead, debilitated (it can do nothing but crawl,
    001 INDICADOR incapacitado: this referee's reading) or fled. Both at once: no winner."""
    attackers, defenders = state.side_out(Side.ATTACKERS), state.side_out(Side.DEFENDERS)
    if not attackers and not defenders:
        return False
    winner = None if attackers and defenders else (Side.DEFENDERS if attackers else Side.ATTACKERS)
    losers = [c for s in SIDES if state.side_out(s) for c in state.sides[s]]
    all_fled = all(state.participants[c].status == Status.FLED for c in losers)
    reason = EndReason.FLED if all_fled else EndReason.DEFEAT
    end_combat(state, out, now_ms, winner=winner, reason=reason)
    return True


def public_status(status: Status) -> PublicStatus:
    """docs/api.md's participant status: active | down | fled (dead and debilitated are down)."""
    if status in (Status.DEAD, Status.DEBILITATED):
        return PublicStatus.DOWN
    return PublicStatus(str(status))


def ended_participants(state: CypherCombat) -> dict[str, dict[str, Any]]:
    """Each one's side and docs/api.md status in ``combat.ended``; the dead reached "zero"."""
    return {
        c: {
            "side": str(p.side),
            "status": str(public_status(p.status)),
            "reached_zero_vit": p.status == Status.DEAD,
        }
        for c, p in state.participants.items()
    }


def end_combat(
    state: CypherCombat,
    out: Outcome,
    now_ms: int,
    *,
    winner: Side | None,
    reason: EndReason,
    annul: str | None = None,
) -> None:
    """The combat ends: every timer cancelled, ``combat.ended`` with each one's condition
    (services/states keeps a PC's pools and track, 001 RECUPERAR)."""
    if state.turn is not None:
        cancel_timer(state, out, state.turn.timer_id)
    for timer_id in list(state.timers):
        cancel_timer(state, out, timer_id)
    state.turn = None
    state.phase = Phase.ENDED
    state.ended_at_ms = now_ms
    state.result = Result(winner=winner, reason=reason)
    out.emit(
        COMBAT_ENDED,
        {
            "combat_id": state.id,
            "ruleset": "cypher",
            "winner": None if winner is None else str(winner),
            "reason": str(reason),
            "participants": ended_participants(state),
            "ended_at_ms": now_ms,
            "room": state.room,
            "annul_reason": annul,
            "conditions": dumped(state.participants),
        },
    )
