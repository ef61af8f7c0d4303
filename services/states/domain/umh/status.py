"""The read model of a character: ``GET /v1/characters/{id}/status`` (docs/api.md "Characters'
aftermath") and ``GET /v1/characters/{id}/history``. Times are RFC 3339 UTC strings; states
already over at ``now`` (their timer not yet fired) are left out."""

from __future__ import annotations

from typing import Any

from services.states.domain.umh.carried import carried_view
from services.states.domain.umh.record import CharacterRecord, HistoryEntry
from services.states.domain.umh.weeks import uses_this_week
from shared.domain import rfc3339
from shared.payloads import CharacterStatus, RoomBan


def status_body(record: CharacterRecord | None, now_ms: int) -> dict[str, Any]:
    """docs/api.md status: the combat he is in, vigor lost (4.1.4, 4.1.6), immunity (4.2), room and
    IRRUMPIR bans (4.2.3, 4.2.3.1), flight cooldowns (4.1.1.1.1), imprisonment (4.5), weekly
    uses (2.3.4.2), requirements (4.4), post-combat states (4.1.2, 4.3.1) and what he carries
    into his next combat (4.1.7). A character
    never seen has the defaults."""
    if record is None:
        return CharacterStatus().model_dump(mode="json")
    immunity = record.immune(now_ms)
    irrumpir = record.irrumpir_ban
    held = record.imprisoned(now_ms)
    recovery = record.vigor_recovery if record.vigor_lost else None
    status = CharacterStatus(
        in_combat=record.in_combat,
        vigor_lost=record.vigor_lost,
        immune_until=rfc3339(immunity.until_ms) if immunity else None,
        room_bans=[
            RoomBan(room=b.key or "", until=rfc3339(b.until_ms) or "")
            for b in record.room_bans
            if b.active(now_ms)
        ],
        intrude_banned_until=(
            rfc3339(irrumpir.until_ms) if irrumpir and irrumpir.active(now_ms) else None
        ),
        cooldowns={
            c.key or c.kind: rfc3339(c.until_ms) or "" for c in record.cooldowns if c.active(now_ms)
        },
        imprisoned_until=rfc3339(held.timed.until_ms) if held else None,
        weekly_uses=dict(uses_this_week(record.weekly_uses, now_ms, record.config.timezone)),
        requirements_earned=[
            {"combat_id": r.combat_id, "kind": r.kind, "name": r.name, "at": rfc3339(r.at_ms)}
            for r in record.requirements
        ],
        post_combat_states=[
            {
                "state": s.state,
                "by": s.by,
                "skill": s.skill,
                "combat_id": s.combat_id,
                "until": rfc3339(s.timed.until_ms) if s.timed else None,
            }
            for s in record.post_combat_states
            if s.timed is None or s.timed.active(now_ms)
        ],
        vigor_recovers_at=rfc3339(recovery.until_ms) if recovery else None,
        carried=carried_view(record),
    )
    return status.model_dump(mode="json")


def history_entry(entry: HistoryEntry) -> dict[str, Any]:
    """One change as ``GET /v1/characters/{id}/history`` shows it."""
    return {
        **entry.detail,
        "at": rfc3339(entry.at_ms),
        "change": entry.kind,
        "combat_id": entry.combat_id,
    }


def read_model(record: CharacterRecord | None, now_ms: int) -> dict[str, Any]:
    """What services/states publishes for the gateway: the status and the history."""
    history = [history_entry(e) for e in record.history] if record else []
    return {"status": status_body(record, now_ms), "history": history}
