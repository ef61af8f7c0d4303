"""The ``skill`` action (umh 2.3.1, 2.4.1, 2.5, 3, 8.1): using an offensive or supplementary
skill in one's own turn, an interference turn, or out of turn if the skill allows it; and
the skills allowed in the preparation round (1.3.2, 1.3.6).

Checks in the fight, in order (the first failing one is raised):
1. ``wrong_phase`` (umh 2.1.1); the preparation round has its own rules (``prepare``);
2. ``unknown_skill`` (3.1.2); ``no_trigger`` for a defensive skill (8.1.1.3);
3. who and when: ``not_your_turn`` (2.4.1, 2.5.1), ``reaction_pending`` (2.4.2);
4. conditions: stunned, paralysed, knocked down, mute (11.4.1, 11.4.2, 11.5.2, 11.5.8);
5. the open interference turn's limits (2.5.3.1, 2.5.3.2);
6. targets (1.1.2, 8.1.1.3.1, 6.1.1), a terrain skill's squares (4.1.5.1, ``terrain``)
   and ``enamored`` (11.5.10);
7. uses this round (2.3.1.3), cooldown (2.3.4), per combat (2.3.4.1), weekly (2.3.4.2),
   one slot-raising skill per side (1.2.3);
8. price: two 0-PA actions per own turn (3.3), PA with the 3.4 surcharge (3.1.2);
9. ``check_declaration`` of shared/rulesets/umh (umh 5 - 12).
An offensive area then also targets everyone else standing on its squares, allies included
unless the skill says otherwise (6.1.1). Then PA are spent and every counter moves; an
offensive skill opens one window per target and pauses the clock (2.4.2); a supplementary
one opens a window for every opponent able to anticipate or annul it (8.2.2.2, 8.2.3.1);
anything else goes straight to resolution.
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.umh import (
    approach,
    conditions,
    disputes,
    economy,
    fainted,
    interference,
    limits,
    rulechecks,
    teleport,
    terrain,
)
from services.turns.domain.umh.acting import INTERFERENCE, OWN, Context, acting_context, known_skill
from services.turns.domain.umh.events import SLOTS_RAISED
from services.turns.domain.umh.flow import pause_turn
from services.turns.domain.umh.inflight import InFlight
from services.turns.domain.umh.participant import Participant, SkillInfo
from services.turns.domain.umh.reactions import (
    declare,
    open_interjections,
    open_reactions,
    request_resolution_if_ready,
)
from services.turns.domain.umh.state import CombatState
from shared.errors import RuleViolation
from shared.messages import TURN_PAUSED
from shared.outcome import Outcome
from shared.rulesets.umh.actions import SkillAction
from shared.vocabulary import Phase


def split_targets(
    state: CombatState, actor: str, skill: SkillInfo, targets: list[Any]
) -> tuple[list[str], list[list[int]]]:
    """umh 1.1.2 / 8.1.1.3.1 / 6.1.1: named characters (distinct participants still
    fighting, not oneself for an offensive skill) and, for an area, squares."""
    names = [t for t in targets if isinstance(t, str)]
    squares = [[int(t[0]), int(t[1])] for t in targets if not isinstance(t, str)]
    if squares and skill.area is None and skill.terrain is None:
        raise RuleViolation("invalid_target", "umh 6.1.1", skill=skill.name)
    if skill.offensive and not names and not squares:
        raise RuleViolation("targets_not_declared", "umh 1.1.2")
    if len(set(names)) != len(names):
        raise RuleViolation("invalid_target", "umh 1.1.2", targets=names)
    for target in names:
        if not state.participant(target).in_fight:
            raise RuleViolation("character_down", "umh 4.1.1", character=target)
        if skill.offensive and target == actor:
            raise RuleViolation("invalid_target", "umh 8.1.1.1", character=target)
    return names, squares


def check_limits(state: CombatState, player: Participant, skill: SkillInfo, now_ms: int) -> None:
    """Step 7: how often the skill may be used, and the side's one slot-raising skill."""
    limits.check_round_uses(player, skill)
    limits.check_cooldown(player, skill, state.round)
    limits.check_per_combat(player, skill)
    limits.check_weekly(player, skill, now_ms, state.settings)
    if skill.raises_slots and player.side in state.slot_boosts:
        raise RuleViolation("slot_boost_already_used", "umh 1.2.3", side=player.side)


def commit(
    state: CombatState,
    out: Outcome,
    action: SkillAction,
    action_id: str,
    skill: SkillInfo,
    context: Context,
    targets: tuple[list[str], list[list[int]]],
    now_ms: int,
) -> InFlight:
    """Spend, count, declare (see the module docstring)."""
    player = state.participants[action.actor]
    cost = economy.cost_of(player, skill)
    economy.spend(player, cost)
    economy.count_skill(player, skill, cost, own_turn=context == OWN)
    limits.note_use(
        player, skill, round_=state.round, now_ms=now_ms, settings=state.settings, in_round=True
    )
    if skill.offensive and state.phase == Phase.FIGHTING:
        state.round_offensive = True  # umh 2.3.3.1 / A-89: the stalemate count restarts
    if skill.raises_slots:
        state.slot_boosts[player.side] = skill.raises_slots
        out.emit(
            SLOTS_RAISED, {"side": player.side, "by": action.actor, "slots": skill.raises_slots}
        )
    names, squares = targets
    flight = InFlight(
        attacker=action.actor,
        skill=skill.name,
        targets=names,
        opening=False,
        round=state.round,
        turn_seq=state.turn_seq,
        hits=skill.hits,
        squares=squares,
        interference=context == INTERFERENCE,
        offensive=skill.offensive,
        pa_spent=cost,
        weapons=list(action.weapons),
        weapon_effects=action.weapon_effects,
        teleport_to=[action.to[0], action.to[1]] if action.to else None,
        teleport_height=action.height,
    )
    declare(state, out, action_id, flight, skill)
    approach.approach(state, out, action.actor, skill.reach, names)
    return flight


