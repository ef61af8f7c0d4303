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
    """Ends the actor's turn, the same in every ruleset (umh 2.1.4, cypher ACCIÓN, l5r Paso 2;
    l5r's ``l5r.pass`` adds ``delay``)."""

    type: Literal["pass_turn"]


class FleeAction(_Action):
    """Leaves the combat, the same in every ruleset; ``skill`` is umh's escape skill (umh
    4.1.1; cypher and l5r refuse one with ``invalid_request``)."""

    type: Literal["flee"]
    skill: SkillName | None = None


class ReadyAction(_Action):
    """Done preparing: the preparation round may end early (umh 1.3.1 / A-99, a setting;
    l5r Paso 1, before the initiative roll). A ruleset with no preparation round (cypher)
    answers ``wrong_phase``."""

    type: Literal["ready"]


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


PLATFORM_ACTIONS = (
    PassTurnAction,
    FleeAction,
    ReadyAction,
    PactAction,
    AnnulAction,
    ResumeAction,
)
PLATFORM_MODERATOR_ONLY = frozenset({"annul", "resume"})
