"""Leaving a combat and ending it by agreement (umh 4.1.1.1 HUIR, 4.3.3 disconnection,
4.1.1.3 pact, 4.2.4 annulment)."""

from __future__ import annotations

from services.turns.domain.umh import conditions, economy, limits
from services.turns.domain.umh.acting import acting_context, known_skill
from services.turns.domain.umh.ending import end_combat, end_if_agreed
from services.turns.domain.umh.events import PACT_OFFERED
from services.turns.domain.umh.participant import ACTIVE, DISCONNECTED, FLED, SkillInfo
from services.turns.domain.umh.progress import move_on
from services.turns.domain.umh.reactions import close_windows_of
from services.turns.domain.umh.state import CombatState
from shared.actions_base import AnnulAction, FleeAction
from shared.domain import ms
from shared.errors import RuleViolation
from shared.messages import COMBATANT_DISCONNECTED, COMBATANT_FLED, COMBATANT_RECONNECTED
from shared.outcome import Outcome, arm_timer, cancel_timer
from shared.payloads import CombatantFled
from shared.vocabulary import EndReason, Phase


def flight_skill(state: CombatState, action: FleeAction, now_ms: int) -> SkillInfo | None:
    """umh 4.1.1.1: HUIR, or a flight skill of his (``flight``) with its limits and price."""
    if action.skill is None:
        return None
    player = state.participants[action.actor]
    skill = known_skill(player, action.skill, "umh 4.1.1.1")
    if not skill.flight:
        raise RuleViolation("invalid_request", "umh 4.1.1.1", skill=skill.name, reason="flight")
    limits.check_round_uses(player, skill)
    limits.check_cooldown(player, skill, state.round)
    limits.check_weekly(player, skill, now_ms, state.settings)
    economy.check_pa(player, economy.cost_of(player, skill))
    return skill


def flee(state: CombatState, out: Outcome, action: FleeAction, now_ms: int) -> None:
    """umh 4.1.1.1 / 4.1.1.1.1 / 4.2.3 / 1.2.5: HUIR (or a flight skill) in one's own turn.

    Order: phase (preparation or fight); own turn, unless the skill may be used out of
    turn (2.4.1), no defense pending (2.4.2); the flight skill (known, a flight skill,
    limits, PA); conditions (11.4, 11.5.1; a teleport flees while immobilised, 7.1.1.1).
    He counts as fallen (4.1.1.1), his place stays spent (1.2.5, A-12), and
    ``combatant.fled`` gives services/states the flight cooldown and his profile.
    """
    if state.phase not in (Phase.PREPARATION, Phase.FIGHTING):
        raise RuleViolation("wrong_phase", "umh 4.1.1.1", phase=state.phase)
    player = state.participants[action.actor]
    skill = player.skill(action.skill) if action.skill else None
    if state.phase == Phase.FIGHTING:
        acting_context(state, action.actor, skill)
    skill = flight_skill(state, action, now_ms)
    conditions.check_flight(player, skill)
    if skill is not None:
        cost = economy.cost_of(player, skill)
        economy.spend(player, cost)
        limits.note_use(
            player,
            skill,
            round_=state.round,
            now_ms=now_ms,
            settings=state.settings,
            in_round=True,
        )
    player.status = FLED
    player.bonus_pa = 0
    state.pact_offers = [c for c in state.pact_offers if c != action.actor]
    close_windows_of(state, out, action.actor)
    fled = CombatantFled(
        combat_id=state.id,
        character=action.actor,
        side=player.side,
        skill=skill.name if skill else None,
        flight_cooldown_hours=skill.flight_cooldown_hours if skill else None,
        profile="special" if player.sheet.get("profile") == "special" else "basic",
        fled_at_ms=now_ms,
    )
    out.emit(COMBATANT_FLED, fled.model_dump(mode="json"))
    move_on(state, out, now_ms, EndReason.FLED)


def disconnect(state: CombatState, out: Outcome, actor: str, now_ms: int) -> None:
    """umh 4.3.3 / A-58: reported by the frontend: he has 10 minutes to come back; his
    turns and windows still run and expire meanwhile."""
    player = state.participants[actor]
    if player.status != ACTIVE:
        raise RuleViolation("wrong_phase", "umh 4.3.3", status=player.status)
    deadline = now_ms + ms(state.settings.disconnect_seconds)
    player.status = DISCONNECTED
    player.disconnected_at_ms = now_ms
    player.grace_deadline_ms = deadline
    arm_timer(state, out, "disconnect", deadline, {"character": actor})
    out.emit(COMBATANT_DISCONNECTED, {"character": actor, "deadline_ms": deadline})
    move_on(state, out, now_ms)  # his interference turn, if any, closes


def reconnect(state: CombatState, out: Outcome, actor: str, now_ms: int) -> None:
    """umh 4.3.3: back within the grace, he plays on; after it he is out for good."""
    player = state.participant(actor)
    if player.status != DISCONNECTED:
        raise RuleViolation("wrong_phase", "umh 4.3.3", status=player.status)
    if player.grace_over:
        raise RuleViolation("character_down", "umh 4.3.3", character=actor)
    for timer_id, timer in list(state.timers.items()):
        if timer.kind == "disconnect" and timer.data.get("character") == actor:
            cancel_timer(state, out, timer_id)
    player.status = ACTIVE
    player.disconnected_at_ms = None
    player.grace_deadline_ms = None
    out.emit(COMBATANT_RECONNECTED, {"character": actor})
    move_on(state, out, now_ms)


def grace_over(state: CombatState, out: Outcome, actor: str, now_ms: int) -> bool:
    """umh 4.3.3 / A-58: ten minutes without coming back: defeated and out of the combat;
    his open windows close, his turn ends once nothing of it is pending."""
    player = state.participants.get(actor)
    if player is None or player.status != DISCONNECTED or player.grace_over:
        return False
    player.grace_over = True
    state.pact_offers = [c for c in state.pact_offers if c != actor]
    close_windows_of(state, out, actor)
    out.emit(COMBATANT_DISCONNECTED, {"character": actor, "deadline_ms": None, "out": True})
    move_on(state, out, now_ms, EndReason.DISCONNECTED)
    return True


def pact(state: CombatState, out: Outcome, actor: str, now_ms: int) -> None:
    """umh 4.1.1.3: the agreed retreat: once every active member of both sides offered it,
    the combat ends with no winner (offers stay visible until then)."""
    if state.phase not in (Phase.PREPARATION, Phase.FIGHTING):
        raise RuleViolation("wrong_phase", "umh 4.1.1.3", phase=state.phase)
    if actor in state.pact_offers:
        raise RuleViolation("already_reacted", "umh 4.1.1.3")
    state.pact_offers.append(actor)
    everyone = state.active_members("attackers") + state.active_members("defenders")
    missing = [c for c in everyone if c not in state.pact_offers]
    out.emit(PACT_OFFERED, {"by": actor, "offers": list(state.pact_offers), "missing": missing})
    end_if_agreed(state, out, now_ms)


def annul(
    state: CombatState, out: Outcome, action: AnnulAction, moderator: bool, now_ms: int
) -> None:
    """umh 4.2.4: a moderator annuls the combat (``forbidden`` for anyone else)."""
    if not moderator:
        raise RuleViolation("forbidden", "umh 4.2.4")
    end_combat(state, out, now_ms, None, EndReason.ANNULLED, annul_reason=action.reason)
