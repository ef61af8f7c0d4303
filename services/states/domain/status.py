"""The body of ``GET /v1/characters/{id}/status`` (API.md "Characters' aftermath")."""

from __future__ import annotations

from typing import Any

from services.states.domain.record import CharacterRecord
from shared.payloads import CharacterStatus


def status_body(record: CharacterRecord | None) -> dict[str, Any]:
    """API.md status: this slice fills ``in_combat`` and ``vigor_lost`` (umh 4.1.4).

    Immunities (4.2), room bans and flee cooldowns (4.1.1.1.1), imprisonment (4.5), weekly
    uses (2.3.4.2) and combat requirements (4.4) keep their empty values until their issues.
    A character never seen has the defaults.
    """
    if record is None:
        return CharacterStatus().model_dump(mode="json")
    status = CharacterStatus(in_combat=record.in_combat, vigor_lost=record.vigor_lost)
    return status.model_dump(mode="json")
