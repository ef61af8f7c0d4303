"""umh 8.1.1.3: a skill that can be reacted to several times.

"Únicamente es posible realizar una habilidad defensiva como reacción a una habilidad, salvo
que la misma se pueda reaccionar varias veces": against an offensive skill whose sheet says
``reactable_times: n`` (n > 1), a target's window on a hit takes up to n defensive skills.

The reading taken (docs/umh.md): the window stays open after a block or an evasion while he
has answers left, on the window's own clock (its deadline does not move); ``"skill": null``,
the deadline or the n-th answer closes it. Only blocks (internal, external) and evasions
answer the same hit again: an anticipation, annulment, reflection or counterattack settles
the hit on its own, and RESISTIR is no defensive skill, so each of those is accepted as the
first answer only and closes the window. Every answer pays its PA and counts its use like
any other (2.3.1.3, 3.1.2); resolution applies them in the order given, each on what the one
before let through. An answer past the n-th is refused with ``already_reacted``.
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.umh.inflight import ANSWERED, InFlight, Reaction
from services.turns.domain.umh.participant import SkillInfo
from services.turns.domain.umh.reactions import emit_answered
from services.turns.domain.umh.rulechecks import squares_apart
from services.turns.domain.umh.state import CombatState
from shared.errors import RuleViolation
from shared.outcome import Outcome, cancel_timer
from shared.rulesets.umh.actions import ReactAction

STACKING_KINDS = frozenset({"evasion", "internal", "external"})
"""umh 8.1.1.3: the defenses that work on the damage (8.2.1, 9.2), so several of them can
answer the same hit one after another."""


def times(state: CombatState, flight: InFlight) -> int:
    """umh 8.1.1.3: how many defensive skills a target's window on this hit takes (the
    ``reactable_times`` of the incoming offensive skill; 1 for anything else)."""
    attacker = state.participants.get(flight.attacker)
    skill = attacker.skill(flight.skill) if attacker is not None else None
    if skill is None or not flight.offensive:
        return 1
    return max(1, skill.reactable_times)


def several(state: CombatState, flight: InFlight, anticipator: str | None) -> bool:
    """A target's own window against a skill reactable several times (not the attacker's
    answer to an anticipation, which takes one answer)."""
    return anticipator is None and times(state, flight) > 1


SPENT_KEPT = 16
"""How many actions' spent windows a combat remembers (a late answer names a recent one)."""


def note_spent(state: CombatState, action_id: str, reactor: str, hit: int, given: int) -> None:
    """Remember that ``reactor``'s window on this hit took all its answers, so that a further
    one is refused as ``already_reacted`` even once the hit has resolved."""
    state.spent_windows.setdefault(action_id, {})[reactor] = [hit, given]
    while len(state.spent_windows) > SPENT_KEPT:
        del state.spent_windows[next(iter(state.spent_windows))]


def exhausted(
    state: CombatState, action_id: str, flight: InFlight | None, reactor: str
) -> int | None:
    """umh 8.1.1.3: the number of answers, when ``reactor``'s window on this hit (or on the
    last hit of an action already over) took all it could; None otherwise."""
    entry = state.spent_windows.get(action_id, {}).get(reactor)
    if entry is None or (flight is not None and flight.hit != entry[0]):
        return None
    return entry[1]


def check_further(react: ReactAction, skill: SkillInfo | None) -> None:
    """umh 8.1.1.3: a second or later answer is a block or an evasion (or ``null``, which
    closes the window)."""
    if react.resist:
        raise RuleViolation(
            "invalid_request", "umh 8.1.1.3", reason="RESISTIR is a first answer only"
        )
    if skill is not None and skill.defense_kind not in STACKING_KINDS:
        raise RuleViolation(
            "invalid_request",
            "umh 8.1.1.3",
            reason="only a block or an evasion answers the same hit again",
            skill=skill.name,
        )


def keeps_open(state: CombatState, flight: InFlight, window: Reaction) -> bool:
    """After an answer: does the window take another one?"""
    return window.kind in STACKING_KINDS and window.given < times(state, flight)


def evasion_origin(
    state: CombatState, window: Reaction, actor: str
) -> tuple[list[int] | None, int]:
    """umh 8.2.1.1 / 2.3.2.1: a further evasion starts where the evasions already given in
    this window left him, and the squares they took come off the speed left."""
    here = state.positions.get(actor)
    origin = list(here) if here is not None else None
    spent = 0
    hops = [window.to] + [entry.get("to") for entry in window.more]
    for to in hops:
        if to is None:
            continue
        if origin is not None:
            spent += squares_apart(state, origin, to)
        origin = list(to)
    return origin, spent


def extra(window: Reaction, limit: int, *, answer: int) -> dict[str, Any]:
    """The fields ``reaction.answered`` carries against a skill reactable several times:
    which answer of the window this is and how many more it takes (0: it is closed)."""
    left = 0 if not window.is_open else max(0, limit - window.given)
    return {"answer": answer, "answers_left": left}


def answer_again(
    state: CombatState,
    out: Outcome,
    action_id: str,
    window: Reaction,
    react: ReactAction,
    skill: SkillInfo | None,
    cost: int,
) -> None:
    """Record a further answer (or ``null``, which closes the window) and tell it."""
    flight = state.actions[action_id]
    limit = times(state, flight)
    answer = window.given + 1
    if skill is not None:
        window.more.append(
            {
                "skill": skill.name,
                "kind": skill.defense_kind,
                "to": list(react.to) if react.to else None,
                "use_number": react.use_number,
                "pa_spent": cost,
            }
        )
        window.given += 1
        if flight.opening:  # umh 1.3.5: what answering the opening attack needed
            state.opening_more.setdefault(react.actor, []).append(skill.name)
    if skill is None or window.given >= limit:
        cancel_timer(state, out, window.timer_id)
        window.timer_id = None
        window.status = ANSWERED
    if window.given >= limit:
        note_spent(state, action_id, react.actor, flight.hit, window.given)
    emit_answered(
        out,
        action_id,
        react.actor,
        skill=skill.name if skill else None,
        resist=False,
        hit=flight.hit,
        kind=skill.defense_kind if skill else None,
        pa_spent=cost,
        extra=extra(window, limit, answer=answer),
    )
