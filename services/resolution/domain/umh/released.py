"""What a fighter keeps up ends when he falls, flees or is knocked out (umh 4.1.5 - 4.1.5.2,
4.1.1.1 / A-91, 11.4.1 - 11.4.1.2).

A hit that leaves him down ("fallen") or stunned, fainted or asleep ("broken") already ends
what he keeps up on himself (``strike``, ``secondary``); this ends what he keeps up on
everyone else: the boosters, reductions, regenerations, shields, coatings and increases his
skills put on allies. Indirect damage and states he inflicted stay (4.1.5.1); so do skills
his sheet marks ``persists_when_fallen`` when he falls (4.1.5.2).

Fleeing counts as falling (4.1.1.1; reading A-91: what he keeps up ends on flight too):
:func:`release_on_flight` ends, with reason ``fled``, what he keeps up on himself and on
everyone else, except the skills marked ``persists_when_fallen`` (4.1.5.2). What he keeps on
squares of the grid is services/turns' and stays (4.1.5.1).
"""

from __future__ import annotations

from collections.abc import Mapping

from services.resolution.domain.umh.condition import Combatant, CombatCondition
from services.resolution.domain.umh.effects import STUNNING, ExpiryReason, cancel_maintained
from shared.messages import Event
from shared.vocabulary import EffectKind


def _stunned(combatant: Combatant) -> bool:
    return any(combatant.has(EffectKind.CONTROL, kind) for kind in STUNNING)


def lost_hold(before: Combatant, after: Combatant) -> ExpiryReason | None:
    """umh 4.1.5 / 11.4.1: whether this hit took away his hold on his skills, and how."""
    if after.is_down and not before.is_down:
        return "fallen"
    if _stunned(after) and not _stunned(before):
        return "broken"
    return None


def lasting_skills(holder: Combatant) -> frozenset[str]:
    """umh 4.1.5.2: the skills of his sheet that outlast his fall (casefolded names)."""
    return frozenset(
        s.name.casefold() for s in holder.parsed_sheet().skills if s.persists_when_fallen
    )


def release_holds(
    before: Mapping[str, Combatant],
    changed: dict[str, Combatant],
    combat_id: str,
) -> list[Event]:
    """umh 4.1.5, 11.4.1: for each combatant this hit felled or knocked out, end what he
    keeps up on the others (``changed`` is updated in place with those others)."""
    events: list[Event] = []
    for holder, after in list(changed.items()):
        prior = before.get(holder)
        reason = lost_hold(prior, after) if prior is not None else None
        if reason is None:
            continue
        lasting = lasting_skills(after) if reason == "fallen" else frozenset()
        for who in before:
            if who == holder:
                continue
            current = changed.get(who, before[who])
            kept, ended = cancel_maintained(
                current, who, combat_id, reason, holder=holder, lasting=lasting
            )
            if ended:
                changed[who] = kept
                events += ended
    return events


def release_on_flight(
    condition: CombatCondition, holder: str
) -> tuple[dict[str, Combatant], list[Event]]:
    """umh 4.1.1.1 / 4.1.5 / A-91: ``holder`` fled, which counts as falling: what he keeps up
    on himself and on the others ends (``effect.expired``, reason ``fled``), except the
    skills his sheet marks ``persists_when_fallen`` (4.1.5.2). Indirects and states he
    inflicted stay (4.1.5.1). Returns the combatants that changed; none when he is unknown
    or nothing of his was still up (a repeated flight ends nothing twice)."""
    fled = condition.participants.get(holder)
    if fled is None:
        return {}, []
    lasting = lasting_skills(fled)
    changed: dict[str, Combatant] = {}
    events: list[Event] = []
    for who, combatant in condition.participants.items():
        kept, ended = cancel_maintained(
            combatant, who, condition.combat_id, "fled", holder=holder, lasting=lasting
        )
        if ended:
            changed[who] = kept
            events += ended
    return changed, events
