"""The actions of an l5r combatant's own turn (004 Paso 2, Acciones durante el asalto):
attack, move, simple and complex actions, standing up, concentrating, the Void in his turn.
The stance matrix (T004-27, C-30) and the round's slots (C-18) are checked first."""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import attack, complex, moving, rules, voiding
from services.turns.domain.l5r.fighter import Concentration, Fighter
from services.turns.domain.l5r.state import L5rCombat
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.rulesets.l5r.actions import (
    L5rAttack,
    L5rComplex,
    L5rConcentrate,
    L5rMove,
    L5rReady,
    L5rSimple,
    L5rStandUp,
    L5rVoid,
)


def in_turn(state: L5rCombat, out: Outcome, action_id: str, action: Any, p: Fighter) -> None:
    """Dispatch one action of his turn to its rule."""
    actor = action.actor
    if isinstance(action, L5rAttack):
        attack.declare(state, out, action_id, action)
    elif isinstance(action, L5rMove):
        moving.move(state, out, action, p)
    elif isinstance(action, L5rSimple):
        rules.check_allowed(p.current_stance, "simple")
        p.use_slot("simple")
        p.round.acted = True
        out.emit("simple_action.taken", {"character": actor, "description": action.description})
    elif isinstance(action, L5rComplex):
        complex.complex_action(state, out, action, p, action_id)
    elif isinstance(action, L5rStandUp):
        stand_up(out, actor, p)
    elif isinstance(action, L5rConcentrate):
        concentrate(state, out, action, p)
    elif isinstance(action, L5rVoid):
        voiding.on_turn(state, out, action, p)
    elif isinstance(action, L5rReady):
        raise RuleViolation("wrong_phase", "l5r Paso 1", phase=str(state.phase))
    else:
        raise RuleViolation("invalid_request", None, reason=f"{action.type} not handled")


def stand_up(out: Outcome, actor: str, p: Fighter) -> None:
    """Ponerte en pie (T004-25): standing is the round's complex action and its attack."""
    if not p.prone:
        raise RuleViolation("not_prone", "l5r Ponerte en pie")
    rules.check_allowed(p.current_stance, "stand_up")
    p.use_slot("complex")
    p.round.attacks += 1  # T004-25: standing is the action
    p.round.acted = True
    p.prone = False
    out.emit("combatant.stood_up", {"character": actor, "rule": "l5r Ponerte en pie"})


def concentrate(state: L5rCombat, out: Outcome, action: L5rConcentrate, p: Fighter) -> None:
    """Concentración (T004-17, C-26): a complex action on an opponent, instead of attacking;
    one more round on the same target, at most the Void ring."""
    foe = state.participants.get(action.target)
    if foe is None or foe.side == p.side:
        raise RuleViolation("not_an_opponent", "l5r Concentración", target=action.target)
    rules.check_allowed(p.current_stance, "complex")
    if p.round.attacks:
        raise RuleViolation("attack_limit", "l5r Concentración")
    p.use_slot("complex")
    p.round.attacks += 1  # the round is spent concentrating
    p.round.acted = True
    c = p.concentration
    before = c.rounds if c is not None and c.target == action.target else 0
    rounds = rules.concentration_rounds(before, p.rings.void)
    p.concentration = Concentration(target=action.target, rounds=rounds)
    out.emit(
        "concentration.gained",
        {
            "character": action.actor,
            "target": action.target,
            "rounds": rounds,
            "rule": "l5r Concentración",
        },
    )
