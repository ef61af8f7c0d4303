"""cypher's community settings (docs/api.md "Endpoints" ``cypher``). A combat keeps the values it
started with."""

from __future__ import annotations

from pydantic import ConfigDict, Field, StrictBool

from shared.api_types import ApiModel, Int


class CypherSettings(ApiModel):
    """cypher readings docs/rules.md 6.2 marks config (seed 001)."""

    model_config = ConfigDict(extra="forbid")

    day_boundary_minutes: Int = Field(
        0, ge=0, le=1439, description="cypher B-9: when the day's rests start again (UTC minutes)"
    )
    literal_low_light: StrictBool = Field(
        False, description="cypher B-23: low-light training may beat the light (literal reading)"
    )
