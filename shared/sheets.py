"""Every ruleset's sheet, discriminated by ``ruleset``: composed from the registry."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import BaseModel, Field, TypeAdapter

from shared.rulesets.registry import RULESETS

if TYPE_CHECKING:
    Sheet = BaseModel
else:
    Sheet = Annotated[
        Union[tuple(ruleset.sheet for ruleset in RULESETS)],  # noqa: UP007 - built at runtime
        Field(discriminator="ruleset"),
    ]

SHEET_ADAPTER: TypeAdapter[Any] = TypeAdapter(Sheet)
