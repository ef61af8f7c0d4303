"""The ``react`` action (umh 8.1.1.3, 8.2, 2.4.2): answering one's own open window.

Checks, in order (the first failing one is raised):
1. ``wrong_phase``: the opening attack or the fight (umh 2.4.2);
2. ``no_pending_reaction``: an open window of the actor on that action: his defense as a
   target, or, as its attacker, his answer to an anticipation (8.2.2.4), oldest first; or
   an opponent who is not a target stepping in with an anticipation, annulment or
   reflection, or a defense that covers allies, while the hit's windows are open (8.2.2.5,
   8.2.3.3, 8.1.1.3.1);
   (``already_reacted`` when his window took all the answers a skill reactable several
   times allows, 8.1.1.3);
3. ``invalid_request``: RESISTIR and a skill at once (one answer per window, 8.1.1.3); a
   second or later answer that is not a block or an evasion (8.1.1.3, ``again``);
4. ``unknown_skill`` / ``not_a_defense`` (8.1.1.3);
5. the conditions that forbid defending (11.4.1, 11.4.2, 11.5.1, 11.5.2, 11.5.8); a
   supplementary skill only stopped (8.2.2.2, 8.2.3.1, 8.2.5.2: ``not_targeted``);
6. ``anticipation_chain``: no anticipation answers an anticipation (8.2.2.4.1);
7. uses this round (2.3.1.3: a defensive skill is a skill like any other, so one block or
   evasion does not answer every hit of a round), cooldown (2.3.4), weekly uses (2.3.4.2),
   uses per combat and use numbers (2.3.4.1, 2.3.1.2, 8.2.5.1);
8. ``insufficient_pa`` (3.1.2); an evasion's ``to`` within the speed left (8.2.1.1);
9. ``not_in_combat`` / ``character_down`` for a reflection's new target (8.2.5.2);
10. ``check_reaction`` of shared/rulesets/umh (umh 5 - 12).
Then the PA are spent, the use counted, the window closed (or, against a skill reactable
several times, kept open for a further block or evasion: ``again``); an anticipation opens
the attacker's answer window; once the hit's windows are all in, resolution is asked.
Resolution computes what every kind does (evasion, anticipation, annulment, counter,
reflection, RESISTIR).
"""

from __future__ import annotations

from services.turns.domain.umh import again, conditions, disputes, economy, limits, rulechecks
from services.turns.domain.umh.acting import known_skill
from services.turns.domain.umh.inflight import InFlight, Reaction
from services.turns.domain.umh.participant import Participant, SkillInfo
from services.turns.domain.umh.reactions import (
    close_window,
    declare_use,
    emit_answered,
    open_answer,
    open_reflected,
    request_resolution_if_ready,
)
from services.turns.domain.umh.state import CombatState
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.rulesets.umh.actions import ReactAction
from shared.vocabulary import Phase


def find_window(action: InFlight, reactor: str) -> tuple[Reaction, str | None] | None:
    """The actor's open window on ``action``: his defense, or his oldest answer to an
    anticipation (with the anticipator's id)."""
    own = action.reactions.get(reactor)
    if own is not None and own.is_open:
        return own, None
    if reactor == action.attacker:
        for anticipator, window in action.answers.items():
            if window.is_open:
                return window, anticipator
    return None


REACHING_KINDS = frozenset({"anticipation", "annulment", "reflection"})
"""umh 8.2.2.5 / 8.2.3.3 / 8.2.5.1: the kinds that answer a skill aimed at someone else."""


def may_interject(state: CombatState, flight: InFlight, react: ReactAction) -> bool:
    """umh 8.2.2.5 / 8.2.3.3 / 8.1.1.3.1: an opponent of the attacker who is not a target may
    still anticipate, annul or reflect the skill, or cover the targets with a defense that
    covers allies, while its windows are open (within his skill's reach of the attacker, or
    of an ally targeted, which ``check_reaction`` checks). He has no window of his own: he
    steps in before the hit resolves."""
    if flight.resolution_requested or not any(w.is_open for w in flight.reactions.values()):
        return False
    if react.actor == flight.attacker or react.actor in flight.reactions or react.skill is None:
        return False
    player = state.participants.get(react.actor)
    attacker = state.participants.get(flight.attacker)
    if player is None or attacker is None or player.side == attacker.side or not player.active:
        return False
    skill = player.skill(react.skill)
    return skill is not None and (skill.defense_kind in REACHING_KINDS or skill.covers_allies)


