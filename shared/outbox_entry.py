"""What a commit promises to do after it: the outbox entry, a small typed record.

Three kinds, carried out in commit order by the relay (``shared/outbox.py``):
- :class:`Publish` a message (with publisher confirms) to an exchange and routing key;
- :class:`ArmTimer` arm a timer (its payload comes back in ``timer.fired``);
- :class:`CancelTimer` cancel one.

Stored form. An entry is kept in the aggregate's outbox stream as compact JSON whose short
keys (``k`` kind, ``x`` exchange, ``r`` routing key, ``b`` body, ``id``, ``c`` correlation id,
``t`` type, ``m`` mandatory, ``due``, ``p`` payload) are exactly those the suite always wrote,
so entries left in Redis by an older process, or read by one during a rolling upgrade, mean
the same thing; a cancel also names its timer's owner (``g``, the aggregate's tag, which
picks the timer shard), and one written without it is cancelled in every shard. Only
:func:`dump_entry` and :func:`load_entry` know that form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from shared.messages import Envelope


@dataclass(frozen=True)
class Publish:
    """Publish ``body`` to ``exchange`` with ``routing_key`` and wait for the confirm.

    ``mandatory`` is False only for a waiting gateway's reply queue, which may be gone.
    """

    exchange: str
    routing_key: str
    body: str
    message_id: str
    correlation_id: str | None = None
    type: str | None = None
    mandatory: bool = True

    @classmethod
    def of(cls, exchange: str, routing_key: str, env: Envelope, body: str) -> Publish:
        """An envelope (already serialised as ``body``) to one destination."""
        return cls(exchange, routing_key, body, env.message_id, env.correlation_id, env.type)


@dataclass(frozen=True)
class ArmTimer:
    timer_id: str
    due_ms: int
    payload: dict[str, Any]

    @property
    def owner(self) -> str | None:
        """The aggregate whose state holds the timer (its tag, ``combat:<id>``), which picks
        its timer shard; the payload of a service's timer names it (``tag``)."""
        tag = self.payload.get("tag")
        return tag if isinstance(tag, str) else None


@dataclass(frozen=True)
class CancelTimer:
    timer_id: str
    owner: str | None = None  # as ArmTimer.owner; None: look in every shard


TimerOp = ArmTimer | CancelTimer
OutboxEntry = Publish | TimerOp


def dump_entry(entry: OutboxEntry) -> str:
    """The stored form of an entry (see the module docstring)."""
    raw: dict[str, Any]
    if isinstance(entry, Publish):
        raw = {
            "k": "pub",
            "x": entry.exchange,
            "r": entry.routing_key,
            "b": entry.body,
            "id": entry.message_id,
            "c": entry.correlation_id,
            "t": entry.type,
            "m": entry.mandatory,
        }
    elif isinstance(entry, ArmTimer):
        raw = {"k": "arm", "id": entry.timer_id, "due": entry.due_ms, "p": entry.payload}
    else:
        raw = {"k": "cancel", "id": entry.timer_id}
        if entry.owner is not None:
            raw["g"] = entry.owner
    return json.dumps(raw, separators=(",", ":"))


def load_entry(raw: str | bytes) -> OutboxEntry:
    """An entry read back from its stored form; an unknown kind raises ``ValueError``."""
    data = json.loads(raw)
    kind = data.get("k")
    if kind == "pub":
        return Publish(
            exchange=str(data["x"]),
            routing_key=str(data["r"]),
            body=str(data["b"]),
            message_id=str(data["id"]),
            correlation_id=data.get("c"),
            type=data.get("t"),
            mandatory=bool(data.get("m", True)),
        )
    if kind == "arm":
        return ArmTimer(str(data["id"]), int(data["due"]), dict(data["p"]))
    if kind == "cancel":
        owner = data.get("g")
        return CancelTimer(str(data["id"]), None if owner is None else str(owner))
    raise ValueError(f"unknown outbox entry kind {kind!r}")
