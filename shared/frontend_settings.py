"""The community settings that concern frontends rather than the rules: which browser
origins may call the API (``cors``) and what the player view shows (``visibility``).

Both are read by the gateway when it serves a request; neither changes how a combat is
refereed, so a change applies at once, to running combats too.
"""

from __future__ import annotations

import re
from enum import StrEnum

from pydantic import Field, field_validator

from shared.api_types import ApiModel, Int

ORIGIN = re.compile(
    r"^https?://(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9-]+)*)(:\d{1,5})?$"
)


class CorsSettings(ApiModel):
    """Browser origins allowed to call the API with this community's keys or stream tokens
    (docs/browsers.md)."""

    origins: list[str] = Field(
        default_factory=list,
        max_length=50,
        description="exact origins, scheme://host[:port], e.g. https://game.example.org",
        examples=[["https://game.example.org", "http://localhost:5173"]],
    )

    @field_validator("origins")
    @classmethod
    def _exact_origins(cls, origins: list[str]) -> list[str]:
        cleaned: list[str] = []
        for origin in origins:
            value = origin.strip().lower()
            if not ORIGIN.fullmatch(value):
                raise ValueError(
                    f"{origin!r} is not an origin: scheme://host[:port], http or https, no path"
                )
            if value not in cleaned:
                cleaned.append(value)
        return cleaned


class VitVisibility(StrEnum):
    """What the player view shows of a combatant's vitality (umh VIT, cypher pools and
    health, l5r wounds)."""

    EXACT = "exact"  # the numbers, as the full view
    BAR = "bar"  # a percentage rounded down to bar_step (and the named tracks and ranks)
    NONE = "none"  # nothing but what the status says (active, down, ...)


class EffectVisibility(StrEnum):
    """What the player view shows of an effect on a combatant."""

    EXACT = "exact"  # kind, type, amount, actions left
    TYPE = "type"  # kind and type only (quemadura, aturdimiento)
    NONE = "none"  # nothing


class VisibilitySettings(ApiModel):
    """What players see: the player view (``view=player``, viewer keys and player stream
    tokens) hides what these settings hide (docs/views.md)."""

    vit: VitVisibility = VitVisibility.BAR
    bar_step: Int = Field(10, ge=1, le=100, description="the bar's resolution, in percent")
    effects: EffectVisibility = EffectVisibility.TYPE
