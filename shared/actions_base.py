"""What every action body shares: identifiers, squares, the actor."""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, Field, StringConstraints

from shared.api_types import ApiModel, Int

CharacterId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
Square = Annotated[tuple[Int, Int], Field(description="[x, y] grid square")]
SkillName = Annotated[str, StringConstraints(min_length=1, max_length=80)]


class _Action(ApiModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    actor: CharacterId
