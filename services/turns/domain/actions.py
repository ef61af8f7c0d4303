"""Actions of a participant (API.md "Actions"): checks in a documented order, then effects.

Every action is checked, in order: the combat has not ended (``combat_ended``, umh 4.1.1);
the actor is a participant (``not_in_combat``) and can still fight (``character_down``,
umh 4.1.1); then the checks of its type below. ``join`` and ``annul`` are answered with
``not_implemented`` before the membership checks, since their actor need not be a
participant.
"""

from __future__ import annotations

from typing import Any, Final

from services.turns.domain.flow import end_turn, pause_turn
from services.turns.domain.outcome import Outcome
from services.turns.domain.reactions import (
    answer,
    declare,
    open_reactions,
    request_resolution_if_ready,
)
from services.turns.domain.state import (
    OPEN,
    PHASE_ENDED,
    PHASE_FIGHTING,
    PHASE_OPENING,
    CombatState,
    InFlight,
    Participant,
    SkillInfo,
)
from shared.actions import PassTurnAction, ReactAction, SkillAction
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.messages import TURN_PAUSED
from shared.payloads import ActOnCombat

# Action types of API.md that this slice does not referee yet, with the rule they need.
NOT_IMPLEMENTED: Final[dict[str, str]] = {
    "move": "umh 2.3.2",
    "join": "umh 1.2.4",
    "veto_join": "umh 1.2.4.1",
    "flee": "umh 4.1.1.1",
    "equip": "umh 1.3.2",
    "disconnect": "umh 4.3.3",
    "reconnect": "umh 4.3.3",
    "pact": "umh 4.1.1.3",
    "annul": "umh 4.2.4",
    "stand_up": "umh 11.5.2",
    "ready": "umh 1.3.1",
}
# Their actor is not (or need not be) a participant.
WITHOUT_MEMBERSHIP: Final = frozenset({"join", "annul"})

# Defense kinds (umh 8.2) not refereed yet; internal and external ones are (9.2.4 - 9.2.5).
DEFENSES_NOT_IMPLEMENTED: Final[dict[str, str]] = {
    "evasion": "umh 8.2.1",
    "anticipation": "umh 8.2.2",
    "annulment": "umh 8.2.3",
    "counter": "umh 8.2.4",
    "reflection": "umh 8.2.5",
}


def act(state_dict: dict[str, Any], cmd: ActOnCombat, now_ms: int) -> Decision[dict[str, Any]]:
    """Dispatch one action after the checks every action shares."""
    state = CombatState.from_dict(state_dict)
    action = cmd.action
    if state.phase == PHASE_ENDED:
        raise RuleViolation("combat_ended", "umh 4.1.1")
    if action.type in WITHOUT_MEMBERSHIP:
        raise RuleViolation("not_implemented", NOT_IMPLEMENTED[action.type], type=action.type)
    actor = state.participant(action.actor)
    if not actor.active:
        raise RuleViolation("character_down", "umh 4.1.1", character=action.actor)
    out = Outcome()
    if isinstance(action, SkillAction):
        use_skill(state, out, action, cmd.action_id, now_ms)
    elif isinstance(action, ReactAction):
        react(state, out, action)
    elif isinstance(action, PassTurnAction):
        pass_turn(state, out, action, now_ms)
    else:
        raise RuleViolation("not_implemented", NOT_IMPLEMENTED[action.type], type=action.type)
    return out.decision(state)


def require_own_turn(state: CombatState, actor: str) -> None:
    """umh 2.4.1 / 2.4.2: only the current actor acts, and not while a defense is pending."""
    if state.turn is None or state.turn.actor != actor:
        current = state.turn.actor if state.turn else None
        raise RuleViolation("not_your_turn", "umh 2.4.1", current=current)
    if state.awaiting_defense():
        raise RuleViolation("reaction_pending", "umh 2.4.2")


def known_skill(actor: Participant, name: str, rule: str) -> SkillInfo:
    """umh 3.1.2: a skill of the actor's sheet, by case-insensitive name."""
    skill = actor.skill(name)
    if skill is None:
        raise RuleViolation("unknown_skill", rule, skill=name)
    return skill


def check_pa(actor: Participant, skill: SkillInfo) -> None:
    """umh 3.1.2 / 3.1.1: the skill's PA cost must be left this round."""
    if skill.pa > actor.pa:
        raise RuleViolation("insufficient_pa", "umh 3.1.2", needed=skill.pa, left=actor.pa)


def check_refereed(skill: SkillInfo, targets: list[Any]) -> None:
    """Combos (umh 8.1.1.1.1), areas and square targets (6.1.1) come in a later slice."""
    if skill.hits > 1:
        raise RuleViolation("not_implemented", "umh 8.1.1.1.1", skill=skill.name)
    if skill.area is not None:
        raise RuleViolation("not_implemented", "umh 6.1.1", skill=skill.name)
    if any(not isinstance(t, str) for t in targets):
        raise RuleViolation("not_implemented", "umh 6.1.1", skill=skill.name)


