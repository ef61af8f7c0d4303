"""Every public event type as one member of a union discriminated by ``type``.

The types are those the narrators tell (the platform's and every ruleset's), so a new event
type gets its place in the contract when it gets its sentence. ``data`` is the event's own
payload (docs/events.md lists each type's fields); what every event shares is typed here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from shared.narration.common import COMMON
from shared.rulesets.registry import RULESETS


class EventBase(BaseModel):
    """What every event carries (SSE ``data``, an action's answer, the combat log)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(
        description="the event's id (on the stream, the `id:` line is its position instead)"
    )
    type: str
    combat_id: str | None = Field(description="null for an event outside any combat")
    room: str
    occurred_at: str = Field(description="RFC 3339, UTC")
    correlation_id: str = Field(description="the action_id of the action that caused it")
    causation_id: str | None = None
    data: dict[str, Any] = Field(description="the event's own fields (docs/events.md)")
    text: str | None = Field(
        None, description="the event told in one sentence, in the answer's language"
    )
    log_id: str | None = Field(None, description="its position in the combat log (the log)")


def event_types() -> list[str]:
    """Every public event type, sorted."""
    found = set(COMMON.types())
    for ruleset in RULESETS:
        found |= ruleset.narration.types()
    return sorted(found)


def model_name(event_type: str) -> str:
    """``turn.started`` -> ``TurnStartedEvent``."""
    words = event_type.replace(".", "_").split("_")
    return "".join(word.capitalize() for word in words) + "Event"


def _member(event_type: str) -> type[EventBase]:
    kind: Any = Literal[event_type]
    return create_model(
        model_name(event_type),
        __base__=EventBase,
        __doc__=f"A `{event_type}` event.",
        type=(kind, Field(description="the event type")),
    )


EVENT_MODELS: dict[str, type[EventBase]] = {t: _member(t) for t in event_types()}

if TYPE_CHECKING:
    Event = EventBase
else:
    Event = Annotated[
        Union[tuple(EVENT_MODELS.values())],  # noqa: UP007 - built at runtime
        Field(discriminator="type"),
    ]


def event_schema() -> dict[str, Any]:
    """The ``Event`` union as an OpenAPI component (its members are components of their own)."""
    schema = TypeAdapter(Event).json_schema(ref_template="#/components/schemas/{model}")
    schema.pop("$defs", None)
    schema["description"] = "Any public event, by its `type` (docs/events.md)."
    return schema
