"""The end of a wall-clock state (docs/rules.md 7.1): its timer fired, or a moderator lifted it.

Each end is announced with its own event, so frontends can tell a player the moment he is
free: ``immunity.expired``, ``room_ban.expired``, ``irrumpir_ban.expired``,
``flee_cooldown.expired``, ``imprisonment.expired``, ``vigor.recovered``,
``post_combat_state.expired``, ``weekly_uses.reset`` and ``carried_vit.recovered``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from services.states.domain.umh.carried import RECOVERY_KIND, recover_carried_vit
from services.states.domain.umh.history import note
from services.states.domain.umh.imprisonment import free
from services.states.domain.umh.record import CharacterRecord, Timed
from services.states.domain.umh.vigor import recover_vigor
from shared.outcome import Outcome

EXPIRY_EVENTS: Final[dict[str, str]] = {
    "immunity": "immunity.expired",
    "room_ban": "room_ban.expired",
    "irrumpir_ban": "irrumpir_ban.expired",
    "flee_cooldown": "flee_cooldown.expired",
    "imprisonment": "imprisonment.expired",
    "vigor_recovery": "vigor.recovered",
    "post_combat_state": "post_combat_state.expired",
    "weekly_reset": "weekly_uses.reset",
    "carried_vit_recovery": "carried_vit.recovered",
}

KEY_NAMES: Final[dict[str, str]] = {
    "room_ban": "room",
    "flee_cooldown": "cooldown",
    "post_combat_state": "state",
}
"""How each kind's ``key`` is called in its event."""


def end_timed(
    record: CharacterRecord, out: Outcome, timed: Timed, *, at_ms: int, reason: str, rule: str
) -> CharacterRecord:
    """End one timed state now (its timer is dealt with by the caller) and announce it.

    Vigor comes back all at once (4.1.6), a prisoner is freed (4.5.2), a week's uses reset
    (2.3.4.2: the uses before the new Monday are forgotten); any other state is removed.
    """
    if timed.kind == "imprisonment":
        return free(record, out, at_ms=at_ms, reason=reason, rule=rule)
    record = record.swap_timed(timed.timer_id, None)
    if timed.kind == "vigor_recovery":
        return recover_vigor(record, out, at_ms=at_ms, reason=reason, rule=rule)
    if timed.kind == RECOVERY_KIND:
        return recover_carried_vit(record, out, at_ms=at_ms, reason=reason)
    if timed.kind == "weekly_reset":
        uses = tuple(u for u in record.weekly_uses if u[1] >= timed.until_ms)
        record = replace(record, weekly_uses=uses)
    detail = {KEY_NAMES[timed.kind]: timed.key} if timed.kind in KEY_NAMES else {}
    return note(
        record,
        out,
        at_ms=at_ms,
        change=f"{timed.kind}_expired",
        combat_id=timed.combat_id,
        rule=rule,
        event=EXPIRY_EVENTS[timed.kind],
        reason=reason,
        **detail,
    )


def on_timer(
    record: CharacterRecord, timer_id: str, out: Outcome, *, now_ms: int
) -> CharacterRecord | None:
    """A timer fired: the state it ends is over (``None`` if the record no longer has it:
    cancelled, replaced or ended by a moderator meanwhile)."""
    timed = record.timed(timer_id)
    if timed is None:
        return None
    return end_timed(record, out, timed, at_ms=now_ms, reason="elapsed", rule=timed.rule)
