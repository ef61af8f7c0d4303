"""One action in a cypher combat (seed 001): who may act, and what is handed to resolution.

Checks, in order (the first failing one is raised): the combat is not over
(``combat_ended``); moderator actions (annul, resume, reroll); the actor fights
(``not_in_combat``) and is not dead (``dead``, 001 INDICADOR muerto); no resolution is in
flight (``resolution_pending``); it is his turn (``not_your_turn``) and he has not acted
(``one_action_per_turn``, 001 ACCIÓN); then the action's own rules (debilitated,
paralysis, range, stat, cover, water, Effort).
"""

from __future__ import annotations

from services.turns.domain.cypher import checks, declared, resuming
from services.turns.domain.cypher.flow import end_combat, end_turn
from services.turns.domain.cypher.state import CypherCombat, Pending, TurnEnd
from shared.actions import Action
from shared.actions_base import AnnulAction, FleeAction, ReadyAction, ResumeAction
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.messages import ACTION_DECLARED, COMBATANT_FLED, RESOLUTION_REQUESTED
from shared.outcome import Outcome, State
from shared.payloads import ActOnCombat
from shared.rulesets.cypher.actions import (
    CypherAttack,
    CypherDefend,
    CypherGenericAction,
    CypherInflict,
    CypherIntrusion,
    CypherMove,
    CypherPass,
    CypherRecover,
    CypherRerollInitiative,
)
from shared.rulesets.cypher.conditions import Condition, Status
from shared.vocabulary import EndReason

MOVED = "combatant.moved"
REROLL_REQUESTED = "initiative.reroll_requested"
GENERIC = frozenset({"annul", "resume", "flee", "pass_turn", "ready"})
"""docs/api.md actions that cypher referees too; the other umh ones are ``not_implemented``."""


def act(state: CypherCombat, cmd: ActOnCombat, now_ms: int) -> Decision[State]:
    """One action, its checks in the module's order."""
    action = cmd.action
    if state.ended:
        raise RuleViolation("combat_ended", "cypher ASALTO")
    if not action.type.startswith("cypher.") and action.type not in GENERIC:
        raise RuleViolation("not_implemented", "cypher", type=action.type)
    shared_words(action)
    out = Outcome()
    if isinstance(action, AnnulAction | CypherRerollInitiative):
        moderate(state, cmd, out, now_ms)
        return out.decision(state)
    if isinstance(action, ResumeAction):
        resuming.resume(state, out, action, cmd, now_ms)
        return out.decision(state)
    if isinstance(action, CypherDefend | CypherIntrusion):
        declared.declare(state, cmd, out)
        return out.decision(state)
    if state.turn is not None and state.turn.pending is not None:
        raise RuleViolation(
            "resolution_pending", "cypher ACCIÓN", action_id=state.turn.pending.action_id
        )
    if isinstance(action, CypherInflict):
        inflict(state, cmd, action, out)
        return out.decision(state)
    in_turn(state, cmd, out, now_ms)
    return out.decision(state)


def shared_words(action: Action) -> None:
    """One vocabulary for every ruleset: ``pass_turn`` and ``flee`` are refereed below;
    ``ready`` ends a preparation round, and a cypher combat has none (it starts fighting,
    001 INICIATIVA): ``wrong_phase``. An escape skill is umh's: a cypher flight names none."""
    if isinstance(action, ReadyAction):
        raise RuleViolation("wrong_phase", "cypher INICIATIVA", phase="fighting")
    if isinstance(action, FleeAction) and action.skill is not None:
        raise RuleViolation("invalid_request", None, reason="a cypher flight names no skill")


def moderate(state: CypherCombat, cmd: ActOnCombat, out: Outcome, now_ms: int) -> None:
    """A moderator annuls the combat (umh 4.2.4 as the platform's) or asks for initiative to
    be rolled again next round (B-3)."""
    action = cmd.action
    if not cmd.moderator:
        raise RuleViolation("forbidden", None, needs="moderator")
    if isinstance(action, AnnulAction):
        end_combat(state, out, now_ms, winner=None, reason=EndReason.ANNULLED, annul=action.reason)
        return
    state.reroll_next_round = True
    out.emit(REROLL_REQUESTED, {"by": action.actor, "from_round": state.round + 1})


def in_turn(state: CypherCombat, cmd: ActOnCombat, out: Outcome, now_ms: int) -> None:
    """001 ACCIÓN: the actor's own turn; one action, and a free move (B-20)."""
    action = cmd.action
    part = state.fighter(action.actor)
    if part.status == Status.DEAD:
        raise RuleViolation("dead", "cypher INDICADOR (muerto)", character=action.actor)
    turn = state.turn
    if turn is None or turn.actor != action.actor:
        raise RuleViolation("not_your_turn", "cypher ACCIÓN (turn)", turn=turn and turn.actor)
    if isinstance(action, CypherMove) and action.distance == "immediate":
        free_move(state, action, part, out)
        return
    if turn.acted:
        raise RuleViolation("one_action_per_turn", "cypher ACCIÓN (turn)")
    if isinstance(action, CypherPass) or action.type == "pass_turn":
        turn.acted = True
        end_turn(state, out, now_ms, TurnEnd.PASSED)
        return
    if part.status == Status.DEBILITATED:
        raise RuleViolation(
            "debilitated", "cypher INDICADOR (incapacitado)", allowed="cypher.move immediate"
        )
    if isinstance(action, CypherMove):
        move(state, cmd, action, part, out, now_ms)
    elif action.type == "flee":
        flee(state, action.actor, part, out, now_ms)
    else:
        checked(state, action, part)
        turn.acted = True
        handoff(state, cmd, out, ends_turn=True)


