"""The stance and movement of an l5r combatant in his turn (004 Paso 2, Posiciones de
combate, Mover / Correr; T004-15, T004-16, T004-28, C-15 - C-17, C-26)."""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import rules, void_dice
from services.turns.domain.l5r.fighter import Fighter, FullDefense, Stance
from services.turns.domain.l5r.state import L5rCombat
from shared.dice.notation import roll_and_keep
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import roll
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.rulesets.l5r.actions import L5rMove


def declare_stance(
    state: L5rCombat, out: Outcome, actor: str, p: Fighter, stance: Stance, action_id: str
) -> None:
    """Paso 2: the stance first; riding limits (T004-28, C-17); Full Defense rolls
    (Agility + Defense) k Agility (C-2), unskilled without ranks in Defense."""
    turn = state.current_turn()
    if turn.stance_declared:
        raise RuleViolation("stance_already_declared", "l5r Paso 2")
    if p.mounted and not rules.mounted_stance_allowed(
        stance,
        p.skill("horsemanship"),
        len(p.riding_techniques),
        state.settings.horsemanship_for_stances,
    ):
        raise RuleViolation(
            "action_not_allowed_in_stance", "l5r Montar a caballo", stance=str(stance)
        )
    p.stance = stance
    turn.stance_declared = True
    payload: dict[str, Any] = {"character": actor, "stance": str(stance), "round": state.round}
    if stance == Stance.FULL_DEFENSE:
        payload |= full_defense(state, out, actor, p, action_id)
    out.emit("stance.declared", {**payload, "rule": "l5r Posiciones de combate"})


def full_defense(
    state: L5rCombat, out: Outcome, actor: str, p: Fighter, action_id: str
) -> dict[str, Any]:
    """Defensa Total (T004-15, C-2): (Agility + Defense) k Agility, exploding when skilled;
    the wound penalty comes off (Paso 1, every roll); it covers Insight Rank opponents."""
    agility, rank = p.traits.agility, p.skill("defense")
    dice = state.dice_of()
    stream = dice.stream("turns")
    spec = roll_and_keep(agility + rank, agility, explode=rank > 0)
    result = roll(spec, stream, purpose=RollPurpose.FULL_DEFENSE)
    dice.keep(stream)
    out.rolled(result, roller=actor, combat_id=state.id, action_id=action_id)
    void_dice.after_roll(state, out, actor, result.dice, action_id)
    bonus = max(0, result.total - p.penalty)
    p.full_defense = FullDefense(bonus=bonus)
    return {"full_defense_bonus": bonus, "wound_penalty": p.penalty, "covers": p.insight}


def lose_full_defense(out: Outcome, actor: str, p: Fighter, why: str) -> None:
    """Defensa Total (C-15): an illegal action or moving more than half loses its benefits."""
    if p.full_defense is not None and not p.full_defense.lost:
        p.full_defense.lost = True
        out.emit(
            "stance.benefits_lost",
            {"character": actor, "reason": why, "rule": "l5r Posición: Defensa Total"},
        )


def move(state: L5rCombat, out: Outcome, action: L5rMove, p: Fighter) -> None:
    """Mover / Correr (T004-16, C-16): Water x 3 m as the round's movement simple action,
    Water x 9 m running (the whole turn); Full Defense keeps its benefits up to half."""
    stance = p.current_stance
    counters = p.round
    if p.mounted:
        # Montar a caballo: riding is movement; the matrix forbids it in Full Attack and
        # Full Defense (the stance itself was allowed only with a technique, C-17)
        rules.check_allowed(stance, "ride")
    horse = p.horse_movement if p.mounted else None
    limit, half = rules.move_limit(p.rings.water, action.mode, stance, horse)
    if action.mode == "run":
        rules.check_allowed(stance, "run")
        if counters.acted:
            raise RuleViolation("no_other_action_while_running", "l5r Correr")
        counters.ran = True
    else:
        if stance != Stance.FULL_DEFENSE:
            rules.check_allowed(stance, "move")
        if counters.move_actions >= 1:
            raise RuleViolation("movement_limit", "l5r Acción simple")
        p.use_slot("simple")
        counters.move_actions += 1
    if action.meters > limit:
        raise RuleViolation("movement_exceeded", "l5r Mover", meters=action.meters, max=limit)
    if stance == Stance.FULL_DEFENSE and action.meters > half:
        lose_full_defense(out, action.actor, p, "moved more than half")
    counters.moved += action.meters
    counters.acted = True
    break_concentration(state, out, action.actor)
    out.emit(
        "combatant.moved",
        {
            "character": action.actor,
            "mode": action.mode,
            "meters": action.meters,
            "max": limit,
            "mounted": p.mounted,
        },
    )


def break_concentration(state: L5rCombat, out: Outcome, mover: str) -> None:
    """Concentración (C-26): either one moving ends it."""
    for cid, q in state.participants.items():
        c = q.concentration
        if c is not None and (cid == mover or c.target == mover):
            q.concentration = None
            out.emit("concentration.lost", {"character": cid, "rule": "l5r Concentración"})