def check_declaration(
    state: CombatState,
    action: SkillAction,
    skill: SkillInfo,
    targets: list[str],
    squares: list[tuple[int, int]],
    *,
    in_own_turn: bool,
) -> None:
    """umh 5 - 12 (``rulechecks.declaration``) for this skill, with its weapons (umh 12)."""
    rulechecks.declaration(
        state,
        action.actor,
        skill.name,
        targets,
        squares,
        in_own_turn=in_own_turn,
        weapons=action.weapons,
        weapon_effects=action.weapon_effects,
    )


def use_skill(
    state: CombatState, out: Outcome, action: SkillAction, action_id: str, now_ms: int
) -> None:
    """A skill in the fight (see the module docstring for the order of checks)."""
    if state.phase == Phase.PREPARATION:
        prepare(state, out, action, action_id, now_ms)
        return
    if state.phase != Phase.FIGHTING:
        raise RuleViolation("wrong_phase", "umh 2.1.1", phase=state.phase)
    player = state.participants[action.actor]
    skill = known_skill(player, action.skill, "umh 3.1.2")
    if skill.type == "defensive":
        raise RuleViolation("no_trigger", "umh 8.1.1.3", skill=skill.name)
    context = acting_context(state, action.actor, skill)
    conditions.check_skill(player, skill)
    fainted.check_climb(player, skill)
    disputes.check(player, skill)
    if context == INTERFERENCE:
        interference.check_skill(state, skill)
    targets = split_targets(state, action.actor, skill, list(action.targets))
    terrain.check_squares(state, action.actor, skill, targets[1])
    conditions.check_targets(player, skill, targets[0])
    check_limits(state, player, skill, now_ms)
    cost = economy.cost_of(player, skill)
    economy.check_zero_pa(player, cost, own_turn=context == OWN)
    economy.check_pa(player, cost)
    squares = [(s[0], s[1]) for s in targets[1]]
    check_declaration(state, action, skill, targets[0], squares, in_own_turn=context == OWN)
    teleport.check(state, action, skill)
    if action_id in state.actions:
        raise RuleViolation("invalid_request", None, action_id=action_id)
    caught = rulechecks.caught_in_area(state, action.actor, skill.name, targets[0], targets[1])
    targets = (caught, targets[1])
    flight = commit(state, out, action, action_id, skill, context, targets, now_ms)
    if context == INTERFERENCE:
        interference.after_skill(state, out, skill)
    if skill.offensive and flight.targets:
        open_reactions(state, out, action_id, now_ms)
    elif skill.type == "supplementary":
        open_interjections(state, out, action_id, skill, now_ms)
    if not flight.has_windows:
        request_resolution_if_ready(state, out, action_id)
        return
    assert state.turn is not None
    if state.turn.paused_remaining_ms is None:
        remaining = pause_turn(state, out, now_ms)
        out.emit(TURN_PAUSED, {"actor": state.turn.actor, "remaining_ms": remaining})


def allowed_in_preparation(state: CombatState, actor: str, skill: SkillInfo) -> bool:
    """umh 1.3.2 / 1.3.3 / 1.3.5 / 1.3.6: skills that say so; and the preparation skill that
    the skill used in the opening attack needs: the aggressor's offensive skill (1.3.6), or
    the defensive skills a target answered it with (1.3.5, several: 8.1.1.3)."""
    if skill.preparation:
        return True
    initiator = actor == state.initiator
    if initiator:
        used = [state.opening_skill]
    else:  # every defensive skill he answered it with (several: umh 8.1.1.3)
        used = [state.opening_answers.get(actor), *state.opening_more.get(actor, [])]
    player = state.participants[actor]
    for name in used:
        info = player.skill(name) if name else None
        needed = info.requires_preparation if info else None
        if needed is not None and needed.casefold() == skill.key:
            return True
    return False


def prepare(
    state: CombatState, out: Outcome, action: SkillAction, action_id: str, now_ms: int
) -> None:
    """umh 1.3.2 / 1.3.6: a skill in the preparation round: one that allows it, never an
    attack (``not_allowed_in_prep``); limits and PA as in the fight, no turn needed."""
    player = state.participants[action.actor]
    skill = known_skill(player, action.skill, "umh 3.1.2")
    if skill.type == "defensive":
        raise RuleViolation("no_trigger", "umh 8.1.1.3", skill=skill.name)
    if skill.offensive or not allowed_in_preparation(state, action.actor, skill):
        raise RuleViolation("not_allowed_in_prep", "umh 1.3.2", skill=skill.name)
    conditions.check_skill(player, skill)
    disputes.check(player, skill)
    targets = split_targets(state, action.actor, skill, list(action.targets))
    terrain.check_squares(state, action.actor, skill, targets[1])
    check_limits(state, player, skill, now_ms)
    cost = economy.cost_of(player, skill)
    economy.check_pa(player, cost)
    squares = [(s[0], s[1]) for s in targets[1]]
    check_declaration(state, action, skill, targets[0], squares, in_own_turn=True)
    if action_id in state.actions:
        raise RuleViolation("invalid_request", None, action_id=action_id)
    commit(state, out, action, action_id, skill, "other", targets, now_ms)
    request_resolution_if_ready(state, out, action_id)
