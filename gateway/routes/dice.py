"""Dice rolled on the server (issue 6): a combat's rolls, and free rolls."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field

from gateway.auth import Principal, current_principal
from gateway.errors import ApiError
from gateway.field_errors import found_error
from gateway.ids import CombatId
from gateway.routes.combats import reader
from gateway.views import CombatReader
from shared.api_types import ApiModel
from shared.dice.notation import NotationError, parse
from shared.dice.purpose import RollPurpose
from shared.dice.rolls import roll
from shared.dice.streams import SystemStream
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, DICE_ROLLED

router = APIRouter(tags=["dice"])


class FreeRoll(ApiModel):
    model_config = ConfigDict(extra="forbid")

    expression: str = Field(
        min_length=3,
        max_length=40,
        description="XdY+Z, XdYkhN (keep highest), XdY! (exploding), XkY (roll and keep, "
        "tens explode, the ten-dice rule), XkY~ (no explosion)",
        examples=["1d20", "3d6+2", "4d6kh3", "2d10!", "3k2", "12k4"],
    )
    purpose: str = Field("", max_length=120)


class RollAnswer(BaseModel):
    spec: str = Field(description="the expression as rolled (after the ten-dice rule)")
    dice: list[list[int]] = Field(description="each die's faces; an exploding die rolls on")
    kept: list[int]
    total: int
    purpose: str = ""


@router.post("/v1/dice/roll", response_model=RollAnswer)
async def roll_dice(
    body: FreeRoll, principal: Annotated[Principal, Depends(current_principal)]
) -> RollAnswer:
    """Roll an expression with the server's randomness (not part of any combat)."""
    try:
        spec = parse(body.expression)
    except NotationError as exc:
        found = found_error("body.expression", "value_error", error=str(exc))
        raise ApiError("invalid_request", details={"errors": [found]}) from exc
    result = roll(spec, SystemStream(), purpose=body.purpose)
    return RollAnswer(
        spec=result.spec,
        dice=result.dice,
        kept=result.kept,
        total=result.total,
        purpose=result.purpose,
    )


class CombatRoll(BaseModel):
    """One ``dice.rolled`` record of a combat."""

    log_id: str
    occurred_at: str
    spec: str = Field(description="the expression as rolled", examples=["6k3"])
    dice: list[list[int]]
    kept: list[int]
    total: int
    stream: str | None = Field(description="the combat's stream the dice came from")
    first_draw: int | None
    draws: int
    purpose: RollPurpose = Field(description="why it was rolled: a code, never free text")
    action_id: str | None = Field(
        description="the action the roll belongs to; null for the round's own rolls "
        "(initiative, Curso de combate)",
        examples=["a_0123456789abcdef0123456789abcdef"],
    )
    roller: str | None = Field(description="the character who rolled")
    combat_id: str


class CombatDice(BaseModel):
    combat_id: str
    commitment: str | None = Field(description="SHA-256 of the seed, from the combat's start")
    seed: str | None = Field(description="revealed once the combat ended")
    rolls: list[CombatRoll]


@router.get("/v1/combats/{combat_id}/dice", responses={200: {"model": CombatDice}})
async def get_combat_dice(
    combat_id: CombatId,
    principal: Annotated[Principal, Depends(current_principal)],
    combats: Annotated[CombatReader, Depends(reader)],
) -> dict[str, Any]:
    """Every roll of a combat, with the commitment to its seed (and the seed once it ended):
    ``python -m shared.dice verify`` recomputes them from the combat's log."""
    if await combats.view(combat_id, principal.community_id) is None:
        raise ApiError("not_found")
    commitment: str | None = None
    seed: str | None = None
    rolls: list[dict[str, Any]] = []
    after: str | None = None
    while True:
        page = await combats.log(combat_id, after=after, limit=1000)
        for log_id, env in page:
            if env.type == COMBAT_STARTED:
                commitment = env.payload.get("dice_commitment")
            elif env.type == COMBAT_ENDED:
                seed = env.payload.get("dice_seed")
            elif env.type == DICE_ROLLED:
                rolls.append({"log_id": log_id, "occurred_at": env.occurred_at, **env.payload})
        if len(page) < 1000:
            break
        after = page[-1][0]
    return {"combat_id": combat_id, "commitment": commitment, "seed": seed, "rolls": rolls}