def answerable(window: Reaction, skill: SkillInfo | None) -> bool:
    """umh 8.2.2.4 / 8.2.4.4 / A-52: the attacker gets a window to answer an anticipation,
    and the surplus of a counterattack that is not melee (a melee one cannot be reacted to)."""
    if window.kind == "anticipation":
        return True
    return window.kind == "counter" and skill is not None and not skill.melee


def check_speed(
    state: CombatState, window: Reaction, player: Participant, react: ReactAction
) -> None:
    """umh 8.2.1.1 / 2.3.2.1: an evasion to a square cannot cost more speed than is left
    (after the evasions already given in the window, 8.1.1.3)."""
    here, spent = again.evasion_origin(state, window, react.actor)
    if react.to is None or here is None:
        return
    cost = rulechecks.squares_apart(state, here, react.to)
    left = player.movement_left - spent
    if cost > left:
        raise RuleViolation("insufficient_speed", "umh 8.2.1.1", needed=cost, left=left)


def check_supplementary(flight: InFlight, skill: SkillInfo | None, react: ReactAction) -> None:
    """umh 8.2.2.2 / 8.2.3.1 / 8.2.5.2: a supplementary skill is answered only by stopping it
    (anticipation, annulment, or a reflection that counts as one) or by letting it be; it is
    no attack, so a reflection sends nothing back."""
    if flight.offensive or flight.opening:
        return
    if skill is not None and skill.defense_kind not in REACHING_KINDS:
        raise RuleViolation("not_targeted", "umh 8.1.1.3.1", reactor=react.actor)
    if react.redirect_to is not None:
        raise RuleViolation("invalid_target", "umh 8.2.5.2", target=react.redirect_to)


def check_reflected(window: Reaction, skill: SkillInfo | None) -> None:
    """umh 8.2.5.2: a reflected hit is defended (block, external defense, evasion), annulled
    or taken by its new target; it is not anticipated nor countered (nobody attacks him: the
    skill is already annulled for its user), nor reflected again (one reflection per hit)."""
    if window.reflected_by is None or skill is None:
        return
    if skill.defense_kind in ("anticipation", "reflection", "counter"):
        raise RuleViolation("invalid_request", "umh 8.2.5.2", reason=skill.defense_kind)


def reached(flight: InFlight, skill: SkillInfo | None) -> list[str]:
    """Whom the skill reaches, for the checks of reach (8.1.1.3.1, 8.2.2.5): its targets. A
    supplementary skill is stopped near its user (whom an anticipation or annulment must
    reach), and letting it be needs no reach at all."""
    if flight.offensive or flight.opening:
        return list(flight.targets)
    return [flight.attacker] if skill is not None else []


def check_redirect(state: CombatState, react: ReactAction) -> None:
    """umh 8.2.5.2: a reflection sends the skill to someone still in the combat."""
    if react.redirect_to is None:
        return
    if not state.participant(react.redirect_to).in_fight:
        raise RuleViolation("character_down", "umh 8.2.5.2", character=react.redirect_to)


def check_skill(
    state: CombatState,
    player: Participant,
    skill: SkillInfo,
    react: ReactAction,
    now_ms: int,
    window: Reaction,
) -> int:
    """Steps 7 - 8: limits and price of a defensive skill; returns its cost."""
    limits.check_round_uses(player, skill)
    limits.check_cooldown(player, skill, state.round)
    limits.check_weekly(player, skill, now_ms, state.settings)
    limits.check_reaction_uses(player, skill, react.use_number, state.settings)
    limits.check_per_combat(player, skill)
    cost = skill.pa
    economy.check_pa(player, cost)
    if skill.defense_kind == "evasion":
        check_speed(state, window, player, react)
    return cost


