"""docs/api.md "Events": the community's events as Server-Sent Events.

The stream is the community's Redis stream written by the recorder, served through the
gateway's fan-out (gateway/fanout.py: one reader per community, a queue per viewer). The
SSE ``id`` is the stream entry id, so a client reconnecting with ``Last-Event-ID`` (or
``?since=``) gets every event it missed (kept at least 24 h). ``room`` or ``combat`` narrow
the stream. What a stream sends first (docs/hostile-input.md):

- ``stream.opened`` (with ``retry:``), whose ``id`` is the stream's position when it opened,
  or the resume point: a client that has seen no event yet resumes from there and misses
  nothing published while it was away;
- ``stream.reset`` instead, when the resume point cannot be honoured: ``reason: "ahead"``
  (beyond the last event: live events follow) or ``"expired"`` (older than the retention:
  every retained event follows). Either way the client should read the state again.

Each event is told (``text``) in the language of the request that opened the stream
(docs/events.md "Narration and languages").

A browser's ``EventSource`` passes a stream token as ``?token=`` (docs/browsers.md): a token
bound to a combat streams that combat, one bound to rooms only those rooms. ``view=player``,
a viewer key and a player token get every event in the player view, told again from what
that view shows (docs/views.md).

Idle streams get a comment every ``REFEREE_SSE_KEEPALIVE_SECONDS`` so proxies keep them.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse
from fastapi.sse import format_sse_event
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from gateway.auth import Principal, reading_principal
from gateway.context import Gateway, gateway
from gateway.errors import ApiError
from gateway.fanout import Entry, Narrow, Viewer, told_entries
from gateway.field_errors import found_error
from gateway.ids import COMBAT_ID
from gateway.language import Voice, answer_voice, language_headers
from gateway.narration import Storyteller
from gateway.player_stream import PlayerLens
from gateway.routes.combats import Room, ViewParam
from gateway.routes.settings import load_settings
from gateway.views import CombatReader
from shared.redis_streams import entries, parse_stream_id, stream_order, text

router = APIRouter(prefix="/v1/events", tags=["events"])

RETRY_MS = 3000
PAGE = 500


@dataclass(frozen=True)
class Scope:
    """What a stream serves, checked before the response starts (errors are plain JSON)."""

    tenant: str
    room: str | None
    combat: str | None
    resume: str | None
    voice: Voice  # the language events are told in, and the community's time zone
    rooms: frozenset[str] | None = None  # a stream token's rooms
    player: PlayerLens | None = None  # the player view (docs/views.md), or the full view

    @property
    def narrow(self) -> Narrow:
        return Narrow(self.room, self.combat, self.rooms)


def resume_point(value: str | None, path: str) -> str | None:
    """A client's resume point, or 422 when it is not a stream id Redis can take."""
    if value is not None and parse_stream_id(value) is None:
        raise ApiError("invalid_request", details={"errors": [found_error(path, "stream_id")]})
    return value


async def stream_scope(
    request: Request,
    principal: Annotated[Principal, Depends(reading_principal)],
    gw: Annotated[Gateway, Depends(gateway)],
    room: Annotated[Room | None, Query()] = None,
    combat: Annotated[str | None, Query(max_length=200)] = None,
    view: ViewParam = None,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=100)] = None,
    since: Annotated[
        str | None,
        Query(max_length=100, description="resume after this event id (as Last-Event-ID)"),
    ] = None,
) -> Scope:
    resume = resume_point(last_event_id, "header.Last-Event-ID") or resume_point(
        since, "query.since"
    )
    combat = combat or principal.combat  # a token bound to a combat streams that one
    if combat is not None and (
        not COMBAT_ID.fullmatch(combat)
        or await CombatReader(gw.redis, gw.keys).view(combat, principal.community_id) is None
        or (principal.combat is not None and combat != principal.combat)
    ):
        raise ApiError("not_found")
    if room is not None and principal.rooms is not None and room not in principal.rooms:
        raise ApiError("not_found", details={"room": room})
    player = None
    if principal.view_of(view) == "player":
        settings = await load_settings(gw, principal.community_id)
        player = PlayerLens(CombatReader(gw.redis, gw.keys), principal.community_id, settings)
    voice = await answer_voice(request, gw, principal.community_id)
    return Scope(principal.community_id, room, combat, resume, voice, principal.rooms, player)


@dataclass(frozen=True)
class Session:
    viewer: Viewer
    first: bytes  # the stream's first frame: stream.opened or stream.reset
    after: str  # deliver what follows this id (from Redis up to the live position, then live)


async def _bounds(redis: Redis, stream: str) -> tuple[str, str | None, bool]:
    """The stream's last id, its first retained id, and whether entries were trimmed."""
    try:
        info: dict[str, Any] = await redis.xinfo_stream(stream)
    except ResponseError:  # no such key: nothing was ever recorded (or all of it expired)
        return "0-0", None, False
    first = info.get("first-entry")
    first_id = text(first[0]) if first else None
    trimmed = int(info.get("entries-added", 0)) > int(info.get("length", 0))
    return text(info["last-generated-id"]), first_id, trimmed