def checked(state: CypherCombat, action: Action, part: Condition) -> None:
    """The action's own checks (:mod:`checks`); what cypher does not referee is refused."""
    if isinstance(action, CypherAttack):
        checks.check_attack(state, action, part)
    elif isinstance(action, CypherGenericAction):
        checks.check_generic(state, action, part)
    elif isinstance(action, CypherRecover):
        checks.check_recover(action, part)
    else:
        raise RuleViolation("not_implemented", "cypher", type=action.type)


def free_move(state: CypherCombat, action: CypherMove, part: Condition, out: Outcome) -> None:
    """001 DISTANCIA, B-20: a move within immediate range is part of another action (once a
    turn, before or after it); a debilitated character may crawl it, not with Speed 0."""
    if part.paralyzed:
        raise RuleViolation("paralyzed", "cypher DAÑO ESPECIAL (parálisis)")
    if part.status == Status.DEBILITATED and part.kind == "pc" and part.pool("speed") <= 0:
        raise RuleViolation("debilitated", "cypher INDICADOR (incapacitado)", speed=0)
    turn = state.current_turn()
    if turn.free_moved:
        raise RuleViolation("one_action_per_turn", "cypher DISTANCIA (free move), B-20")
    turn.free_moved = True
    out.emit(MOVED, {"character": action.actor, "distance": "immediate", "free": True})


def move(
    state: CypherCombat,
    cmd: ActOnCombat,
    action: CypherMove,
    part: Condition,
    out: Outcome,
    now_ms: int,
) -> None:
    """001 DISTANCIA: a short move is the whole turn; a long move a Speed roll (B-21)."""
    if part.paralyzed:
        raise RuleViolation("paralyzed", "cypher DAÑO ESPECIAL (parálisis)")
    state.current_turn().acted = True
    if action.distance == "short" or not action.roll:
        out.emit(MOVED, {"character": action.actor, "distance": action.distance, "free": False})
        end_turn(state, out, now_ms, TurnEnd.MOVED)
        return
    handoff(state, cmd, out, ends_turn=True)


def flee(state: CypherCombat, actor: str, part: Condition, out: Outcome, now_ms: int) -> None:
    """Leaving the fight is the turn's action (a move away); the combat may end (fled)."""
    if part.paralyzed:
        raise RuleViolation("paralyzed", "cypher DAÑO ESPECIAL (parálisis)")
    part.status = Status.FLED
    state.current_turn().acted = True
    out.emit(
        COMBATANT_FLED,
        {
            "combat_id": state.id,
            "ruleset": "cypher",
            "character": actor,
            "side": str(part.side),
            "fled_at_ms": now_ms,
        },
    )
    end_turn(state, out, now_ms, TurnEnd.FLED)


def inflict(state: CypherCombat, cmd: ActOnCombat, action: CypherInflict, out: Outcome) -> None:
    """Moderator: special damage the GM declares (001 DAÑO automatic steps, DAÑO ESPECIAL)."""
    if not cmd.moderator:
        raise RuleViolation("forbidden", None, needs="moderator")
    target = state.participants.get(action.target)
    if target is None or target.status in (Status.DEAD, Status.FLED):
        raise RuleViolation("invalid_target", "cypher DAÑO ESPECIAL", target=action.target)
    handoff(state, cmd, out, ends_turn=False)


def handoff(state: CypherCombat, cmd: ActOnCombat, out: Outcome, *, ends_turn: bool) -> None:
    """``action.declared`` for everyone and ``resolution.requested`` with the conditions
    involved; the turn waits for ``action.resolved``."""
    action = cmd.action
    involved = [action.actor]
    target = getattr(action, "target", None)
    if target and target not in involved:
        involved.append(target)
    involved = [c for c in involved if c in state.participants]
    state.current_turn().pending = Pending(action_id=cmd.action_id, ends_turn=ends_turn)
    out.emit(
        ACTION_DECLARED,
        {
            "ruleset": "cypher",
            "action_id": cmd.action_id,
            "attacker": action.actor,
            "skill": action.type,
            "targets": [target] if target else [],
            "round": state.round,
            "offensive": isinstance(action, CypherAttack),
            "general_action": True,
        },
    )
    out.emit(
        RESOLUTION_REQUESTED,
        {
            "ruleset": "cypher",
            "action_id": cmd.action_id,
            "action": action.model_dump(mode="json"),
            "conditions": {c: state.participants[c].to_dict() for c in involved},
            "round": state.round,
            "literal_low_light": state.settings.literal_low_light,
            **declared.for_request(state, action),
        },
    )
