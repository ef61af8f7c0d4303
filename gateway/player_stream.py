"""The player view of the event stream (docs/views.md), for the viewers that get it.

An entry of the fan-out is filtered once per visibility setting and language, and told
again from what the filtered event shows (its full ``text`` could say what the view hides);
the result is kept on the entry, so every player viewer of a community shares the work. The
bars of an ``action.resolved`` row need the combat's vit_max: read from the combat once per
combat, and again when a character joins that the lens has not seen.
"""

from __future__ import annotations

import json
from typing import Any

from gateway.fanout import Entry
from gateway.narration import Storyteller
from gateway.player_view import Maxima, maxima_of, player_event
from gateway.views import CombatReader
from shared.frontend_settings import VitVisibility
from shared.messages import ACTION_RESOLVED
from shared.narration.words import Lang
from shared.settings import CommunitySettings


class PlayerLens:
    def __init__(self, combats: CombatReader, tenant: str, settings: CommunitySettings) -> None:
        self._combats = combats
        self._tenant = tenant
        self._visibility = settings.visibility
        self._key = settings.visibility.model_dump_json()
        self._maxima: dict[str, dict[str, int]] = {}
        self._asked: dict[str, set[str]] = {}

    async def data(self, entry: Entry, teller: Storyteller, lang: Lang) -> str:
        """The SSE ``data`` of ``entry`` in the player view, told in ``lang``."""
        key = f"{lang}:{self._key}"
        shown = entry.shown.get(key)
        if shown is None:
            maxima = await self._maxima_for(entry, entry.public)
            filtered = player_event(entry.public, self._visibility, maxima)
            await teller.prepare([filtered])
            shown = json.dumps(teller.told(filtered, lang), separators=(",", ":"))
            entry.shown[key] = shown
        return shown

    async def _maxima_for(self, entry: Entry, event: dict[str, Any]) -> Maxima:
        if (
            self._visibility.vit is not VitVisibility.BAR
            or entry.type != ACTION_RESOLVED
            or entry.combat_id is None
        ):
            return {}
        data = event.get("data")
        results = data.get("results") if isinstance(data, dict) else None
        targets = {
            str(row["target"]) for row in results or [] if isinstance(row, dict) and "target" in row
        }
        asked = self._asked.setdefault(entry.combat_id, set())
        if not targets <= asked:  # a target not looked up yet: read the combat again
            combat = await self._combats.view(entry.combat_id, self._tenant)
            self._maxima[entry.combat_id] = maxima_of(combat) if combat is not None else {}
            asked |= targets
        return self._maxima.get(entry.combat_id, {})
