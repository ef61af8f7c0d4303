"""The shapes of the answers (docs/api.md), as TypedDicts: the JSON stays JSON, and a type
checker knows its fields. Every shape may carry more fields than these (a ruleset's own)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

JSON = dict[str, Any]
Scope = Literal["frontend", "moderator", "viewer"]
View = Literal["full", "player"]


class Event(TypedDict):
    id: str
    type: str
    combat_id: str | None
    room: str
    occurred_at: str
    correlation_id: str
    causation_id: str | None
    data: JSON
    text: NotRequired[str]
    log_id: NotRequired[str]


class Turn(TypedDict):
    actor: str
    deadline: NotRequired[str | None]
    index: NotRequired[int]


class Combat(TypedDict):
    id: str
    room: str
    ruleset: str
    phase: str
    round: int
    version: int
    sides: dict[str, list[str]]
    turn_order: list[str]
    turn: Turn | None
    participants: dict[str, JSON]
    result: JSON | None
    pending_reactions: NotRequired[list[JSON]]


class ActionAnswer(TypedDict):
    action_id: str
    events: list[Event]
    combat: Combat


class LogPage(TypedDict):
    combat_id: str
    events: list[Event]
    next: str | None


class Community(TypedDict):
    id: str
    name: str
    api_key: str


class NewKey(TypedDict):
    key_id: str
    scope: Scope
    api_key: str


@dataclass(frozen=True)
class StreamEvent:
    """One message of the event stream: ``event`` is the type, ``id`` the stream position
    (what a resume sends back), ``data`` the event (or a control's details)."""

    id: str | None
    event: str
    data: JSON

    @property
    def is_control(self) -> bool:
        """``stream.opened`` / ``stream.reset``: the stream's own messages, not events."""
        return self.event.startswith("stream.")
