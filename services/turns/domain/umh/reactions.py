"""Defense windows (umh 2.4.2, 8.1.1.3, 8.2.2.4, 8.1.1.1.1): opening them, closing them,
asking for resolution hit by hit.

Every target still fighting gets one window per hit, each with its own timer; a target
who anticipates opens a window for the attacker to answer it (8.2.2.4). Once every
window of the hit is answered or closed, ``resolution.requested`` carries the answers.
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.umh import terrain
from services.turns.domain.umh.inflight import ANSWERED, TIMED_OUT, InFlight, Reaction
from services.turns.domain.umh.participant import SkillInfo
from services.turns.domain.umh.rulechecks import position_of
from services.turns.domain.umh.state import CombatState
from shared.domain import ms
from shared.messages import (
    ACTION_DECLARED,
    REACTION_ANSWERED,
    REACTION_REQUESTED,
    REACTION_TIMED_OUT,
    RESOLUTION_REQUESTED,
)
from shared.outcome import Outcome, arm_timer, cancel_timer
from shared.payloads import ActionDeclared, ReactionChoice, ResolutionRequested


def declare(
    state: CombatState, out: Outcome, action_id: str, action: InFlight, skill: SkillInfo | None
) -> None:
    """umh 2.3.1.1: the action is in flight; ``action.declared`` says what, for how much,
    whether it is offensive, and whether it counts as a general action (A-26: not inside an
    interference turn, 2.5.2); its weekly limit lets services/states count it (2.3.4.2)."""
    state.actions[action_id] = action
    declared = ActionDeclared(
        action_id=action_id,
        attacker=action.attacker,
        skill=action.skill,
        targets=[*action.targets, *action.squares],
        pa_spent=action.pa_spent,
        opening=action.opening,
        round=action.round,
        offensive=action.offensive,
        general_action=not action.interference,
        interference=action.interference,
        weekly_limit=skill.uses_per_week if skill else None,
    )
    out.emit(ACTION_DECLARED, declared.model_dump(mode="json"))


def declare_use(
    out: Outcome, action_id: str, actor: str, skill: str, round_: int, weekly: int | None
) -> None:
    """An ``action.declared`` that is no general action (A-26): a reaction or an entry skill
    with weekly uses (services/states counts them, umh 2.3.4.2), or *Levantarse* (11.5.2,
    services/resolution ends the knockdown)."""
    declared = ActionDeclared(
        action_id=action_id,
        attacker=actor,
        skill=skill,
        round=round_,
        offensive=False,
        general_action=False,
        weekly_limit=weekly,
    )
    out.emit(ACTION_DECLARED, declared.model_dump(mode="json"))


def _requested(action_id: str, action: InFlight, reactor: str, deadline: int) -> dict[str, Any]:
    return {
        "action_id": action_id,
        "reactor": reactor,
        "attacker": action.attacker,
        "skill": action.skill,
        "deadline_ms": deadline,
        "hit": action.hit,
        "hits": action.hits,
        "anticipation_by": None,
    }


def open_reactions(state: CombatState, out: Outcome, action_id: str, now_ms: int) -> None:
    """umh 2.4.2 / 8.1.1.3.1 / 8.1.1.1.1: one window per target still fighting, this hit."""
    action = state.actions[action_id]
    deadline = now_ms + ms(state.settings.defense_seconds)
    for target in action.targets:
        if not state.participants[target].in_fight:
            continue
        data = {"action_id": action_id, "reactor": target}
        timer_id = arm_timer(state, out, "defense", deadline, data)
        action.reactions[target] = Reaction(deadline_ms=deadline, timer_id=timer_id)
        out.emit(REACTION_REQUESTED, _requested(action_id, action, target, deadline))


STOPPING_KINDS = frozenset({"annulment", "reflection"})
"""umh 8.2.3.1 / 8.2.5.1: the kinds that annul a supplementary skill (a reflection counts as
an annulment; a supplementary skill is no attack to send back, 8.2.5.2)."""


def may_stop(supplementary: SkillInfo, skill: SkillInfo) -> bool:
    """umh 8.2.2.2 / 8.2.2.2.1 / 8.2.3.1: may ``skill`` answer the ``supplementary`` one? An
    annulment always (an entry skill is no skill action), an anticipation when the
    supplementary skill has a physical preparation or the anticipation reads minds."""
    if skill.defense_kind in STOPPING_KINDS:
        return True
    if skill.defense_kind != "anticipation":
        return False
    return supplementary.physical_preparation or skill.precognition


def open_interjections(
    state: CombatState, out: Outcome, action_id: str, skill: SkillInfo, now_ms: int
) -> None:
    """umh 8.2.2.2 / 8.2.3.1 / 2.4.2: a supplementary skill gets the windows of an offensive
    one, for every opponent still fighting who holds a skill able to anticipate or annul it
    (whether it is in reach, and its uses, are checked when he answers)."""
    action = state.actions[action_id]
    deadline = now_ms + ms(state.settings.defense_seconds)
    side = state.participants[action.attacker].side
    for cid, player in state.participants.items():
        if player.side == side or not player.in_fight:
            continue
        answers = (player.skill(k) for k in player.skills)
        if not any(s is not None and may_stop(skill, s) for s in answers):
            continue
        data = {"action_id": action_id, "reactor": cid}
        timer_id = arm_timer(state, out, "defense", deadline, data)
        action.reactions[cid] = Reaction(deadline_ms=deadline, timer_id=timer_id)
        out.emit(REACTION_REQUESTED, _requested(action_id, action, cid, deadline))


def open_reflected(
    state: CombatState, out: Outcome, action_id: str, reflector: str, to: str, now_ms: int
) -> None:
    """umh 8.2.5.2 / 8.1.1.3.1: a reflection sends the hit to ``to`` (its executor or an
    opponent of the reflector); it stays annulled for its first target, and its new target
    may defend it like any hit aimed at him: he gets a window of his own. Only the first
    reflection of a hit sends it anywhere (the hit is annulled once)."""
    action = state.actions[action_id]
    player = state.participants.get(to)
    if player is None or not player.in_fight or to in action.reactions:
        return
    if any(w.reflected_by is not None for w in action.reactions.values()):
        return
    deadline = now_ms + ms(state.settings.defense_seconds)
    timer_id = arm_timer(state, out, "defense", deadline, {"action_id": action_id, "reactor": to})
    action.reactions[to] = Reaction(deadline_ms=deadline, timer_id=timer_id, reflected_by=reflector)
    payload = _requested(action_id, action, to, deadline)
    payload["reflected_by"] = reflector
    out.emit(REACTION_REQUESTED, payload)


def open_answer(
    state: CombatState,
    out: Outcome,
    action_id: str,
    anticipator: str,
    now_ms: int,
    *,
    to: str | None = "anticipation",
) -> None:
    """umh 8.2.2.4: the attacker may answer an anticipation of his action (not with
    another anticipation, 8.2.2.4.1), or the surplus of a counterattack that is not melee
    (8.2.4.4, A-52); his clock stays paused meanwhile (2.4.2). ``anticipation_by`` names the
    one he answers; ``answer_to`` says to what."""
    action = state.actions[action_id]
    deadline = now_ms + ms(state.settings.defense_seconds)
    data = {"action_id": action_id, "reactor": action.attacker, "anticipator": anticipator}
    timer_id = arm_timer(state, out, "answer", deadline, data)
    action.answers[anticipator] = Reaction(deadline_ms=deadline, timer_id=timer_id)
    payload = _requested(action_id, action, action.attacker, deadline)
    payload["anticipation_by"] = anticipator
    payload["answer_to"] = to
    out.emit(REACTION_REQUESTED, payload)


def emit_answered(
    out: Outcome,
    action_id: str,
    reactor: str,
    *,
    skill: str | None,
    resist: bool,
    hit: int,
    kind: str | None,
    pa_spent: int,
    anticipator: str | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """``reaction.answered``: one answer in a window (``extra``: umh 8.1.1.3's ``answer`` and
    ``answers_left`` against a skill reactable several times)."""
    payload: dict[str, Any] = {
        "action_id": action_id,
        "reactor": reactor,
        "skill": skill,
        "resist": resist,
        "hit": hit,
        "kind": kind,
        "anticipation_by": anticipator,
        "pa_spent": pa_spent,
    }
    out.emit(REACTION_ANSWERED, {**payload, **(extra or {})})


def close_window(
    state: CombatState,
    out: Outcome,
    action_id: str,
    window: Reaction,
    reactor: str,
    *,
    timed_out: bool,
    anticipator: str | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """Close one window: answered (the choice is already on ``window``) or timed out. A
    window that took defensive skills before its deadline (umh 8.1.1.3) keeps them: it
    times out as answered."""
    action = state.actions[action_id]
    cancel_timer(state, out, window.timer_id)
    window.timer_id = None
    window.status = TIMED_OUT if timed_out and not window.given else ANSWERED
    if timed_out:
        payload: dict[str, Any] = {"action_id": action_id, "reactor": reactor}
        if anticipator is not None:
            payload["anticipation_by"] = anticipator
        if window.given:
            payload["answers"] = window.given
        out.emit(REACTION_TIMED_OUT, payload)
        return
    emit_answered(
        out,
        action_id,
        reactor,
        skill=window.skill,
        resist=window.resist,
        hit=action.hit,
        kind=window.kind,
        pa_spent=window.pa_spent,
        anticipator=anticipator,
        extra=extra,
    )


def time_out(
    state: CombatState, out: Outcome, action_id: str, reactor: str, anticipator: str | None = None
) -> None:
    """umh 2.4.2 / A-24: the window closes with no defense; the hit will resolve."""
    action = state.actions[action_id]
    window = action.answers[anticipator] if anticipator else action.reactions[reactor]
    close_window(state, out, action_id, window, reactor, timed_out=True, anticipator=anticipator)
    request_resolution_if_ready(state, out, action_id)


def close_windows_of(state: CombatState, out: Outcome, character: str) -> list[str]:
    """umh 4.1.1 / 4.3.3: someone who can no longer fight answers nothing: his open windows
    close as timed out (the attack resolves, A-24). Returns the actions now complete."""
    touched: list[str] = []
    for action_id, action in list(state.actions.items()):
        window = action.reactions.get(character)
        if window is not None and window.is_open:
            close_window(state, out, action_id, window, character, timed_out=True)
            touched.append(action_id)
        if action.attacker == character:
            for anticipator, answer in action.answers.items():
                if answer.is_open:
                    close_window(
                        state,
                        out,
                        action_id,
                        answer,
                        character,
                        timed_out=True,
                        anticipator=anticipator,
                    )
                    touched.append(action_id)
    for action_id in dict.fromkeys(touched):
        request_resolution_if_ready(state, out, action_id)
    return touched


def choice(window: Reaction) -> ReactionChoice:
    """What resolution needs of a window; against a skill reactable several times (umh
    8.1.1.3) the further defenses follow the first in ``more``, in the order given."""
    to = (window.to[0], window.to[1]) if window.to else None
    more = [
        ReactionChoice(
            skill=entry.get("skill"),
            to=(entry["to"][0], entry["to"][1]) if entry.get("to") else None,
            use_number=entry.get("use_number"),
        )
        for entry in window.more
    ]
    return ReactionChoice(
        skill=window.skill,
        resist=window.resist,
        timed_out=window.status == TIMED_OUT,
        to=to,
        redirect_to=window.redirect_to,
        use_number=window.use_number,
        more=more or None,
    )


def request_resolution_if_ready(state: CombatState, out: Outcome, action_id: str) -> None:
    """umh 2.1.3 / A-100 / 8.1.1.1.1: once every window of the hit is in, resolution
    computes it, with where everyone stands and the attacker's answers to anticipations."""
    action = state.actions[action_id]
    if action.resolution_requested or not action.all_reactions_in:
        return
    action.resolution_requested = True
    request = ResolutionRequested(
        action_id=action_id,
        attacker=action.attacker,
        skill=action.skill,
        targets=list(action.targets),
        reactions={target: choice(r) for target, r in action.reactions.items()},
        anticipation_answers={who: choice(r) for who, r in action.answers.items()},
        round=action.round,
        hit=action.hit,
        hits=action.hits,
        squares=[(s[0], s[1]) for s in action.squares],
        positions={cid: position_of(state, cid) for cid in state.participants},
        terrain=terrain.room(state),
        terrain_defenses=terrain.defenses(state),
        opening=action.opening,
        interference=action.interference,
        weapons=list(action.weapons),
        weapon_effects=action.weapon_effects,
        movement_left={cid: p.movement_left for cid, p in state.participants.items()},
    )
    out.emit(RESOLUTION_REQUESTED, request.model_dump(mode="json"))


def next_hit(state: CombatState, out: Outcome, action_id: str, now_ms: int) -> bool:
    """umh 8.1.1.1.1: the next impact of a combo gets its own windows; False when no target
    is left to take it (the combo ends)."""
    action = state.actions[action_id]
    action.hit += 1
    action.reactions = {}
    action.answers = {}
    action.resolution_requested = False
    open_reactions(state, out, action_id, now_ms)
    if action.reactions:
        return True
    if action.squares:  # an area on squares only: nobody has a window
        request_resolution_if_ready(state, out, action_id)
        return True
    return False
