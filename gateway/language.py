"""Which language an answer speaks (docs/events.md "Narration and languages").

``Accept-Language`` decides when it names Spanish or English (the one with the highest
weight); otherwise the community's ``language`` setting (Spanish unless changed); before the
community is known (a request without a valid key), Spanish. Every answer whose words depend
on it says so: ``Content-Language`` and ``Vary: Accept-Language``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fastapi import Request

from shared.narration.words import DEFAULT_LANGUAGE, LANGUAGES, Lang

if TYPE_CHECKING:
    from gateway.context import Gateway


def _weight(params: str) -> float:
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                return max(0.0, min(1.0, float(value)))
            except ValueError:
                return 0.0
    return 1.0


def requested(accept_language: str | None) -> Lang | None:
    """The supported language ``Accept-Language`` prefers (``es-ES,en;q=0.5`` -> ``es``), or
    None when it names none of them (or only with weight 0)."""
    best: Lang | None = None
    best_weight = 0.0
    for part in (accept_language or "").split(",")[:32]:
        tag, _, params = part.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        weight = _weight(params)
        for lang in LANGUAGES:
            if primary == lang and weight > best_weight:
                best, best_weight = lang, weight
    return best


@dataclass(frozen=True)
class Voice:
    """How a community speaks: its default language and its time zone (for narrated times)."""

    language: Lang = DEFAULT_LANGUAGE
    timezone: str = "Europe/Madrid"


def stored_voice(raw: bytes | str | None) -> Voice:
    """The ``language`` and ``timezone`` of stored community settings, read tolerantly (a bad
    document is the settings endpoint's business, not a reason to fail an answer)."""
    try:
        document = json.loads(raw) if raw else {}
    except ValueError:
        document = {}
    if not isinstance(document, dict):
        document = {}
    zone = document.get("timezone")
    return Voice(
        "en" if document.get("language") == "en" else DEFAULT_LANGUAGE,
        zone if isinstance(zone, str) and zone else Voice.timezone,
    )


async def answer_voice(request: Request, gw: Gateway | None, tenant: str | None) -> Voice:
    """The language of this answer and the community's time zone, remembered on the request
    (the settings are read at most once per request)."""
    known: Voice | None = getattr(request.state, "voice", None)
    if known is not None:
        return known
    if gw is not None and tenant is not None:
        return keep_voice(request, await gw.redis.get(gw.keys.settings(tenant)))
    return keep_voice(request, None)


def keep_voice(request: Request, stored: bytes | str | None) -> Voice:
    """The answer's voice from the community's stored settings (read with other things by
    the caller), remembered on the request as :func:`answer_voice` does."""
    community = stored_voice(stored)
    lang = requested(request.headers.get("accept-language")) or community.language
    voice = Voice(lang, community.timezone)
    request.state.voice = voice
    return voice


async def answer_language(request: Request, gw: Gateway | None, tenant: str | None) -> Lang:
    """The language of this answer: ``Accept-Language``, else the community's setting."""
    if getattr(request.state, "voice", None) is None and tenant is None:
        # Before the community is known: do not remember, a later call may know it.
        return requested(request.headers.get("accept-language")) or DEFAULT_LANGUAGE
    return (await answer_voice(request, gw, tenant)).language


def language_headers(lang: Lang) -> dict[str, str]:
    return {"Content-Language": lang, "Vary": "Accept-Language"}
