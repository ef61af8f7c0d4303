"""The actions of the cypher ruleset (API.md "Actions" additions; their type is "cypher.<name>")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from shared.actions_base import CharacterId


class CypherPlaceholder(BaseModel):
    """Replaced by the cypher actions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["cypher.pending"]
    actor: CharacterId


CypherActions = CypherPlaceholder