def react(
    state: CombatState, out: Outcome, action: ReactAction, react_id: str, now_ms: int
) -> None:
    """Answer one's own open window (see the module docstring for the order of checks)."""
    if state.phase not in (Phase.OPENING, Phase.FIGHTING):
        raise RuleViolation("wrong_phase", "umh 2.4.2", phase=state.phase)
    flight = state.actions.get(action.action_id)
    found = find_window(flight, action.actor) if flight else None
    interjected = found is None and flight is not None and may_interject(state, flight, action)
    if interjected:
        assert flight is not None
        found = Reaction(deadline_ms=now_ms, timer_id=None), None
    if found is None:
        given = again.exhausted(state, action.action_id, flight, action.actor)
        if given is not None:
            raise RuleViolation(
                "already_reacted", "umh 8.1.1.3", action_id=action.action_id, answers=given
            )
    if flight is None or found is None:
        raise RuleViolation("no_pending_reaction", "umh 8.1.1.3", action_id=action.action_id)
    window, anticipator = found
    if action.resist and action.skill is not None:
        raise RuleViolation("invalid_request", "umh 8.1.1.3", reason="resist or a skill")
    player = state.participants[action.actor]
    skill = known_skill(player, action.skill, "umh 8.1.1.3") if action.skill else None
    if skill is not None and skill.type != "defensive":
        raise RuleViolation("not_a_defense", "umh 8.1.1.3", skill=skill.name)
    further = window.given > 0
    if further:
        again.check_further(action, skill)
        if skill is None:
            again.answer_again(state, out, action.action_id, window, action, None, 0)
            request_resolution_if_ready(state, out, action.action_id)
            return
    conditions.check_reaction(player, skill)
    if skill is not None:
        disputes.check(player, skill)
    if anticipator is not None and skill is not None and skill.defense_kind == "anticipation":
        raise RuleViolation("anticipation_chain", "umh 8.2.2.4.1", skill=skill.name)
    if anticipator is None:
        check_supplementary(flight, skill, action)
        check_reflected(window, skill)
    cost = check_skill(state, player, skill, action, now_ms, window) if skill else 0
    check_redirect(state, action)
    attacker = anticipator or flight.attacker
    attack = flight.reactions[anticipator].skill if anticipator else flight.skill
    assert attack is not None
    rulechecks.reaction(
        state,
        action.actor,
        attacker,
        attack,
        skill.name if skill else None,
        resist=action.resist,
        to=action.to,
        redirect_to=action.redirect_to,
        attack_is_anticipation=anticipator is not None
        and flight.reactions[anticipator].kind == "anticipation",
        targets=[action.actor] if anticipator or window.reflected_by else reached(flight, skill),
        squares=[] if anticipator or window.reflected_by else flight.squares,
    )
    if skill is not None and skill.uses_per_week is not None:
        declare_use(out, react_id, action.actor, skill.name, state.round, skill.uses_per_week)
    if skill is not None:
        economy.spend(player, cost)
        limits.note_use(
            player,
            skill,
            round_=state.round,
            now_ms=now_ms,
            settings=state.settings,
            in_round=True,
        )
    if further:
        again.answer_again(state, out, action.action_id, window, action, skill, cost)
        request_resolution_if_ready(state, out, action.action_id)
        return
    if interjected:
        flight.reactions[action.actor] = window
    if flight.opening and skill is not None and anticipator is None:
        state.opening_answers[action.actor] = skill.name
    window.skill = skill.name if skill else None
    window.resist = action.resist
    window.kind = skill.defense_kind if skill else ("resist" if action.resist else None)
    window.to = list(action.to) if action.to else None
    window.redirect_to = action.redirect_to
    window.use_number = action.use_number
    window.pa_spent = cost
    several = not interjected and again.several(state, flight, anticipator)
    window.given = 1 if skill is not None and several else 0
    if several and again.keeps_open(state, flight, window):
        limit = again.times(state, flight)
        emit_answered(
            out,
            action.action_id,
            action.actor,
            skill=window.skill,
            resist=False,
            hit=flight.hit,
            kind=window.kind,
            pa_spent=cost,
            extra=again.extra(window, limit, answer=1),
        )
        return
    close_window(
        state,
        out,
        action.action_id,
        window,
        action.actor,
        timed_out=False,
        anticipator=anticipator,
        extra=again.extra(window, 1, answer=1) if several else None,
    )
    if anticipator is None and answerable(window, skill):
        open_answer(state, out, action.action_id, action.actor, now_ms, to=window.kind)
    if anticipator is None and window.kind == "reflection" and flight.offensive:
        to = action.redirect_to or flight.attacker
        open_reflected(state, out, action.action_id, action.actor, to, now_ms)
    request_resolution_if_ready(state, out, action.action_id)
