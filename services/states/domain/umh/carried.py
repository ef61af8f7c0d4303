"""What a fighter keeps from one combat into the next (umh 4.1.7).

"En cualquiera de los tres casos" (flight, defeat, pact) whoever lost VIT or received an
effect keeps it, and the combat's record says so. services/resolution tells each
participant's condition at the end (``condition.carried``; nothing for an annulled combat,
which counts nothing, 4.2.4); this module keeps it on his record, writes it in his history
(``aftermath.applied``, change ``carried``), hands it to his next start or join through the
gates (:func:`carried_for`), heals the VIT when the community set a time for it, and lets a
moderator clear or set it (:func:`adjust_carried`).

Readings (docs/umh.md): every end but an annulment counts (stalemate and disconnection too:
the fight happened); a fighter who ended at 0 VIT keeps 1 (he lost his vigor point, 4.1.4,
and a combat cannot start with one of its fighters already down); the new combat's end
replaces what he carried into it, since he entered with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from services.states.domain.umh.history import arm, disarm, note
from services.states.domain.umh.record import (
    MAX_COMBATS_SEEN,
    CarriedCondition,
    CharacterRecord,
)
from shared.carried import Carried, CarriedEffect, ConditionCarried
from shared.domain import rfc3339
from shared.errors import RuleViolation
from shared.outcome import Outcome

RULE: Final = "umh 4.1.7"
RECOVERY_KIND: Final = "carried_vit_recovery"
CARRIED_VIT_RECOVERED: Final = "carried_vit.recovered"
STATUS_ADJUSTED: Final = "status.adjusted"


@dataclass(frozen=True)
class Kept:
    """One participant's condition at the end of a combat that counts."""

    combat_id: str
    reason: str
    ended_ms: int
    vit: int
    vit_max: int
    effects: tuple[CarriedEffect, ...] = ()


def kept_of(character: str, payload: Mapping[str, Any]) -> Kept | None:
    """``condition.carried`` as it concerns ``character`` (None: not a participant)."""
    msg = ConditionCarried.model_validate(payload)
    end = msg.participants.get(character)
    if end is None:
        return None
    return Kept(
        msg.combat_id, msg.reason, msg.ended_at_ms, end.vit, end.vit_max, tuple(end.effects)
    )


def effect_detail(effect: CarriedEffect) -> dict[str, Any]:
    return {
        "effect_id": effect.effect_id,
        "kind": effect.kind,
        "type": effect.type,
        "amount": effect.amount,
        "actions_left": effect.actions_left,
        "source": effect.source,
        "limb": effect.limb,
    }


def keep(
    record: CharacterRecord, kept: Kept, out: Outcome, *, recovery_ms: int
) -> CharacterRecord | None:
    """umh 4.1.7: keep his VIT (when below his sheet's; 0 keeps 1) and lasting effects.

    A combat kept already, an annulment, or one older than what he carries changes nothing.
    Nothing lost and nothing carried before: nothing written. Otherwise what he carries now
    replaces what he carried into this combat, and the history says it; with a recovery
    time set (``carried_vit_recovery_seconds``) his VIT heals whole that long after the end.
    """
    current = record.carried
    if (
        kept.reason == "annulled"
        or kept.combat_id in record.carried_from
        or (current is not None and current.since_ms > kept.ended_ms)
    ):
        return None
    record = replace(
        record, carried_from=(*record.carried_from, kept.combat_id)[-MAX_COMBATS_SEEN:]
    )
    vit = max(1, kept.vit) if kept.vit < kept.vit_max else None
    if vit is None and not kept.effects and current is None:
        return record
    disarm(out, current.recovery if current else None)
    carried: CarriedCondition | None = None
    if vit is not None or kept.effects:
        carried = CarriedCondition(kept.combat_id, kept.ended_ms, kept.vit_max, vit, kept.effects)
        if vit is not None and recovery_ms > 0:
            record, timed = arm(
                record,
                out,
                kind=RECOVERY_KIND,
                since_ms=kept.ended_ms,
                until_ms=kept.ended_ms + recovery_ms,
                rule=RULE,
                reason="carried_vit",
                combat_id=kept.combat_id,
            )
            carried = replace(carried, recovery=timed)
    record = replace(record, carried=carried)
    return note(
        record,
        out,
        at_ms=kept.ended_ms,
        change="carried",
        combat_id=kept.combat_id,
        rule=RULE,
        reason=kept.reason,
        vit=vit,
        vit_max=kept.vit_max,
        effects=[effect_detail(e) for e in kept.effects],
        recovers_at=rfc3339(carried.recovery.until_ms) if carried and carried.recovery else None,
    )


def carried_for(record: CharacterRecord | None) -> Carried | None:
    """What his next start or join hands to the combat (``states.check``)."""
    if record is None or record.carried is None:
        return None
    held = record.carried
    return Carried(combat_id=held.combat_id, vit=held.vit, effects=list(held.effects))


