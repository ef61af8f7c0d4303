"""One reader per community per gateway process, fanning events out to every viewer.

docs/DESIGN.md "Scale and placement": a viewer of ``GET /v1/events`` costs a queue in
memory, not a Redis connection. For each community that has viewers, one task reads the
community's stream (``XREAD BLOCK`` for less than the client's socket timeout, on a Redis
client of its own so that readers never take the connections requests need), parses each
entry once, and offers it to the bounded queue of every viewer who may want it: viewers are
indexed by the combat or rooms they narrowed their stream to (:class:`Audience`), so an event
wakes only its combat's and room's viewers and those of the whole community, however many
viewers other combats have. A viewer that falls behind by a whole queue is dropped (its
stream ends; the client reconnects with ``Last-Event-ID`` and catches up from Redis). A
reader whose last viewer left lingers a little, then stops.

:meth:`EventHub.subscribe` returns the reader's position at that instant: every entry after
it reaches the viewer's queue, every entry up to it is in Redis, so a resuming viewer reads
``(resume, position]`` from Redis and then its queue, missing nothing and repeating nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from fastapi.sse import format_sse_event
from pydantic import ValidationError
from redis.asyncio import Redis

from gateway.language import stored_voice
from gateway.metrics import SSE_READERS, SSE_VIEWERS
from gateway.narration import Storyteller, tell_with
from gateway.views import public_event
from shared.keys import Keys
from shared.logging import get_logger
from shared.messages import INTERNAL_EVENTS, Envelope
from shared.narration.said import Cast
from shared.narration.words import Lang
from shared.redis_streams import entries, read_entries

log = get_logger(__name__)

BLOCK_MS = 1000  # well under redis-py's socket timeout (5 s by default)
READ_COUNT = 500


@dataclass(frozen=True)
class Entry:
    """One public event of the stream, parsed once, and told and serialised once per
    language for every viewer: its SSE ``data`` (public_event() with ``text``), in a
    language the first time a viewer of that language needs it (viewers of one language
    cost one narration an event, not one per language the suite speaks)."""

    id: str
    type: str
    room: str
    combat_id: str | None
    # The public event without text, and its player views by visibility settings and
    # language: told once for every player viewer (gateway/player_stream.py).
    public: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    shown: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    cast: Cast = field(default_factory=Cast, compare=False, repr=False)  # names, taken once
    told: dict[Lang, str] = field(default_factory=dict, compare=False, repr=False)
    frames: dict[Lang, bytes] = field(default_factory=dict, compare=False, repr=False)

    def data(self, lang: Lang) -> str:
        """The SSE ``data`` in ``lang`` (told on first use)."""
        found = self.told.get(lang)
        if found is None:
            event = {**self.public, "text": tell_with(self.public, self.cast, lang)}
            found = self.told[lang] = json.dumps(event, separators=(",", ":"))
        return found

    def frame(self, lang: Lang) -> bytes:
        """The event's Server-Sent Events frame as every full-view viewer of ``lang`` gets it
        (built once, not once per viewer: a thousand viewers of a combat cost one)."""
        found = self.frames.get(lang)
        if found is None:
            found = self.frames[lang] = format_sse_event(
                data_str=self.data(lang), event=self.type, id=self.id
            )
        return found

    @staticmethod
    def parse(entry_id: str, raw: bytes) -> tuple[Envelope, dict[str, Any]] | None:
        """The envelope and public event of a stream entry (None: internal or unreadable)."""
        try:
            env = Envelope.model_validate_json(raw)
        except (ValidationError, ValueError):
            log.error("stream_entry_unreadable", entry=entry_id)
            return None
        if env.type in INTERNAL_EVENTS:
            return None
        return env, public_event(env)


async def told_entries(pairs: list[tuple[str, bytes]], teller: Storyteller) -> list[Entry]:
    """Stream entries as :class:`Entry`, with the names each event is told with (the names
    of a combat are loaded once per teller)."""
    parsed = [(entry_id, p) for entry_id, raw in pairs if (p := Entry.parse(entry_id, raw))]
    await teller.prepare([public for _, (_, public) in parsed])
    return [
        Entry(entry_id, env.type, env.room, env.combat_id, public, cast=teller.cast(public))
        for entry_id, (env, public) in parsed
    ]


@dataclass(frozen=True)
class Narrow:
    """Which events a stream serves (docs/api.md "Events"): one combat, one room, a stream
    token's rooms, or all of them (every field ``None``); the fields combine."""

    room: str | None = None
    combat: str | None = None
    rooms: frozenset[str] | None = None

    def wants(self, entry: Entry) -> bool:
        if self.room is not None and entry.room != self.room:
            return False
        if self.rooms is not None and entry.room not in self.rooms:
            return False
        return self.combat is None or entry.combat_id == self.combat


