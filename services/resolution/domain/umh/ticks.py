"""Time inside a combat: general actions, the start and end of turns (umh 2.1.5, 2.3.6,
2.5.2, 11.2 - 11.3, 11.5.14 - 11.5.17).

Durations are counted in general actions (A-26: offensive and supplementary skills and
each combo impact; not reactions, passes, movement, or actions in interference turns,
2.5.2). Indirect damage ticks once per general action from the general turn after the one
it was inflicted in (11.3.3 / A-25); crowd control and states count from the next general
action (11.5.14 / A-48). Regenerations apply at the end of each own turn (2.3.6, 1.2.6.4).
"""

from __future__ import annotations

from dataclasses import replace

from services.resolution.domain.umh.condition import Combatant, CombatCondition
from services.resolution.domain.umh.effect import Effect
from services.resolution.domain.umh.effects import remove
from shared.messages import COMBATANT_DOWN, Event
from shared.payloads import CombatantDown
from shared.vocabulary import EffectKind

UNREGENERABLE_INDIRECT = {"dolor": "pain", "maleficio": "soul", "asfixia": "suffocation"}
"""umh 11.3.4 - 11.3.6: pain (mental), curse (soul) and suffocation (until it ends)."""


def _indirect_hit(combatant: Combatant, effect_type: str, amount: int) -> Combatant:
    """umh 11.2.1, 8.1.1.3.1.2: indirect damage comes straight off VIT, no defense."""
    hurt = combatant.with_vit(combatant.vit - amount)
    taken = combatant.vit - hurt.vit
    key = UNREGENERABLE_INDIRECT.get(effect_type)
    return hurt.booked(**{key: taken}) if key else hurt


def tick(
    combatant: Combatant, who: str, combat_id: str, *, indirect: bool, durations: bool
) -> tuple[Combatant, list[Event]]:
    """One general action for one combatant: armed indirect damage ticks (``indirect``),
    every duration counts down (``durations``), what reaches 0 ends."""
    events: list[Event] = []
    was_up = not combatant.is_down
    kept: list[Effect] = []
    ended: list[Effect] = []
    for current in combatant.effects:
        counts = durations
        if current.kind == EffectKind.INDIRECT:
            counts = indirect and current.armed
            if counts:
                combatant = _indirect_hit(combatant, current.type, current.amount_int)
        if counts and current.actions_left is not None:
            current = replace(current, actions_left=int(current.actions_left) - 1)
        (ended if current.actions_left == 0 else kept).append(current)
    combatant = replace(combatant, effects=tuple(kept + ended))
    for effect in ended:
        combatant, event = remove(combatant, effect, "duration", combat_id, who)
        events.append(event)
    if was_up and combatant.is_down:
        down = CombatantDown(character=who, cause="indirect")
        events.append(Event(COMBATANT_DOWN, down.model_dump(mode="json")))
    return combatant, events


def general_action(condition: CombatCondition) -> tuple[CombatCondition, list[Event]]:
    """umh 11.2.1, 11.5.14 / A-25, A-26, A-48: one general action of the combat passed
    (indirect damage ticks here unless the combat's reading ticks it per turn)."""
    readings = condition.readings
    changed: dict[str, Combatant] = {}
    events: list[Event] = []
    for who, combatant in condition.participants.items():
        if combatant.is_down:
            continue
        changed[who], more = tick(
            combatant,
            who,
            condition.combat_id,
            indirect=not readings.indirect_per_turn,
            durations=True,
        )
        events += more
    return condition.updated(changed), events


def turn_started(condition: CombatCondition, actor: str) -> tuple[CombatCondition, list[Event]]:
    """umh 11.3.3 / A-25: indirect damage inflicted before this general turn is armed (or,
    with the combat's per-turn reading, ticks now); the actor's turn starts "with or
    without" crowd control (11.5.16 / A-93)."""
    readings = condition.readings
    changed: dict[str, Combatant] = {}
    events: list[Event] = []
    for who, combatant in condition.participants.items():
        effects = tuple(
            replace(e, armed=True) if e.kind == EffectKind.INDIRECT else e
            for e in combatant.effects
        )
        current = replace(combatant, effects=effects)
        if who == actor:
            current = replace(current, cc_seen=current.has(EffectKind.CONTROL))
        if readings.indirect_per_turn and not current.is_down:
            current, more = tick(current, who, condition.combat_id, indirect=True, durations=False)
            events += more
        changed[who] = current
    return condition.updated(changed), events


def regenerable(combatant: Combatant) -> int:
    """umh 7.1.1 Mental (50 %), Daño al alma, 11.3.4 - 11.3.6: VIT that may come back."""
    ledger = combatant.ledger
    mental = ledger.get("mental", 0)
    locked = ledger.get("soul", 0) + ledger.get("pain", 0) + ledger.get("suffocation", 0)
    locked += mental - mental // 2
    return max(0, combatant.vit_max - combatant.vit - locked)


def regeneration_of(combatant: Combatant) -> int:
    """umh 2.3.6 / A-69: the sheet's passive regeneration plus active regeneration effects."""
    effects = sum(e.amount_int for e in combatant.effects_of(EffectKind.REGENERATION))
    return int(combatant.sheet.get("regeneration", 0)) + effects


def turn_ended(condition: CombatCondition, actor: str) -> CombatCondition:
    """umh 2.3.6, 1.2.6.4, 11.5.16 - 11.5.17: the end of ``actor``'s own turn.

    Order: regeneration (capped by what may regenerate), then the CC immunity ends if no
    crowd control was active in this turn (A-93), then RESISTIR immunities end (11.5.17).
    """
    combatant = condition.participants.get(actor)
    if combatant is None:
        return condition
    if not combatant.is_down:
        healed = min(regeneration_of(combatant), regenerable(combatant))
        combatant = combatant.with_vit(combatant.vit + healed)
    if combatant.cc_immune and not combatant.cc_seen and not combatant.has(EffectKind.CONTROL):
        combatant = replace(combatant, cc_immune=False)
    combatant = replace(combatant, resist_immune=(), cc_seen=combatant.has(EffectKind.CONTROL))
    return condition.updated({actor: combatant})


STAND_UP = frozenset({"stand_up", "levantarse"})
"""The names under which services/turns may declare the *Levantarse* command (umh 11.5.2)."""


def stand_up(condition: CombatCondition, who: str) -> tuple[CombatCondition, list[Event]]:
    """umh 11.5.2: *Levantarse* ends a knockdown (it has no duration of its own)."""
    combatant = condition.participants.get(who)
    if combatant is None:
        return condition, []
    events: list[Event] = []
    for effect in combatant.effects_of(EffectKind.STATE, "derribo"):
        combatant, event = remove(combatant, effect, "removed", condition.combat_id, who)
        events.append(event)
    return condition.updated({who: combatant}), events