def carried_view(record: CharacterRecord) -> dict[str, Any] | None:
    """The status' ``carried``: what he takes into his next combat."""
    held = record.carried
    if held is None:
        return None
    return {
        "combat_id": held.combat_id,
        "vit": held.vit,
        "vit_max": held.vit_max,
        "effects": [effect_detail(e) for e in held.effects],
        "recovers_at": rfc3339(held.recovery.until_ms) if held.recovery else None,
    }


def with_vit(record: CharacterRecord, vit: int | None) -> CharacterRecord:
    """His carried VIT set (None: whole); nothing left to carry clears it."""
    held = record.carried
    assert held is not None
    if vit is None or vit >= held.vit_max:
        held = replace(held, vit=None, recovery=None)
    else:
        held = replace(held, vit=vit)
    empty = held.vit is None and not held.effects
    return replace(record, carried=None if empty else held)


def recover_carried_vit(
    record: CharacterRecord, out: Outcome, *, at_ms: int, reason: str
) -> CharacterRecord:
    """The recovery time is over: his VIT is whole again (``carried_vit.recovered``). The
    caller has taken the timer off the record."""
    held = record.carried
    if held is None:
        return record
    return note(
        with_vit(record, None),
        out,
        at_ms=at_ms,
        change="carried_vit_recovered",
        combat_id=held.combat_id,
        rule=RULE,
        event=CARRIED_VIT_RECOVERED,
        reason=reason,
        vit_max=held.vit_max,
    )


@dataclass(frozen=True)
class CarriedAdjustment:
    """A moderator's change to what he carries: ``lift`` (all, ``key`` ``vit`` or one effect
    by id or type), a new ``vit``, or an earlier recovery (``until_ms``)."""

    key: str | None
    lift: bool
    vit: int | None
    until_ms: int | None
    reason: str
    moderator: str | None
    at_ms: int


def without_effect(record: CharacterRecord, key: str) -> CharacterRecord:
    held = record.carried
    assert held is not None
    folded = key.casefold()
    kept = tuple(e for e in held.effects if e.effect_id != key and e.type.casefold() != folded)
    if len(kept) == len(held.effects):
        raise RuleViolation("no_such_state", None, kind="carried", key=key)
    held = replace(held, effects=kept)
    return replace(record, carried=None if held.vit is None and not kept else held)


def adjust_carried(
    record: CharacterRecord, out: Outcome, change: CarriedAdjustment
) -> CharacterRecord:
    """A moderator clears, sets or heals sooner what he carries (umh 4.1.7), with a reason
    kept in his history (``status.adjusted``, kind ``carried``).

    Order: he must carry something (``no_such_state``); ``lift`` clears it all, or only the
    VIT (``key`` ``vit``) or one effect (its id or type); ``vit`` sets the VIT he carries
    (his whole VIT or more: healed); ``until`` brings the recovery forward, never back
    (``invalid_adjustment``).
    """
    held = record.carried
    if held is None or (change.key == "vit" and held.vit is None):
        raise RuleViolation("no_such_state", None, kind="carried", key=change.key)
    before: dict[str, Any] = {"vit": held.vit, "effects": len(held.effects)}
    recovery = held.recovery
    if change.lift:
        action = "lift"
        if change.key is None:
            disarm(out, recovery)
            record = replace(record, carried=None)
        elif change.key == "vit":
            disarm(out, recovery)
            record = with_vit(record, None)
        else:
            record = without_effect(record, change.key)
    elif change.vit is not None:
        action = "set_vit"
        if change.vit >= held.vit_max:
            disarm(out, recovery)
        record = with_vit(record, change.vit)
    else:
        action = "shorten"
        record = shorten_recovery(record, out, change)
    after = record.carried
    return note(
        record,
        out,
        at_ms=change.at_ms,
        change="moderated",
        combat_id=held.combat_id,
        rule=RULE,
        event=STATUS_ADJUSTED,
        reason=change.reason,
        moderator=change.moderator,
        kind="carried",
        key=change.key,
        action=action,
        before=before,
        after={"vit": after.vit, "effects": len(after.effects)} if after else None,
        until=rfc3339(after.recovery.until_ms) if after and after.recovery else None,
    )


def shorten_recovery(
    record: CharacterRecord, out: Outcome, change: CarriedAdjustment
) -> CharacterRecord:
    """The carried VIT heals at ``until_ms`` instead (sooner only); a time already past heals
    it now."""
    held = record.carried
    assert held is not None and change.until_ms is not None
    recovery = held.recovery
    if recovery is None or held.vit is None:
        raise RuleViolation("no_such_state", None, kind="carried", key="recovery")
    if change.until_ms >= recovery.until_ms:
        raise RuleViolation(
            "invalid_adjustment",
            None,
            until=rfc3339(change.until_ms),
            current=rfc3339(recovery.until_ms),
        )
    disarm(out, recovery)
    if change.until_ms <= change.at_ms:
        return with_vit(record, None)
    record, timed = arm(
        record,
        out,
        kind=RECOVERY_KIND,
        since_ms=recovery.since_ms,
        until_ms=change.until_ms,
        rule=RULE,
        reason=recovery.reason,
        combat_id=recovery.combat_id,
    )
    return replace(record, carried=replace(held, recovery=timed))