@dataclass(eq=False)
class Viewer:
    """One connected stream: its queue, and whether it fell too far behind."""

    tenant: str
    position: str  # where live delivery starts (the reader's position when it subscribed)
    queue: asyncio.Queue[Entry | None]
    dropped: bool = False
    narrow: Narrow = field(default_factory=Narrow)

    def offer(self, entry: Entry) -> None:
        if self.dropped or not self.narrow.wants(entry):
            return
        try:
            self.queue.put_nowait(entry)
        except asyncio.QueueFull:
            self.end()

    def end(self) -> None:
        """End the stream after what is queued (the client resumes from its last id)."""
        if self.dropped:
            return
        self.dropped = True
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()  # room for the end-of-stream mark
            self.queue.put_nowait(None)


class Audience:
    """The viewers of one community's reader, indexed by their narrowest filter: a viewer of
    a combat is found under that combat, of a room (or a token's rooms) under each room,
    and the others under the whole community. :meth:`of` yields every viewer who may want
    an event, each once; the viewer's own :class:`Narrow` still decides."""

    def __init__(self) -> None:
        self._all: set[Viewer] = set()
        self._everywhere: dict[str, set[Viewer]] = {}
        self._by_room: dict[str, set[Viewer]] = {}
        self._by_combat: dict[str, set[Viewer]] = {}

    def __len__(self) -> int:
        return len(self._all)

    def __contains__(self, viewer: Viewer) -> bool:
        return viewer in self._all

    def _index(self, viewer: Viewer) -> tuple[dict[str, set[Viewer]], list[str]]:
        """Where a viewer is kept: the index and its keys (``""`` for the whole community)."""
        narrow = viewer.narrow
        if narrow.combat is not None:
            return self._by_combat, [narrow.combat]
        rooms = [narrow.room] if narrow.room is not None else narrow.rooms
        if rooms is not None:
            return self._by_room, sorted(rooms)
        return self._everywhere, [""]

    def add(self, viewer: Viewer) -> None:
        if viewer in self._all:
            return
        self._all.add(viewer)
        where, keys = self._index(viewer)
        for key in keys:
            where.setdefault(key, set()).add(viewer)

    def discard(self, viewer: Viewer) -> None:
        if viewer not in self._all:
            return
        self._all.discard(viewer)
        where, keys = self._index(viewer)
        for key in keys:
            where[key].discard(viewer)
            if not where[key]:
                del where[key]

    def everyone(self) -> list[Viewer]:
        return list(self._all)

    def of(self, entry: Entry) -> Iterator[Viewer]:
        """The viewers ``entry`` is offered to (a copy: a viewer may leave meanwhile)."""
        yield from list(self._everywhere.get("", ()))
        yield from list(self._by_room.get(entry.room, ()))
        if entry.combat_id is not None:
            yield from list(self._by_combat.get(entry.combat_id, ()))


def offer_all(audience: Audience, told: list[Entry]) -> None:
    """Each entry, in order, to the viewers who may want it."""
    for entry in told:
        for viewer in audience.of(entry):
            viewer.offer(entry)


@dataclass(eq=False)
class _Reader:
    stream: str
    teller: Storyteller
    position: str = "0-0"
    viewers: Audience = field(default_factory=Audience)
    ready: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    stopped: bool = False
    empty_since: float = 0.0
    task: asyncio.Task[None] | None = None


