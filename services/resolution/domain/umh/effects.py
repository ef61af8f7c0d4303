"""Active effects on a combatant: adding, replacing, refusing and ending them (umh 11).

An effect is an :class:`~services.resolution.domain.umh.effect.Effect`. Every change comes
back with its ``effect.applied`` / ``effect.expired`` event, built through the payload models.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final, Literal

from services.resolution.domain.umh.condition import Combatant
from services.resolution.domain.umh.effect import Effect
from shared.messages import EFFECT_APPLIED, EFFECT_EXPIRED, Event, derived_id
from shared.payloads import EffectApplied, EffectExpired, EffectView
from shared.vocabulary import EffectKind

ExpiryReason = Literal["duration", "replaced", "broken", "removed", "fallen", "fled"]

CONTROL_BLOCKS: Final[dict[str, tuple[str, ...]]] = {
    "aturdimiento": ("act",),
    "desmayo": ("act",),
    "dormido": ("act",),
    "petrificacion": ("act",),
    "paralisis": ("act_unless_telepathic",),
    "congelacion": ("act_unless_telepathic",),
}
"""umh 11.4.1 - 11.4.4: stun, faint, sleep and petrification stop every action; paralysis
and freezing leave telepathic skills (11.4.2)."""

STATE_BLOCKS: Final[dict[str, tuple[str, ...]]] = {
    "inmovilizacion": ("move", "evade_with_legs"),
    "derribo": ("move", "evade_with_legs", "stand_up"),
    "inhabilitacion_piernas": ("move",),
    "inhabilitacion_alas": ("move",),
    "mudez": ("speech",),
}
"""umh 11.5.1, 11.5.2, 11.5.4.2 - 11.5.4.3, 11.5.8 (enamoured, 11.5.10, blocks
``attack:<source>``)."""

STATE_KINDS: Final = frozenset({EffectKind.INDIRECT, EffectKind.CONTROL, EffectKind.STATE})
"""What counts as "received a state" for the immunity of umh 4.2.1."""


def make_effect(
    kind: EffectKind,
    type_: str,
    *,
    key: str,
    amount: float | None = None,
    actions: int | None = None,
    source: str | None = None,
    skill: str | None = None,
    limb: str | None = None,
) -> Effect:
    """A new effect; ``key`` (action, hit, target) makes its id deterministic (an
    amputation's limb too, umh 11.5.5)."""
    parts = (key, str(kind), type_) if limb is None else (key, str(kind), type_, limb)
    effect_id = derived_id("e", *parts)
    return Effect(effect_id, kind, type_, amount, actions, source, skill, limb=limb)


def view_of(effect: Effect) -> EffectView:
    """The public form of an effect (docs/api.md ``effects``)."""
    return EffectView(
        effect_id=effect.effect_id,
        kind=str(effect.kind),
        type=effect.type,
        amount=effect.amount,
        actions_left=effect.actions_left,
        source=effect.source,
        limb=effect.limb,
    )


def blocks_of(effect: Effect) -> list[str]:
    """What the effect forbids its carrier, for services/turns (EffectApplied.blocks)."""
    if effect.kind == EffectKind.CONTROL:
        return list(CONTROL_BLOCKS.get(effect.type, ("act",)))
    if effect.kind == EffectKind.STATE:
        if effect.type == "enamoramiento" and effect.source:
            return [f"attack:{effect.source}"]
        return list(STATE_BLOCKS.get(effect.type, ()))
    return []


def applied_event(
    combat_id: str,
    character: str,
    effect: Effect,
    action_id: str | None,
    *,
    received: bool = True,
) -> Event:
    """``effect.applied``; ``received=False`` for one carried from an earlier combat (umh
    4.1.7): not a state received in this one (no immunity of 4.2.1 from it)."""
    payload = EffectApplied(
        combat_id=combat_id,
        character=character,
        effect=view_of(effect),
        blocks=blocks_of(effect),
        action_id=action_id,
        is_state=received and effect.kind in STATE_KINDS,
        from_last_combat=not received,
    )
    return Event(EFFECT_APPLIED, payload.model_dump(mode="json"))


def expired_event(combat_id: str, character: str, effect: Effect, reason: ExpiryReason) -> Event:
    payload = EffectExpired(
        combat_id=combat_id,
        character=character,
        effect_id=effect.effect_id,
        kind=str(effect.kind),
        type=effect.type,
        reason=reason,
    )
    return Event(EFFECT_EXPIRED, payload.model_dump(mode="json"))


def remove(
    combatant: Combatant, effect: Effect, reason: ExpiryReason, combat_id: str, who: str
) -> tuple[Combatant, Event]:
    """Take ``effect`` off. A crowd control that ends leaves the CC immunity (11.5.16,
    A-93); a suffocation that ends makes its damage regenerable again (11.3.6)."""
    kept = tuple(e for e in combatant.effects if e.effect_id != effect.effect_id)
    changed = replace(combatant, effects=kept)
    if effect.kind == EffectKind.CONTROL:
        changed = replace(changed, cc_immune=True)
    if effect.kind == EffectKind.INDIRECT and effect.type == "asfixia":
        changed = replace(changed, ledger={**changed.ledger, "suffocation": 0})
    return changed, expired_event(combat_id, who, effect, reason)


def _stronger(new: Effect, old: Effect) -> bool:
    """A-46 / A-47: a higher amount, or a longer duration (None lasts until removed)."""
    new_amount, old_amount = new.amount or 0, old.amount or 0
    if new_amount != old_amount:
        return bool(new_amount > old_amount)
    new_left, old_left = new.actions_left, old.actions_left
    if new_left is None or old_left is None:
        return new_left is None and old_left is not None
    return bool(new_left > old_left)


def refusal(combatant: Combatant, effect: Effect, resist_key: str | None) -> str | None:
    """Why ``effect`` cannot land on ``combatant`` now, or None.

    Crowd control: one at a time (11.5.18), not during the CC immunity (11.5.16, A-93),
    not from a skill he resisted until his own turn (11.5.17). Indirect damage and states:
    one of each type; an equal or weaker one is ignored (11.3.1 - 11.3.2, A-46; 11.5.15,
    A-47). Boosters and reductions: only the highest of a nature prevails (8.1.1.2.1).
    """
    kind, type_ = effect.kind, effect.type
    if kind == EffectKind.CONTROL:
        if combatant.has(EffectKind.CONTROL):
            return "one_control_at_a_time"
        if combatant.cc_immune:
            return "control_immunity"
        if resist_key is not None and resist_key in combatant.resist_immune:
            return "resisted_before"
        return None
    same = [e for e in combatant.effects_of(kind, type_) if e.limb == effect.limb]
    if not same:
        return None
    if kind in (EffectKind.REGENERATION, EffectKind.SHIELD, EffectKind.COATING):
        return None  # umh 8.1.1.2.2: the new one renews and replaces every value
    return None if _stronger(effect, same[0]) else "weaker_than_active"


def add(
    combatant: Combatant,
    effect: Effect,
    *,
    combat_id: str,
    who: str,
    action_id: str | None,
    resist_key: str | None = None,
) -> tuple[Combatant, list[Event], str | None]:
    """Put ``effect`` on ``combatant`` under :func:`refusal`; returns the events and the
    reason it was refused (None when it landed)."""
    reason = refusal(combatant, effect, resist_key)
    if reason is not None:
        return combatant, [], reason
    events: list[Event] = []
    changed = combatant
    if effect.kind != EffectKind.CONTROL:
        for old in combatant.effects_of(effect.kind, effect.type):
            if old.limb != effect.limb:
                continue  # umh 11.5.5: an amputation of another limb is another state
            changed, event = remove(changed, old, "replaced", combat_id, who)
            events.append(event)
    changed = replace(changed, effects=(*changed.effects, effect))
    if effect.kind == EffectKind.CONTROL:
        changed = replace(changed, cc_seen=True)
    events.append(applied_event(combat_id, who, effect, action_id))
    return changed, events, None


def break_states(
    combatant: Combatant, types: tuple[str, ...], combat_id: str, who: str
) -> tuple[Combatant, list[Event]]:
    """End the effects of ``types`` at once (sleep woken 11.4.1.2, petrification and
    freezing broken by a physical attack 11.4.12 - 11.4.13)."""
    events: list[Event] = []
    for effect in list(combatant.effects):
        if effect.type in types:
            combatant, event = remove(combatant, effect, "broken", combat_id, who)
            events.append(event)
    return combatant, events


MAINTAINED_KINDS: Final = frozenset(
    {
        EffectKind.BOOSTER,
        EffectKind.REDUCTION,
        EffectKind.REGENERATION,
        EffectKind.SHIELD,
        EffectKind.COATING,
        EffectKind.INCREASE,
    }
)
"""Effects a player keeps up with his own skills (auras, shields): not indirects or states
he inflicted, which stay (umh 4.1.5.1)."""

STUNNING: Final = frozenset({"aturdimiento", "desmayo", "dormido"})
"""umh 11.4.1 - 11.4.1.2: these cancel the non-passive skills the player maintains."""


def cancel_maintained(
    combatant: Combatant,
    who: str,
    combat_id: str,
    reason: ExpiryReason,
    *,
    holder: str | None = None,
    lasting: frozenset[str] = frozenset(),
) -> tuple[Combatant, list[Event]]:
    """umh 11.4.1 (stunned: "broken"), 4.1.5 (fallen: "fallen") and 4.1.1.1 / A-91 (fled:
    "fled"): the skills ``holder`` (by default ``who`` himself) keeps up on ``who`` end; the
    sheet's passives are not effects and stay, and so do the skills named in ``lasting``
    (4.1.5.2: marked ``persists_when_fallen``, they outlast his fall)."""
    keeper = who if holder is None else holder
    events: list[Event] = []
    for effect in list(combatant.effects):
        if effect.kind not in MAINTAINED_KINDS or effect.source != keeper:
            continue
        if (effect.skill or "").casefold() in lasting:
            continue
        combatant, event = remove(combatant, effect, reason, combat_id, who)
        events.append(event)
    return combatant, events
