"""The answers of the API as models (docs/api.md). Open models (``extra`` allowed): a ruleset
adds its own fields, and a frontend keeps what it does not know."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

from gateway.schemas.events import Event
from shared.payloads import CharacterStatus
from shared.rulesets.registry import RULESETS

COMBAT_ID = "c_" + "3f" * 16
ACTION_ID = "a_" + "9b" * 16
EVENT_EXAMPLE: dict[str, Any] = {
    "id": "m_" + "1c" * 16,
    "type": "turn.started",
    "combat_id": COMBAT_ID,
    "room": "plaza",
    "occurred_at": "2026-12-01T20:00:02.100Z",
    "correlation_id": ACTION_ID,
    "causation_id": None,
    "data": {"round": 1, "actor": "ana", "pa": 6, "deadline": "2026-12-01T20:05:02.100Z"},
    "text": "Empieza el turno de Ana (6 PA).",
}


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")


def _examples(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(extra="allow", json_schema_extra={"examples": list(examples)})


class Turn(Open):
    actor: str
    deadline: str | None = Field(None, description="RFC 3339: when the turn's clock runs out")
    index: int | None = None


class Participant(Open):
    """One fighter as the combat shows him; each ruleset adds its own fields (docs/api.md)."""

    side: str
    status: str | None = None
    vit: int | float | None = Field(None, description="umh: current vitality (null: hidden)")
    vit_max: int | float | None = None
    effects: list[Any] | None = None


COMBAT_EXAMPLE: dict[str, Any] = {
    "id": COMBAT_ID,
    "room": "plaza",
    "ruleset": "umh",
    "phase": "fighting",
    "round": 1,
    "version": 7,
    "sides": {"attackers": ["ana"], "defenders": ["bruno"]},
    "turn_order": ["ana", "bruno"],
    "turn": {"index": 0, "actor": "ana", "deadline": "2026-12-01T20:05:02.100Z"},
    "pending_reactions": [],
    "participants": {
        "ana": {"side": "attackers", "status": "active", "pa": 6, "vit": 300, "vit_max": 300},
        "bruno": {"side": "defenders", "status": "active", "pa": 5, "vit": 228, "vit_max": 300},
    },
    "result": None,
    "created_at": "2026-12-01T20:00:00.000Z",
    "ended_at": None,
}


class Combat(Open):
    """A combat (``GET /v1/combats/{id}``); ``version`` is what ``If-Match`` compares."""

    model_config = _examples(COMBAT_EXAMPLE)

    id: str
    room: str
    ruleset: str
    phase: str = Field(description="opening, preparation, fighting, ended (ruleset words)")
    round: int
    version: int
    sides: dict[str, list[str]]
    turn_order: list[str]
    turn: Turn | None = None
    pending_reactions: list[dict[str, Any]] = Field(default_factory=list)
    participants: dict[str, Participant]
    result: dict[str, Any] | None = None
    created_at: str | None = None
    ended_at: str | None = None


class CombatPending(BaseModel):
    """202: the start is still being processed; poll the ``Location``."""

    model_config = _examples({"id": COMBAT_ID, "status": "pending"})
    id: str
    status: Literal["pending"]


class CombatPage(BaseModel):
    model_config = _examples({"combats": [COMBAT_EXAMPLE], "next_cursor": None})
    combats: list[Combat]
    next_cursor: str | None = Field(description="pass as `cursor` for the next page")


class ActionAnswer(BaseModel):
    """200: the action's whole chain was applied; its events and the combat after them."""

    model_config = _examples(
        {"action_id": ACTION_ID, "events": [EVENT_EXAMPLE], "combat": COMBAT_EXAMPLE}
    )
    action_id: str
    events: list[Event]
    combat: Combat


class ActionPending(BaseModel):
    """202: the chain goes on after 5 s; poll the ``Location`` (the action's outcome)."""

    model_config = _examples({"action_id": ACTION_ID, "status": "pending"})
    action_id: str
    status: Literal["pending"]


