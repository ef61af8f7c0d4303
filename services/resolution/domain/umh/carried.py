"""What a fighter keeps from one combat into the next (umh 4.1.7): his VIT and lasting effects.

At the end of a combat that counts (every end but an annulment, 4.2.4) resolution tells
services/states each participant's VIT and the effects he received that outlast the combat
(``condition.carried``). At his next start or join he enters with what states kept.

Which effects last (docs/umh.md, reading of 4.1.7): what he *received*, indirect damage
(11.2), crowd control (11.4) and altered states (11.5), with general actions still to run
or no end (an amputation lasts until healed, 11.5.5); they go on counting in his next
combat. What a fighter keeps up on himself (boosters, reductions, regenerations, shields,
coatings) ends with the combat, like every active skill of one who falls (4.1.5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Final

from services.resolution.domain.umh.condition import Combatant, CombatCondition
from services.resolution.domain.umh.effect import Effect
from services.resolution.domain.umh.effects import applied_event
from shared.carried import Carried, CarriedEffect, ConditionCarried, EndCondition
from shared.messages import CONDITION_CARRIED, Event, derived_id
from shared.vocabulary import EffectKind, EndReason

LASTING_KINDS: Final = frozenset({EffectKind.INDIRECT, EffectKind.CONTROL, EffectKind.STATE})
"""Received effects that outlast a combat (umh 4.1.7)."""


def lasts(effect: Effect) -> bool:
    """umh 4.1.7 / 11.5.5: a received effect with actions still to run, or none set."""
    if effect.kind not in LASTING_KINDS:
        return False
    return effect.actions_left is None or effect.actions_left > 0


def carried_effect(effect: Effect) -> CarriedEffect:
    return CarriedEffect(
        effect_id=effect.effect_id,
        kind=str(effect.kind),
        type=effect.type,
        amount=effect.amount,
        actions_left=effect.actions_left,
        source=effect.source,
        skill=effect.skill,
        limb=effect.limb,
    )


def end_condition(combatant: Combatant) -> EndCondition:
    kept = [carried_effect(e) for e in combatant.effects if lasts(e)]
    return EndCondition(vit=combatant.vit, vit_max=combatant.vit_max, effects=kept)


def condition_carried(condition: CombatCondition, payload: Mapping[str, Any]) -> list[Event]:
    """umh 4.1.7: ``condition.carried`` for an end that counts (none for an annulment)."""
    reason = payload.get("reason")
    if reason is None or reason == EndReason.ANNULLED:
        return []
    carried = ConditionCarried(
        combat_id=condition.combat_id,
        ruleset=condition.ruleset,
        reason=EndReason(reason),
        ended_at_ms=int(payload.get("ended_at_ms") or 0),
        participants={cid: end_condition(c) for cid, c in condition.participants.items()},
    )
    return [Event(CONDITION_CARRIED, carried.model_dump(mode="json"))]


def effect_in(combat_id: str, effect: CarriedEffect) -> Effect:
    """A carried effect in the new combat: a new id there, indirect damage ticking from the
    first general action (it was inflicted before this combat, 11.3.3)."""
    kind = EffectKind(effect.kind)
    return Effect(
        effect_id=derived_id("e", combat_id, "carried", effect.effect_id),
        kind=kind,
        type=effect.type,
        amount=effect.amount,
        actions_left=effect.actions_left,
        source=effect.source,
        skill=effect.skill,
        armed=kind == EffectKind.INDIRECT,
        limb=effect.limb,
    )


def carry_in(
    combat_id: str, character: str, combatant: Combatant, carried: Carried | None
) -> tuple[Combatant, list[Event]]:
    """umh 4.1.7: he enters with the VIT and effects he kept (never above his sheet's VIT,
    which may have changed since); each effect is announced (``effect.applied``, not a state
    received in this combat: no immunity of 4.2.1 from it)."""
    if carried is None:
        return combatant, []
    if carried.vit is not None:
        combatant = combatant.with_vit(min(combatant.vit_max, carried.vit))
    effects = [effect_in(combat_id, e) for e in carried.effects]
    known = {e.effect_id for e in combatant.effects}
    new = [e for e in effects if e.effect_id not in known]
    combatant = replace(combatant, effects=(*combatant.effects, *new))
    events = [applied_event(combat_id, character, e, None, received=False) for e in new]
    return combatant, events


def carried_at_start(
    condition: CombatCondition, payload: Mapping[str, Any]
) -> tuple[CombatCondition, list[Event]]:
    """Everyone of ``combat.started`` with what services/states said he carries."""
    raw = payload.get("carried") or {}
    changed: dict[str, Combatant] = {}
    events: list[Event] = []
    for cid, combatant in condition.participants.items():
        if cid not in raw:
            continue
        entered, announced = carry_in(
            condition.combat_id, cid, combatant, Carried.model_validate(raw[cid])
        )
        changed[cid] = entered
        events += announced
    return condition.updated(changed), events
