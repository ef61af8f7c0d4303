"""The l5r readings of docs/rules.md 6.3 marked "config" (seed 004): the recommended one is the
default. A community changes them with ``PATCH /v1/settings {"l5r": {...}}``; a combat keeps
the values it started with."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from shared.api_types import ApiModel, Bool, Int


class L5rSettings(ApiModel):
    model_config = ConfigDict(extra="forbid")

    alentar_scope: Literal["day", "combat"] = Field(
        "day", description="C-5: the Alentar cap (the recipient's Void ring) per day or combat"
    )
    tn_reflexes_multiplier: Int = Field(
        5, ge=0, le=20, description="C-27: TN to be hit = Reflexes x this + base + armour"
    )
    tn_base: Int = Field(5, ge=0, le=50, description="C-27: the TN's constant")
    damage_raises: Literal["alternate", "rolled_only"] = Field(
        "alternate",
        description="C-24: n damage raises add +ceil(n/2)k floor(n/2) (alternate) or +n k0",
    )
    persistencia_more_points: Bool = Field(
        True,
        description="Persistencia: more than one Void point on the roll (each Mejora use once "
        "with it, the seed's 'puedes gastar más de un punto'); false: one use per roll",
    )
    void_for_two_tens: Literal["auto", "moderator"] = Field(
        "auto",
        description="Vacío (C-3): a roll with 2 exploding dice gives +1 Void point at once, "
        "which a moderator may veto (auto), or only when a moderator grants it (moderator)",
    )
    horsemanship_for_stances: Int = Field(
        3, ge=0, le=10, description="C-17: Horsemanship rank for Full Attack / Defense mounted"
    )
