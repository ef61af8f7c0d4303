"""API.md "Events to frontends": the community's events as Server-Sent Events.

The stream is the community's Redis stream written by the recorder; the SSE ``id`` is the
stream entry id, so a client reconnecting with ``Last-Event-ID`` gets every event it missed
(kept at least 24 h). ``room`` or ``combat`` narrow the stream. Each event is told (``text``) in
the language of the request that opened the stream (docs/events.md).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from fastapi.sse import EventSourceResponse, ServerSentEvent

from gateway.auth import Principal, current_principal
from gateway.context import Gateway, gateway
from gateway.errors import ApiError
from gateway.ids import COMBAT_ID
from gateway.language import Voice, answer_voice, language_headers
from gateway.narration import Storyteller
from gateway.routes.combats import Room
from gateway.views import CombatReader, public_event
from shared.messages import INTERNAL_EVENTS, Envelope
from shared.redis_streams import entries, read_entries

router = APIRouter(prefix="/v1/events", tags=["events"])

STREAM_ID = r"^\d{1,20}-\d{1,20}$"
BLOCK_MS = 5000


@dataclass(frozen=True)
class Scope:
    """What a stream serves, checked before the response starts (errors are plain JSON)."""

    tenant: str
    room: str | None
    combat: str | None
    resume: str | None
    voice: Voice  # the language events are told in, and the community's time zone


async def stream_scope(
    request: Request,
    response: Response,
    principal: Annotated[Principal, Depends(current_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    room: Annotated[Room | None, Query()] = None,
    combat: Annotated[str | None, Query(max_length=200)] = None,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=100)] = None,
    since: Annotated[
        str | None,
        Query(pattern=STREAM_ID, description="resume after this event id (as Last-Event-ID)"),
    ] = None,
) -> Scope:
    resume = last_event_id or since
    if resume is not None and not re.fullmatch(STREAM_ID, resume):
        raise ApiError(
            "invalid_request",
            details={"errors": [{"path": "header.Last-Event-ID", "message": "a stream id"}]},
        )
    if combat is not None and (
        not COMBAT_ID.fullmatch(combat)
        or await CombatReader(gw.redis, gw.keys).view(combat, principal.community_id) is None
    ):
        raise ApiError("not_found")
    voice = await answer_voice(request, gw, principal.community_id)
    response.headers.update(language_headers(voice.language))
    return Scope(principal.community_id, room, combat, resume, voice)


@router.get("", response_class=EventSourceResponse)
async def events(
    request: Request,
    scope: Annotated[Scope, Depends(stream_scope)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> AsyncIterator[ServerSentEvent]:
    """Every event of the community from now on (or after ``Last-Event-ID``)."""
    room, combat, resume = scope.room, scope.combat, scope.resume
    stream = gw.keys.events_stream(scope.tenant)
    teller = Storyteller(gw.redis, gw.keys, scope.tenant, scope.voice.timezone)
    position = resume or "$"
    if position == "$":
        # Pin "now" to a concrete id so nothing published meanwhile is skipped.
        last = entries(await gw.redis.xrevrange(stream, count=1))
        position = last[0][0] if last else "0-0"
    while not await request.is_disconnected():
        reply = await gw.redis.xread({stream: position}, count=200, block=BLOCK_MS)
        for entry_id, fields in read_entries(reply):
            position = entry_id
            env = Envelope.model_validate_json(fields["e"])
            if env.type in INTERNAL_EVENTS:
                continue
            if room is not None and env.room != room:
                continue
            if combat is not None and env.combat_id != combat:
                continue
            public = public_event(env)
            await teller.prepare([public])
            told = teller.told(public, scope.voice.language)
            yield ServerSentEvent(id=position, event=env.type, data=told)