class ActionOutcome(BaseModel):
    """Where an action stands: ``events`` once completed, ``error`` once rejected."""

    model_config = _examples(
        {"action_id": ACTION_ID, "status": "completed", "events": [EVENT_EXAMPLE]}
    )
    action_id: str
    status: Literal["pending", "completed", "rejected"]
    events: list[Event] | None = None
    error: dict[str, Any] | None = None


class LogPage(BaseModel):
    """A page of the combat's log; ``next`` is the ``after`` of the next page."""

    model_config = _examples(
        {
            "combat_id": COMBAT_ID,
            "events": [{"log_id": "1764619202100-0", **EVENT_EXAMPLE}],
            "next": None,
        }
    )
    combat_id: str
    events: list[Event]
    next: str | None


class CharacterItem(Open):
    id: str
    name: str
    ruleset: str | None


class CharacterPage(BaseModel):
    model_config = _examples(
        {"characters": [{"id": "ana", "name": "Ana", "ruleset": "umh"}], "next_cursor": None}
    )
    characters: list[CharacterItem]
    next_cursor: str | None


class KeyItem(BaseModel):
    key_id: str
    scope: Literal["frontend", "moderator", "viewer"]
    created_at: str | None
    primary: bool = Field(description="the key the community was created or rotated with")


class KeyPage(BaseModel):
    model_config = _examples(
        {
            "keys": [
                {
                    "key_id": "k_" + "0" * 20,
                    "scope": "moderator",
                    "primary": True,
                    "created_at": "2026-12-01T19:00:00+00:00",
                }
            ],
            "next_cursor": None,
        }
    )
    keys: list[KeyItem]
    next_cursor: str | None


class RoomItem(BaseModel):
    room: str
    combats: int
    active_combats: int = Field(description="of its newest 500 combats, those not ended")


class RoomPage(BaseModel):
    model_config = _examples(
        {"rooms": [{"room": "plaza", "combats": 3, "active_combats": 1}], "next_cursor": None}
    )
    rooms: list[RoomItem]
    next_cursor: str | None


class AftermathAnswer(BaseModel):
    """200: services/states committed the command; the character's status after it."""

    model_config = _examples(
        {
            "correlation_id": "r_" + "5e" * 16,
            "character": "bruno",
            "events": [],
            "status": {"in_combat": None, "vigor_lost": 1},
        }
    )
    correlation_id: str
    character: str
    events: list[Event]
    status: CharacterStatus


class AftermathPending(BaseModel):
    model_config = _examples({"correlation_id": "r_" + "5e" * 16, "status": "pending"})
    correlation_id: str
    status: Literal["pending"]


class HistoryEntry(Open):
    at: str | None = None
    change: str
    combat_id: str | None = None
    rule: str | None = None
    reason: str | None = None


class History(BaseModel):
    model_config = _examples(
        {
            "character": "bruno",
            "history": [
                {
                    "at": "2026-12-01T20:30:00+00:00",
                    "change": "vigor_lost",
                    "combat_id": COMBAT_ID,
                    "rule": "umh 4.1.6",
                    "reason": "defeated",
                }
            ],
        }
    )
    character: str
    history: list[HistoryEntry]


class Health(BaseModel):
    model_config = _examples({"status": "ok"})
    status: Literal["ok"]


class Readiness(BaseModel):
    model_config = _examples(
        {"status": "ready", "checks": {"redis": "ok", "rabbitmq": "ok", "consumers": {}}}
    )
    status: Literal["ready", "degraded", "not_ready"]
    checks: dict[str, Any]


def _character(sheet: type[BaseModel]) -> type[BaseModel]:
    name = sheet.__name__.removesuffix("Sheet") + "Character"
    return create_model(
        name,
        __base__=sheet,
        __doc__=f"A stored {sheet.__name__} with its id.",
        id=(str, Field(description="the character's id (the path's)")),
    )


if TYPE_CHECKING:
    Character = BaseModel
else:
    Character = Annotated[
        Union[tuple(_character(r.sheet) for r in RULESETS)],  # noqa: UP007 - built at runtime
        Field(discriminator="ruleset"),
    ]
