"""Narration at serve time: one stored event, told in the language of each answer.

Events are stored without words; whoever serves them (the combat log, the answers to actions,
the event stream) adds ``text`` in the answer's language with :class:`Storyteller`. Names come
from the combat they happened in: the recorder keeps a small hash per combat (character id ->
the sheet's ``name``, and the combat's ruleset), filled from ``combat.started`` and
``combatant.joined``, which carry the sheets. Events outside any known combat (a rest, a state
that ends days later) take names from the characters' current sheets. Times are told in the
community's time zone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from fastapi import Request
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from gateway.language import answer_voice, language_headers
from shared.keys import Keys
from shared.messages import COMBAT_STARTED, COMBATANT_JOINED, Envelope
from shared.narration.narrate import narrate
from shared.narration.said import Cast
from shared.narration.words import Lang, moment
from shared.redis_streams import text

if TYPE_CHECKING:
    from gateway.context import Gateway

RULESET_FIELD: Final = "@ruleset"  # never a character id (ids are [A-Za-z0-9_.:-])
NAMES_KEEP_SECONDS: Final = 30 * 86400  # longer than a combat and its retention
KEEP_COMBATS: Final = 5000  # names a long-lived storyteller (a stream's reader) keeps at most
PEOPLE_FIELDS: Final = ("character", "actor", "attacker", "reactor", "by", "roller", "target")


def names_in(event_type: str, payload: Mapping[str, Any]) -> dict[str, str]:
    """What an event tells of who is who: ``combat.started`` has every sheet, a
    ``combatant.joined`` the joiner's; the ruleset under :data:`RULESET_FIELD`."""
    sheets: Mapping[str, Any] = {}
    if event_type == COMBAT_STARTED:
        sheets = payload.get("sheets") or {}
    elif event_type == COMBATANT_JOINED and isinstance(payload.get("character"), str):
        sheets = {payload["character"]: payload.get("sheet") or {}}
    else:
        return {}
    found = {
        str(cid): str(sheet["name"])
        for cid, sheet in sheets.items()
        if isinstance(sheet, Mapping) and isinstance(sheet.get("name"), str) and sheet["name"]
    }
    if isinstance(payload.get("ruleset"), str):
        found[RULESET_FIELD] = payload["ruleset"]
    return found


def remember_names(pipe: Pipeline, keys: Keys, env: Envelope) -> None:
    """Queue the names an event tells (the recorder calls it in its pipeline)."""
    found = names_in(env.type, env.payload)
    if found and env.combat_id:
        key = keys.combat_names(env.tenant, env.combat_id)
        for field, value in found.items():
            pipe.hset(key, field, value)
        pipe.expire(key, NAMES_KEEP_SECONDS)


def _cast(names: Mapping[str, str], timezone: str) -> Cast:
    people = {k: v for k, v in names.items() if k != RULESET_FIELD}
    return Cast(people, names.get(RULESET_FIELD), timezone)


def _mentioned(payload: Mapping[str, Any]) -> set[str]:
    return {v for k in PEOPLE_FIELDS if isinstance(v := payload.get(k), str) and len(v) <= 64}


class Storyteller:
    """Tells public events (as :func:`gateway.views.public_event` shows them) for one answer or
    one stream: the names of a combat are loaded once."""

    def __init__(self, redis: Redis, keys: Keys, tenant: str, timezone: str) -> None:
        self.redis = redis
        self.keys = keys
        self.tenant = tenant
        self.timezone = timezone
        self.combats: dict[str, dict[str, str]] = {}
        self.sheets: dict[str, str] = {}  # names from current sheets, outside known combats

    async def prepare(self, events: Iterable[Mapping[str, Any]]) -> None:
        """Load the names the events need (one round trip for the combats not seen yet)."""
        batch = list(events)
        if len(self.combats) > KEEP_COMBATS or len(self.sheets) > KEEP_COMBATS:
            self.combats.clear()  # loaded again when needed
            self.sheets.clear()
        combats = {str(e["combat_id"]) for e in batch if e.get("combat_id")}
        wanted = sorted(combats - set(self.combats))
        if wanted:
            async with self.redis.pipeline(transaction=False) as pipe:
                for combat_id in wanted:
                    pipe.hgetall(self.keys.combat_names(self.tenant, combat_id))
                replies = await pipe.execute()
            for combat_id, reply in zip(wanted, replies, strict=True):
                self.combats[combat_id] = {text(k): text(v) for k, v in (reply or {}).items()}
        for event in batch:
            self.learn(event)
        await self._sheet_names(batch)

    def learn(self, event: Mapping[str, Any]) -> None:
        """Take the names an event itself tells (a join just answered, a combat just begun)."""
        found = names_in(str(event.get("type")), event.get("data") or {})
        if found and event.get("combat_id"):
            self.combats.setdefault(str(event["combat_id"]), {}).update(found)

    async def _sheet_names(self, batch: list[Mapping[str, Any]]) -> None:
        unknown: set[str] = set()
        for event in batch:
            known = self.combats.get(str(event.get("combat_id")), {})
            unknown |= {c for c in _mentioned(event.get("data") or {}) if c not in known}
        unknown -= set(self.sheets)
        if not unknown:
            return
        ids = sorted(unknown)
        raws = await self.redis.mget([self.keys.character_sheet(self.tenant, c) for c in ids])
        for character, raw in zip(ids, raws, strict=True):
            self.sheets[character] = _sheet_name(raw) or character

    def cast(self, event: Mapping[str, Any]) -> Cast:
        names = {**self.sheets, **self.combats.get(str(event.get("combat_id")), {})}
        return _cast(names, self.timezone)

    def tell(self, event: Mapping[str, Any], lang: Lang) -> str:
        return tell_with(event, self.cast(event), lang)

    def told(self, event: Mapping[str, Any], lang: Lang) -> dict[str, Any]:
        """The public event with its ``text``."""
        return {**event, "text": self.tell(event, lang)}

    async def tell_all(self, events: list[dict[str, Any]], lang: Lang) -> list[dict[str, Any]]:
        await self.prepare(events)
        return [self.told(e, lang) for e in events]


def tell_with(event: Mapping[str, Any], cast: Cast, lang: Lang) -> str:
    """The ``text`` of a public event in ``lang``, with the names of ``cast``."""
    at = moment(event.get("occurred_at"))
    return narrate(str(event.get("type")), event.get("data") or {}, cast, lang, at=at)


def _sheet_name(raw: bytes | str | None) -> str | None:
    try:
        sheet = json.loads(raw) if raw else None
    except ValueError:
        return None
    name = sheet.get("name") if isinstance(sheet, dict) else None
    return name if isinstance(name, str) and name else None


async def storyteller(
    request: Request, gw: Gateway, tenant: str
) -> tuple[Storyteller, Lang, dict[str, str]]:
    """A storyteller for this answer, its language and the headers that say so (with the
    names :func:`keep_names` kept on the request already loaded)."""
    voice = await answer_voice(request, gw, tenant)
    teller = Storyteller(gw.redis, gw.keys, tenant, voice.timezone)
    teller.combats.update(getattr(request.state, "names", {}))
    return teller, voice.language, language_headers(voice.language)


def keep_names(request: Request, combat_id: str, stored: Mapping[Any, Any] | None) -> None:
    """A combat's stored names (read with other things by the caller), for the storyteller of
    this request's answer."""
    names = {text(k): text(v) for k, v in (stored or {}).items()}
    request.state.names = {combat_id: names}