async def _opening(gw: Gateway, stream: str, resume: str | None, viewer: Viewer) -> Session:
    live = viewer.position
    if resume is None:
        return Session(viewer, _control("stream.opened", live, {"position": live}), live)
    last, first, trimmed = await _bounds(gw.redis, stream)
    if stream_order(resume) > max(stream_order(last), stream_order(live)):
        details = {"reason": "ahead", "requested": resume, "position": live}
        return Session(viewer, _control("stream.reset", live, details), live)
    if trimmed and first is not None and stream_order(resume) < stream_order(first):
        details = {"reason": "expired", "requested": resume, "first": first}
        return Session(viewer, _control("stream.reset", None, details), "0-0")
    return Session(viewer, _control("stream.opened", resume, {"position": resume}), resume)


def _control(kind: str, position: str | None, data: dict[str, Any]) -> bytes:
    return format_sse_event(data_str=json.dumps(data), event=kind, id=position, retry=RETRY_MS)


KEEPALIVE = format_sse_event(comment="keep-alive")
BURST = 200  # events of one viewer written together, at most


async def subscription(
    scope: Annotated[Scope, Depends(stream_scope)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> AsyncIterator[Session]:
    """The viewer's place in the fan-out, taken before the response starts and given back
    after it ends."""
    stream = gw.keys.events_stream(scope.tenant)
    viewer = await gw.hub.subscribe(scope.tenant, stream, scope.narrow)
    try:
        yield await _opening(gw, stream, scope.resume, viewer)
    finally:
        gw.hub.unsubscribe(viewer)


async def _frame(entry: Entry, scope: Scope, teller: Storyteller) -> bytes:
    lang = scope.voice.language
    if scope.player is None:
        return entry.frame(lang)
    data = await scope.player.data(entry, teller, lang)
    return format_sse_event(data_str=data, event=entry.type, id=entry.id)


class EventStream(StreamingResponse):
    """``text/event-stream`` written as the endpoint's bytes. Not FastAPI's
    ``EventSourceResponse``: FastAPI would wrap a generator endpoint in its own per-event
    machinery (a model, two memory streams and a timer per event and per viewer), where a
    viewer here gets each burst of events as one write of frames built once."""

    media_type = "text/event-stream"


@router.get("", response_class=EventStream)
async def stream_events(
    scope: Annotated[Scope, Depends(stream_scope)],
    session: Annotated[Session, Depends(subscription)],
    gw: Annotated[Gateway, Depends(gateway)],
) -> EventStream:
    """Every event of the community from now on (or after ``Last-Event-ID``)."""
    headers = {
        "Cache-Control": "no-cache",
        "X-Accel-Buffering": "no",  # proxies such as nginx must not buffer the stream
        **language_headers(scope.voice.language),
    }
    return EventStream(_frames(scope, session, gw), headers=headers)


async def _frames(scope: Scope, session: Session, gw: Gateway) -> AsyncIterator[bytes]:
    """The stream's bytes: what a burst of events brings is written at once (one write for
    all the events a viewer has waiting, each a frame built once per language)."""
    yield session.first
    viewer, after, narrow = session.viewer, session.after, scope.narrow
    stream = gw.keys.events_stream(scope.tenant)
    teller = Storyteller(gw.redis, gw.keys, scope.tenant, scope.voice.timezone)
    # What was published before this viewer joined the fan-out comes from Redis.
    while stream_order(after) < stream_order(viewer.position):
        page = entries(await gw.redis.xrange(stream, f"({after}", viewer.position, count=PAGE))
        if not page:
            break
        after = page[-1][0]
        pairs = [(entry_id, fields["e"]) for entry_id, fields in page]
        told = [e for e in await told_entries(pairs, teller) if narrow.wants(e)]
        if told:
            yield b"".join([await _frame(entry, scope, teller) for entry in told])
    keepalive = gw.settings.referee_sse_keepalive_seconds
    while True:
        try:
            burst = [viewer.queue.get_nowait()]
        except asyncio.QueueEmpty:
            try:
                async with asyncio.timeout(keepalive):
                    burst = [await viewer.queue.get()]
            except TimeoutError:
                yield KEEPALIVE
                continue
        while len(burst) < BURST and not viewer.queue.empty():
            burst.append(viewer.queue.get_nowait())
        frames = [
            await _frame(live, scope, teller)
            for live in burst
            if live is not None and stream_order(live.id) > stream_order(after)
        ]  # the fan-out queued only what the viewer's narrow wants
        if frames:
            yield b"".join(frames)
        if any(live is None for live in burst):
            return  # ended: fell a whole queue behind, or the gateway stops
