"""umh's community settings (docs/api.md "Endpoints" ``umh``): the numbers the seed leaves to the
community and the readings of docs/rules.md 6.1 marked "config" (the recommended one by default). A
combat keeps the values it started with."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from shared.api_types import ApiModel, Bool, Float, Int


class UmhReadings(ApiModel):
    """The readings of docs/rules.md 6.1 marked "config": the recommended one is the default."""

    model_config = ConfigDict(extra="forbid")

    lone_fighter_bucket_cap: Bool = Field(
        True, description="A-15: the +2 PA never take the lone fighter past the round's PA"
    )
    cooldown_from_next_round: Bool = Field(
        True, description="A-19: a cooldown of n rounds ends at r + n + 1 (false: r + n)"
    )
    annul_anticipate_counter: Literal["per_skill", "shared"] = Field(
        "per_skill", description="A-20: uses counted per skill, or one counter for all"
    )
    stat_below_one: Literal["keep", "clamp"] = Field(
        "keep", description="A-22: a REF / VEL reduced under 1 keeps its value, or becomes 1"
    )
    indirect_per_turn: Bool = Field(
        False, description="A-25: indirect damage ticks per general action (false) or per turn"
    )
    burn_total_split: Bool = Field(
        False, description="A-28: a fire burn of 10 % per action (false) or 10 % over 3"
    )
    sonic_literal: Bool = Field(
        False, description="A-29: the literal reading of a sonic hit past a partial defense"
    )
    grid_metric: Literal["chebyshev", "manhattan"] = Field(
        "chebyshev", description="A-61: a diagonal step is 1 square (chebyshev) or 2"
    )
    ambidextrous_four_plus: tuple[Float, Float] | None = Field(
        None, description="A-78: multipliers for weapons 4+ tiers apart (none: a moderator)"
    )
    unique_weapon_alone: Bool = Field(
        False, description="A-80: reading B (only the unique weapon counts) instead of A"
    )
    intrusion_literal: Bool = Field(
        False, description="A-96: every skill with added effects is a mental intrusion"
    )
    preparation_ends_when_ready: Bool = Field(
        True, description="A-99: the preparation round ends once everyone is ready"
    )


class UmhSettings(ApiModel):
    """umh numbers the seed leaves to the community (docs/rules.md A-16, A-20, section 6.1)."""

    model_config = ConfigDict(extra="forbid")

    pa_per_round: Int = Field(10, ge=1, le=1000, description="umh 3.1.1 / A-16: PA_MAX")
    uses_per_combat_annul_anticipate: Int = Field(
        5, ge=0, le=1000, description="umh 2.3.4.1: uses of each annulment / anticipation"
    )
    readings: UmhReadings = Field(default_factory=UmhReadings)
