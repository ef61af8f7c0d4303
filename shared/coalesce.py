"""Publishes to a busy destination go out together, as one batch message (issue 15).

Many commits of one process end at about the same time under load, and each sends its
public events to the events exchange and, when it ends a request's chain, its reply to the
same gateway's reply queue. A publish to a destination with no publish of this process in
flight goes out alone, at once, exactly as it was asked (no added wait when the suite is
quiet). The publishes asked for while one is in flight wait for it, then go out together
as one batch message (``events.batch``, ``reply.batch``: a JSON array of the envelopes, in
the order they were asked for), confirmed together; each caller returns once the message
carrying its envelopes is confirmed, or raises what the publish raised. So a commit's outbox
entry is still deleted only after the broker confirmed it, and a destination's messages
keep the order in which they were asked for.

Only destinations whose consumers read every envelope of a batch on its own are merged: the
events exchange (the gateway's recorder keeps each event by its own message id, whatever
message carried it) and a gateway's reply queue (the gateway hands each envelope to the
request of its correlation id). Commands and the events a service consumes are never
merged: a batch that fails there is retried and dead-lettered whole, and one commit's
poison message must not take another commit's events with it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from shared.messages import BATCHES, EVENTS_BATCH, REPLY_BATCH, derived_id
from shared.one_in_flight import OneInFlight, Taken

# The most envelope messages one merged publish carries (the rest wait for the next one).
MERGED_AT_MOST = 200


@dataclass(frozen=True)
class Publication:
    """One publish as asked for."""

    exchange: str
    routing_key: str
    body: bytes
    message_id: str
    correlation_id: str | None
    type_: str | None
    mandatory: bool


SendFn = Callable[[Publication], Awaitable[None]]


def merged(items: list[Publication], batch_type: str, routing_key: str) -> Publication:
    """Several publishes to one destination as one batch message, their envelopes in order."""
    parts = [item.body[1:-1] if item.type_ in BATCHES else item.body for item in items]
    first = items[0]
    return Publication(
        exchange=first.exchange,
        routing_key=routing_key,
        body=b"[" + b",".join(parts) + b"]",
        message_id=derived_id("m", "merged", *(item.message_id for item in items)),
        correlation_id=None,
        type_=batch_type,
        mandatory=any(item.mandatory for item in items),
    )


class Coalescer:
    """Merges the publishes to a busy destination (module docstring). ``events`` is the
    name of the events exchange; a publish to the default exchange ``""`` is a reply."""

    def __init__(self, send: SendFn, *, events: str, at_most: int = MERGED_AT_MOST) -> None:
        self._send = send
        self._events = events
        self._at_most = at_most
        self._lanes: dict[tuple[str, str], OneInFlight[Publication, None]] = {}
        self.merged = 0  # publishes that went out in another's message

    def _lane_key(self, item: Publication) -> tuple[str, str] | None:
        """The destination a publish may be merged on, or ``None`` (never merged)."""
        if item.exchange == self._events:
            return (item.exchange, EVENTS_BATCH)
        if item.exchange == "":
            return ("", item.routing_key)
        return None

    async def publish(self, item: Publication) -> None:
        key = self._lane_key(item)
        if key is None:
            await self._send(item)
            return
        lane = self._lanes.get(key)
        if lane is None:
            lane = OneInFlight(
                self._send,
                lambda taken: self._send_merged(key, taken),
                at_most=self._at_most,
                on_idle=lambda: self._idle(key),
            )
            self._lanes[key] = lane
        await lane.run(item)

    def _idle(self, key: tuple[str, str]) -> None:
        """A lane with nothing in flight nor waiting is forgotten (a reply queue's gateway
        may be gone); its last merged task, if any, has settled every caller already."""
        del self._lanes[key]

    async def _send_merged(self, key: tuple[str, str], taken: Taken[Publication, None]) -> None:
        items = [item for item, _ in taken]
        if len(items) == 1:
            await self._send(items[0])
        else:
            batch_type = EVENTS_BATCH if key[0] else REPLY_BATCH
            await self._send(merged(items, batch_type, key[1]))
            self.merged += len(items) - 1
        for _, done in taken:
            if not done.done():
                done.set_result(None)

    async def close(self) -> None:
        """Let the merged publishes under way end (each fails fast once the bus is closed)."""
        for lane in list(self._lanes.values()):
            await lane.close()
