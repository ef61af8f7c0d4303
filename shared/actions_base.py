"""What every action body shares (identifiers, squares, the actor) and the actions every
ruleset may accept: pass the turn, flee, a pact, a moderator's annulment or resumption of a
stalled combat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import ConfigDict, Field, StringConstraints

from shared.api_types import ApiModel, Int

CharacterId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:-]{1,64}$")]
Square = Annotated[tuple[Int, Int], Field(description="[x, y] grid square")]
SkillName = Annotated[str, StringConstraints(min_length=1, max_length=80)]


class _Action(ApiModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    actor: CharacterId
    if TYPE_CHECKING:  # every body declares its own ``type: Literal[...]``
        type: str


class PassTurnAction(_Action):
    type: Literal["pass_turn"]


class FleeAction(_Action):
    type: Literal["flee"]
    skill: SkillName | None = None


class PactAction(_Action):
    type: Literal["pact"]


class AnnulAction(_Action):
    """Moderator only: annuls the combat (umh 4.2.4)."""

    type: Literal["annul"]
    reason: Annotated[str, StringConstraints(min_length=1, max_length=500)]


class ResumeAction(_Action):
    """Moderator only: a stalled combat moves on again (422 ``combat_not_stalled`` if it is
    not stalled). The actions still in flight are abandoned and the current turn's clock
    starts afresh (or the next turn starts); ``combat.resumed`` records who and why."""

    type: Literal["resume"]
    reason: Annotated[str, StringConstraints(min_length=1, max_length=500)] = Field(
        description="why the moderator resumes it (kept in combat.resumed)"
    )


PLATFORM_ACTIONS = (PassTurnAction, FleeAction, PactAction, AnnulAction, ResumeAction)
PLATFORM_MODERATOR_ONLY = frozenset({"annul", "resume"})
