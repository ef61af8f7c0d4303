"""STAT increases a skill grants inside a combat (umh 2.6.3, 2.8), as a sheet states them."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field, model_validator

from shared.api_types import ApiModel, Float, Int

BoostedStat = Literal["vel", "ref", "vol", "fue"]
"""The STATs an increase or the experience shop changes inside a combat (umh 2.6, 2.8)."""


class IncreaseEffect(ApiModel):
    """A STAT increase a skill grants for some actions (umh 2.6.3, 2.8.1 - 2.8.3): a tier
    increase adds the percent its tier is worth, a numeric one a figure; only the best of
    each kind applies, and one of each may stand together."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["increase"]
    stat: BoostedStat
    mode: Literal["tier", "numeric"]
    percent: Float | None = Field(
        None, gt=0, le=1000, description="a tier increase: what its tier adds, in percent"
    )
    amount: Float | None = Field(
        None, gt=0, le=10_000_000, description="a numeric increase: the figure it adds"
    )
    actions: Int = Field(ge=1, le=1000)

    @model_validator(mode="after")
    def _figure_for_mode(self) -> IncreaseEffect:
        if self.mode == "tier" and (self.percent is None or self.amount is not None):
            raise ValueError("a tier increase has percent and no amount (umh 2.8.1)")
        if self.mode == "numeric" and (self.amount is None or self.percent is not None):
            raise ValueError("a numeric increase has amount and no percent (umh 2.8.2)")
        return self
