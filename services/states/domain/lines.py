"""A line of a character's history as the cypher and l5r records keep it: when, what changed
and its details, in the order they were written. A line another ruleset wrote in the same
character's record (the record is the character's, whatever the combat's ruleset) is kept
exactly as it was written."""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    ModelWrapValidatorHandler,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)


class HistoryLine(BaseModel):
    """``at_ms`` (cypher) or ``at`` (l5r, RFC 3339), ``change``, and the details."""

    model_config = ConfigDict(extra="allow")

    at_ms: int | None = None
    at: str | None = None
    change: str | None = None
    _order: tuple[str, ...] = PrivateAttr(default=())

    @model_validator(mode="wrap")
    @classmethod
    def _remember_order(
        cls, data: Any, handler: ModelWrapValidatorHandler[HistoryLine]
    ) -> HistoryLine:
        line = handler(data)
        if isinstance(data, dict):
            line._order = tuple(data)
        return line

    @model_serializer(mode="wrap")
    def _as_written(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        fields = type(self).model_fields
        kept = {k: v for k, v in data.items() if k in self._order or k not in fields}
        ordered = [k for k in self._order if k in kept] + [k for k in kept if k not in self._order]
        return {k: kept[k] for k in ordered}


def appended(lines: list[HistoryLine], line: HistoryLine, keep: int) -> list[HistoryLine]:
    """The history with ``line`` added, the last ``keep`` lines kept."""
    return [*lines, line][-keep:]