def _loop() -> asyncio.AbstractEventLoop:
    return asyncio.get_running_loop()


class EventHub:
    def __init__(
        self, redis: Redis, keys: Keys, *, queue_size: int = 1000, linger_seconds: float = 30.0
    ) -> None:
        self._redis = redis
        self._keys = keys
        self._queue_size = queue_size
        self._linger = linger_seconds
        self._readers: dict[str, _Reader] = {}

    async def subscribe(self, tenant: str, stream: str, narrow: Narrow | None = None) -> Viewer:
        """A viewer of ``tenant``'s stream, offered only the events ``narrow`` may want;
        raises if Redis cannot be read to start one."""
        while True:
            reader = self._readers.get(tenant)
            if reader is None or reader.stopped:
                reader = _Reader(stream, Storyteller(self._redis, self._keys, tenant, ""))
                self._readers[tenant] = reader
                reader.task = asyncio.create_task(self._run(tenant, reader), name=f"sse:{tenant}")
                SSE_READERS.set(len(self._readers))
            await asyncio.shield(reader.ready)
            if reader.stopped:
                continue  # it stopped between its start and this subscriber: start another
            queue: asyncio.Queue[Entry | None] = asyncio.Queue(self._queue_size)
            viewer = Viewer(tenant, reader.position, queue, narrow=narrow or Narrow())
            reader.viewers.add(viewer)
            SSE_VIEWERS.inc()
            return viewer

    def unsubscribe(self, viewer: Viewer) -> None:
        reader = self._readers.get(viewer.tenant)
        if reader is None or viewer not in reader.viewers:
            return
        reader.viewers.discard(viewer)
        SSE_VIEWERS.dec()
        if not reader.viewers:
            reader.empty_since = asyncio.get_running_loop().time()

    def end_streams(self) -> None:
        """Every open stream ends after what is queued for it: a stopping gateway does not
        wait for its viewers (they reconnect with ``Last-Event-ID``, to another gateway)."""
        for reader in self._readers.values():
            for viewer in reader.viewers.everyone():
                viewer.end()

    async def close(self) -> None:
        tasks = [r.task for r in self._readers.values() if r.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._readers.clear()
        SSE_READERS.set(0)

    @property
    def readers(self) -> int:
        return len(self._readers)

    async def _run(self, tenant: str, reader: _Reader) -> None:
        loop = asyncio.get_running_loop()
        try:
            last = entries(await self._redis.xrevrange(reader.stream, count=1))
            reader.position = last[0][0] if last else "0-0"
            settings = await self._redis.get(self._keys.settings(tenant))
            reader.teller.timezone = stored_voice(settings).timezone
        except Exception as exc:
            reader.stopped = True
            self._forget(tenant, reader)
            reader.ready.set_exception(exc)
            return
        reader.empty_since = loop.time()
        reader.ready.set_result(None)
        backoff = 0.5
        while True:
            if not reader.viewers and loop.time() - reader.empty_since > self._linger:
                reader.stopped = True
                self._forget(tenant, reader)
                return
            try:
                reply = await self._redis.xread(
                    {reader.stream: reader.position}, count=READ_COUNT, block=BLOCK_MS
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("event_stream_read_failed", tenant=tenant, exc_info=True)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
                continue
            backoff = 0.5
            pairs = [(entry_id, fields["e"]) for entry_id, fields in read_entries(reply)]
            try:
                told = await told_entries(pairs, reader.teller)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("event_stream_read_failed", tenant=tenant, exc_info=True)
                await asyncio.sleep(backoff)
                continue  # the same entries again: the position has not moved
            offer_all(reader.viewers, told)
            if pairs:
                reader.position = pairs[-1][0]

    def _forget(self, tenant: str, reader: _Reader) -> None:
        if self._readers.get(tenant) is reader:
            del self._readers[tenant]
        SSE_READERS.set(len(self._readers))
