"""Every ruleset's sheet, discriminated by ``ruleset``."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, TypeAdapter

from shared.sheets.cypher import CypherSheet
from shared.sheets.l5r import L5rSheet
from shared.sheets.umh import UmhSheet

Sheet = Annotated[UmhSheet | CypherSheet | L5rSheet, Field(discriminator="ruleset")]
SHEET_ADAPTER: TypeAdapter[UmhSheet | CypherSheet | L5rSheet] = TypeAdapter(Sheet)


def sheet_ruleset(sheet: dict[str, Any]) -> str:
    return str(sheet.get("ruleset", ""))
