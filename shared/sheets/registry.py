"""Every ruleset's sheet, discriminated by ``ruleset``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from shared.sheets.umh import UmhSheet


class PlannedSheet(BaseModel):
    """A sheet of a ruleset that is documented but not refereed yet (cypher, l5r)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    name: str = Field(min_length=1, max_length=80)
    ruleset: Literal["cypher", "l5r"]


Sheet = Annotated[UmhSheet | PlannedSheet, Field(discriminator="ruleset")]
SHEET_ADAPTER: TypeAdapter[UmhSheet | PlannedSheet] = TypeAdapter(Sheet)


def sheet_ruleset(sheet: dict[str, Any]) -> str:
    return str(sheet.get("ruleset", ""))
