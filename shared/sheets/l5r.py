"""The l5r character sheet (seed 004).

To be completed by the l5r ruleset: every field of the seed, validated, documented in the
OpenAPI schema with examples.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class L5rSheet(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=80)
    ruleset: Literal["l5r"]
