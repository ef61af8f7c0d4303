"""The actions of the l5r ruleset (API.md "Actions" additions; their type is "l5r.<name>")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from shared.actions_base import CharacterId


class L5rPlaceholder(BaseModel):
    """Replaced by the l5r actions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["l5r.pending"]
    actor: CharacterId


L5rActions = L5rPlaceholder
