"""Joining an l5r combat under way (seed 004, issue 17).

The seed opens a combat with every participant present ("Cada jugador presente hace una
tirada de Reflejos/Rango de reconocimiento"; "Sólo se hace una tirada para todo el
combate") and says nothing of someone arriving later. The reading taken: the platform's
``join`` puts him on a side; during the preparation round he is one more participant (he
posts ``ready`` and rolls with everyone); once the fight is on he rolls his own initiative
at once, the one roll of his combat, and takes his first turn from the next round, in the
order of initiative (the round under way keeps its order, Paso 2). No veto and no entry
skill: those are umh's (1.2.4).
"""

from __future__ import annotations

from pydantic import ValidationError

from services.turns.domain.l5r import rules, void_dice
from services.turns.domain.l5r.fighter import new_fighter
from services.turns.domain.l5r.state import L5rCombat
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import roll
from shared.errors import RuleViolation
from shared.messages import COMBATANT_JOINED
from shared.outcome import Outcome
from shared.payloads import ActOnCombat, CombatantJoined
from shared.rulesets.l5r.sheet import L5rSheet
from shared.rulesets.umh.actions import JoinAction
from shared.vocabulary import Phase, Side

RULE = "l5r Paso 1 (joining)"


def join(state: L5rCombat, out: Outcome, cmd: ActOnCombat, now_ms: int) -> None:
    """A fighter joins a side; in the fight he rolls his initiative now (Paso 1)."""
    action = cmd.action
    assert isinstance(action, JoinAction)
    if action.actor in state.participants:
        raise RuleViolation("already_in_combat", RULE, character=action.actor)
    if action.skill is not None or action.square is not None:
        raise RuleViolation("invalid_request", None, reason="an l5r join names no skill nor square")
    try:
        sheet = L5rSheet.model_validate(cmd.sheet or {})
    except ValidationError as exc:
        raise RuleViolation("ruleset_mismatch", RULE, expected="l5r") from exc
    side = Side(action.side)
    p = new_fighter(sheet, side, dict(cmd.weekly_uses))
    state.participants[action.actor] = p
    state.sides.setdefault(side, []).append(action.actor)
    joined = CombatantJoined(
        combat_id=state.id,
        ruleset="l5r",
        character=action.actor,
        side=action.side,
        via=action.via,
        joined_at_ms=now_ms,
        sheet=sheet.model_dump(mode="json"),
    )
    out.emit(COMBATANT_JOINED, joined.model_dump(mode="json"))
    if state.phase != Phase.FIGHTING:
        return
    p.ready = True
    dice = state.dice_of()
    stream = dice.stream("turns")
    spec = rules.initiative_spec(p.insight, p.reflexes, velocidad=False)
    result = roll(spec, stream, purpose=RollPurpose.INITIATIVE)
    dice.keep(stream)
    out.rolled(result, roller=action.actor, combat_id=state.id, action_id=cmd.action_id)
    void_dice.after_roll(state, out, action.actor, result.dice, cmd.action_id)
    p.initiative_roll = p.initiative = result.total
    out.emit(
        "initiative.rolled",
        {
            "character": action.actor,
            "spec": result.spec,
            "total": result.total,
            "from_round": state.round + 1,
            "rule": RULE,
        },
    )
