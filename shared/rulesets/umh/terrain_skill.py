"""A umh skill kept on squares of the grid (umh 4.1.5.1, 11.4.1 - 11.4.1.2, 8.2.1.4, 11.6.1).

The seed names "habilidades sobre el terreno" without saying what they do: the sheet states
it with one of three kinds, the smallest faithful reading (docs/umh.md "4.1.5.1 / 11.4.1:
skills kept on the terrain"): an ``obstacle`` blocks moving, standing and pushes like the
room's obstacles (11.6.1); a ``hazard`` deals its damage as indirect damage to whoever starts
a turn on it (11.3.3, 8.1.1.3.1.2); a ``defense`` is an external defense on the terrain
(8.2.1.4 names it) that reduces the hits aimed at whoever stands on it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from shared.api_types import ApiModel, Int
from shared.rulesets.umh.sheet_terms import Nature

TerrainKind = Literal["obstacle", "hazard", "defense"]


class TerrainSkill(ApiModel):
    """What a skill keeps on the squares its action names, and for how long."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    effect: TerrainKind
    rounds: Int = Field(ge=1, le=100, description="rounds it lasts (umh 2.1.2)")
    size: Int = Field(ge=1, le=100, description="the most squares it may cover")
    damage: Int = Field(0, ge=0, le=10_000_000, description="a hazard's damage per turn start")
    nature: Nature | None = Field(None, description="a hazard's nature (immunities, umh 9.5)")
    resistance: Int = Field(0, ge=0, le=10_000_000, description="a defense's resistance")

    @model_validator(mode="after")
    def _what_the_kind_needs(self) -> TerrainSkill:
        hazard, defense = self.effect == "hazard", self.effect == "defense"
        if hazard != (self.damage > 0):
            raise ValueError("a hazard, and only a hazard, states its damage (umh 4.1.5.1)")
        if self.nature is not None and not hazard:
            raise ValueError("only a hazard has a nature (umh 4.1.5.1)")
        if defense != (self.resistance > 0):
            raise ValueError("a defense, and only a defense, states its resistance (umh 8.2.1.4)")
        return self
