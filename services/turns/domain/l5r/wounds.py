"""What an l5r hit leaves on its target in services/turns (seed 004, C-7, C-12, C-22 - C-25,
T004-18 - T004-23): ``action.resolved`` of the pending attack applied, and the wounds with
their rank and penalty (the penalty changes the initiative at once, C-13)."""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import rules, void_dice
from services.turns.domain.l5r.fighter import Fighter, LastHit, Protection, Status
from services.turns.domain.l5r.state import L5rCombat, PendingAttack
from shared.messages import COMBATANT_DOWN
from shared.outcome import Outcome
from shared.rulesets.l5r.sheet import FALLEN


def set_wounds(
    state: L5rCombat, out: Outcome, cid: str, wounds: int, action_id: str | None
) -> None:
    """C-7: his wounds and their rank; ``combatant.down`` when it takes him out of the
    fight, ``wound_rank.changed`` when the rank moves."""
    p = state.participants[cid]
    was_active = p.status == Status.ACTIVE
    before, rank = p.set_rank(wounds)
    if was_active and rank in FALLEN:
        out.emit(
            COMBATANT_DOWN,
            {
                "character": cid,
                "action_id": action_id,
                "cause": "damage",
                "rank": str(rank),
                "rule": "l5r C-7",
            },
        )
    if rank != before:
        out.emit(
            "wound_rank.changed",
            {
                "character": cid,
                "from": str(before),
                "to": str(rank),
                "penalty": p.penalty,
                "rule": "l5r C-7",
            },
        )


def resolved(state: L5rCombat, out: Outcome, payload: dict[str, Any]) -> bool:
    """``action.resolved`` of the pending attack: wounds, knockdown, disarm, feint,
    protection; Curso de combate's bookkeeping (who hit or wounded whom since his last turn,
    C-12). Another action's answer: False."""
    pending = state.pending
    if pending is None or pending.action_id != payload.get("action_id"):
        return False
    state.pending = None
    p, foe = state.participants[pending.attacker], state.participants[pending.target]
    if int(payload.get("hits", 0)):
        hit_effects(state, pending, p, foe, payload)
    dealt = int(payload.get("wounds_dealt", 0))
    if dealt:
        foe.wounded_since_turn = True
        foe.last_hit = LastHit(
            action_id=pending.action_id, wounds=dealt, round=state.round, turn_seq=state.turn_seq
        )
        set_wounds(state, out, pending.target, int(payload["wounds_after"]), pending.action_id)
    out.emit("action.completed", {"action_id": pending.action_id, "attacker": pending.attacker})
    void_dice.after_resolved(state, out, payload)
    return True


def hit_effects(
    state: L5rCombat, pending: PendingAttack, p: Fighter, foe: Fighter, payload: dict[str, Any]
) -> None:
    """A hit: he hit this target (C-12); a feint's free raise (T004-23); knocked down
    (C-22), disarmed (C-23); an ally protected during the next round (C-25)."""
    target = pending.target
    if target not in p.hit_since_turn:
        p.hit_since_turn.append(target)
    if payload.get("feint"):
        p.feint[target] = p.feint.get(target, 0) + 1
    if payload.get("knocked_down"):
        foe.prone = True
    if payload.get("disarmed"):
        foe.disarmed = True
    protect = pending.protect
    if protect is not None:
        ally = state.participants[protect.ally]
        current = ally.protected[target].bonus if target in ally.protected else 0
        ally.protected[target] = Protection(
            bonus=rules.protect_bonus(current, protect.raises),
            round=state.round + 1,
            by=pending.attacker,
        )