def character_targets(state: CombatState, actor: str, targets: list[Any]) -> list[str]:
    """umh 1.1.2 / 8.1.1.3.1: declared targets, each a distinct participant still fighting."""
    if not targets:
        raise RuleViolation("targets_not_declared", "umh 1.1.2")
    names = [t for t in targets if isinstance(t, str)]
    if len(set(names)) != len(names):
        raise RuleViolation("invalid_target", "umh 1.1.2", targets=names)
    for target in names:
        if not state.participant(target).active:
            raise RuleViolation("character_down", "umh 4.1.1", character=target)
        if target == actor:
            raise RuleViolation("invalid_target", "umh 8.1.1.1", character=target)
    return names


def supplementary_targets(state: CombatState, targets: list[Any]) -> list[str]:
    """umh 8.1.1.2: the user, an ally or the field; named characters must be participants."""
    names = [t for t in targets if isinstance(t, str)]
    for target in names:
        state.participant(target)
    return names


def use_skill(
    state: CombatState, out: Outcome, action: SkillAction, action_id: str, now_ms: int
) -> None:
    """umh 2.3.1 / 2.4.2 / 8.1: an offensive or supplementary skill in the own turn.

    Order: phase (2.1.1), own turn (2.4.1), no pending defense (2.4.2), known skill
    (3.1.2), not defensive (8.1.1.3), refereed shape (8.1.1.1.1, 6.1.1), PA (3.1.2),
    targets. An offensive skill opens one defense window per target and pauses the
    actor's clock; a supplementary one goes straight to resolution.
    """
    if state.phase != PHASE_FIGHTING:
        raise RuleViolation("wrong_phase", "umh 2.1.1", phase=state.phase)
    require_own_turn(state, action.actor)
    actor = state.participants[action.actor]
    skill = known_skill(actor, action.skill, "umh 3.1.2")
    if skill.type == "defensive":
        raise RuleViolation("no_trigger", "umh 8.1.1.3", skill=skill.name)
    check_refereed(skill, list(action.targets))
    check_pa(actor, skill)
    offensive = skill.type == "offensive"
    targets = (
        character_targets(state, action.actor, list(action.targets))
        if offensive
        else supplementary_targets(state, list(action.targets))
    )
    if action_id in state.actions:
        raise RuleViolation("invalid_request", None, action_id=action_id)
    actor.pa -= skill.pa
    flight = InFlight(action.actor, skill.name, targets, False, state.round, state.turn_seq)
    declare(state, out, action_id, flight, skill.pa)
    if not offensive:
        request_resolution_if_ready(state, out, action_id)
        return
    open_reactions(state, out, action_id, now_ms)
    remaining = pause_turn(state, out, now_ms)
    out.emit(TURN_PAUSED, {"actor": action.actor, "remaining_ms": remaining})


def react(state: CombatState, out: Outcome, action: ReactAction) -> None:
    """umh 8.1.1.3 / 2.4.2: answer one's own open defense window.

    Order: phase (opening or fighting), an open window for the actor on that action,
    RESISTIR (7.1.2.3, later), then with a skill: known, defensive (8.1.1.3), a refereed
    kind (internal / external; 8.2.x later), PA (3.1.2). ``skill: null`` takes the hit.
    """
    if state.phase not in (PHASE_OPENING, PHASE_FIGHTING):
        raise RuleViolation("wrong_phase", "umh 2.4.2", phase=state.phase)
    flight = state.actions.get(action.action_id)
    reaction = flight.reactions.get(action.actor) if flight else None
    if reaction is None or reaction.status != OPEN:
        raise RuleViolation("no_pending_reaction", "umh 8.1.1.3", action_id=action.action_id)
    if action.resist:
        raise RuleViolation("not_implemented", "umh 7.1.2.3")
    skill_name: str | None = None
    if action.skill is not None:
        actor = state.participants[action.actor]
        skill = known_skill(actor, action.skill, "umh 8.1.1.3")
        if skill.type != "defensive":
            raise RuleViolation("not_a_defense", "umh 8.1.1.3", skill=skill.name)
        kind = skill.defense_kind or ""
        if kind in DEFENSES_NOT_IMPLEMENTED:
            raise RuleViolation("not_implemented", DEFENSES_NOT_IMPLEMENTED[kind], kind=kind)
        check_pa(actor, skill)
        actor.pa -= skill.pa
        skill_name = skill.name
    answer(state, out, action.action_id, action.actor, skill_name, False)


def pass_turn(state: CombatState, out: Outcome, action: PassTurnAction, now_ms: int) -> None:
    """umh 2.3.3 PASO TURNO: the actor ends his own turn; not while a defense is pending."""
    if state.phase != PHASE_FIGHTING:
        raise RuleViolation("wrong_phase", "umh 2.3.3", phase=state.phase)
    require_own_turn(state, action.actor)
    end_turn(state, out, now_ms, "passed")
