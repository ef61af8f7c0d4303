"""Actions of docs/api.md "Endpoints": the checks every action shares, then its type's module.

Every action is checked, in order: the combat has not ended (``combat_ended``, umh 4.1.1);
``join`` (its actor is not a participant yet, umh 1.2.4), ``annul`` (a moderator's, umh
4.2.4) and ``resume`` (a moderator's, of a stalled combat: ``resuming``) go to their
modules; otherwise the actor is a participant (``not_in_combat``);
``reconnect`` goes to its module (umh 4.3.3); anyone else must be able to act: not down,
fled or out (``character_down``, umh 4.1.1), nor disconnected (``character_down``, umh
4.3.3: he reconnects first). Then the checks of the action's type, in its module:
``skills`` (skill), ``defending`` (react), ``basic_commands`` (move, pass_turn, stand_up),
``joins`` (join, veto_join), ``leaving`` (flee, disconnect, reconnect, pact, annul),
``preparation`` (equip, ready), ``thefts`` (steal, umh 4.2.5).
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.umh import (
    basic_commands,
    disputes,
    joins,
    leaving,
    preparation,
    resuming,
    thefts,
)
from services.turns.domain.umh.defending import react
from services.turns.domain.umh.participant import DISCONNECTED
from services.turns.domain.umh.skills import use_skill
from services.turns.domain.umh.state import CombatState
from shared.actions_base import (
    AnnulAction,
    FleeAction,
    PactAction,
    PassTurnAction,
    ReadyAction,
    ResumeAction,
)
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.payloads import ActOnCombat
from shared.rulesets.umh.actions import (
    DisconnectAction,
    DisputeAction,
    EquipAction,
    JoinAction,
    MoveAction,
    ReactAction,
    ReconnectAction,
    SkillAction,
    StandUpAction,
    StealAction,
    VetoJoinAction,
)
from shared.vocabulary import Phase


def act(state_dict: dict[str, Any], cmd: ActOnCombat, now_ms: int) -> Decision[dict[str, Any]]:
    """Dispatch one action after the checks every action shares."""
    state = CombatState.from_dict(state_dict)
    action = cmd.action
    if state.phase == Phase.ENDED:
        raise RuleViolation("combat_ended", "umh 4.1.1")
    out = Outcome()
    if isinstance(action, JoinAction):
        joins.join(state, out, cmd, now_ms)
        return out.decision(state)
    if isinstance(action, AnnulAction):
        leaving.annul(state, out, action, cmd.moderator, now_ms)
        return out.decision(state)
    if isinstance(action, DisputeAction):
        disputes.dispute(state, out, action)
        return out.decision(state)
    if isinstance(action, ResumeAction):
        resuming.resume(state, out, action, cmd, now_ms)
        return out.decision(state)
    actor = state.participant(action.actor)
    if isinstance(action, ReconnectAction):
        leaving.reconnect(state, out, action.actor, now_ms)
        return out.decision(state)
    if not actor.active:
        rule = "umh 4.3.3" if actor.status == DISCONNECTED else "umh 4.1.1"
        raise RuleViolation("character_down", rule, character=action.actor, status=actor.status)
    dispatch(state, out, cmd, now_ms)
    return out.decision(state)


def dispatch(state: CombatState, out: Outcome, cmd: ActOnCombat, now_ms: int) -> None:
    """The action's own module (its docstring gives the order of its checks)."""
    action = cmd.action
    if isinstance(action, SkillAction):
        use_skill(state, out, action, cmd.action_id, now_ms)
    elif isinstance(action, ReactAction):
        react(state, out, action, cmd.action_id, now_ms)
    elif isinstance(action, PassTurnAction):
        basic_commands.pass_turn(state, out, action, now_ms)
    elif isinstance(action, MoveAction):
        basic_commands.move(state, out, action)
    elif isinstance(action, StandUpAction):
        basic_commands.stand_up(state, out, action, cmd.action_id)
    elif isinstance(action, VetoJoinAction):
        joins.veto(state, out, action)
    elif isinstance(action, FleeAction):
        leaving.flee(state, out, action, now_ms)
    elif isinstance(action, DisconnectAction):
        leaving.disconnect(state, out, action.actor, now_ms)
    elif isinstance(action, PactAction):
        leaving.pact(state, out, action.actor, now_ms)
    elif isinstance(action, EquipAction):
        preparation.equip(state, out, action)
    elif isinstance(action, ReadyAction):
        preparation.ready(state, out, action.actor, now_ms)
    elif isinstance(action, StealAction):
        thefts.steal(state, out, action)
