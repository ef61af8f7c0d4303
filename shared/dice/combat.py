"""A combat's dice: its secret seed, the commitment published at its start, the draws so far.

Every combat's state (in turns and in resolution) carries ``state["dice"]`` =
``{"seed", "commitment", "draws": {stream: count}}``. The services' handlers put it there and
carry it through every decision, so a ruleset only reads it (its typed state's :class:`Dice`:
:meth:`Dice.stream`) and, after rolling, writes the draws back (:meth:`Dice.keep`). The seed
is never shown until the combat ends: ``combat.started`` carries the commitment,
``combat.ended`` reveals the seed.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from shared.dice.rolls import Roll
from shared.dice.streams import SeededStream, commitment, new_seed
from shared.domain import Decision
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, DICE_ROLLED, DICE_SEEDED, Event

State = dict[str, Any]
DICE = "dice"


def fresh() -> dict[str, Any]:
    seed = new_seed()
    return {"seed": seed, "commitment": commitment(seed), "draws": {}}


def known(seed: str) -> dict[str, Any]:
    """The dice of a combat whose seed another service chose."""
    return {"seed": seed, "commitment": commitment(seed), "draws": {}}


class Dice(BaseModel):
    """``state["dice"]`` in a ruleset's typed state: the seed, its commitment, how far each
    named stream ("turns", "resolution") has drawn."""

    model_config = ConfigDict(extra="ignore")

    seed: str
    commitment: str
    draws: dict[str, int] = Field(default_factory=dict)

    def stream(self, name: str) -> SeededStream:
        """The combat's stream ``name``, where it stopped drawing."""
        return SeededStream(self.seed, name, self.draws.get(name, 0))

    def keep(self, stream: SeededStream) -> None:
        """Remember how far ``stream`` has drawn (after rolling on it)."""
        self.draws[stream.stream] = stream.draws


def rolled(
    roll: Roll, *, roller: str | None, combat_id: str, action_id: str | None = None
) -> Event:
    """The public record of one roll (``GET /v1/combats/{id}/dice``, the verifier): its
    ``purpose`` code (:class:`shared.dice.purpose.RollPurpose`) and the ``action_id`` of the
    action it belongs to (``None``: a roll of the round itself, such as initiative)."""
    payload = {**roll.as_dict(), "roller": roller, "combat_id": combat_id, "action_id": action_id}
    return Event(DICE_ROLLED, payload)


def view(state: State, *, ended: bool) -> dict[str, Any] | None:
    dice = state.get(DICE)
    if not dice:
        return None
    return {"commitment": dice["commitment"], "seed": dice["seed"] if ended else None}


def carried(previous: State | None, decision: Decision[State]) -> Decision[State]:
    """The decision with ``dice`` kept in its state, the commitment on ``combat.started``, the
    seed revealed on ``combat.ended``, and an internal ``combat.dice_seeded`` for the other
    services when the combat starts."""
    if decision.state is None:
        return decision
    dice = decision.state.get(DICE) or (previous or {}).get(DICE)
    if dice is None:
        return decision
    state = {**decision.state, DICE: copy.deepcopy(dice)}
    events: list[Event] = []
    for event in decision.events:
        if event.type == COMBAT_STARTED:
            events.append(
                Event(event.type, {**event.payload, "dice_commitment": dice["commitment"]})
            )
            events.append(Event(DICE_SEEDED, {"combat_id": state.get("id"), "seed": dice["seed"]}))
        elif event.type == COMBAT_ENDED:
            events.append(Event(event.type, {**event.payload, "dice_seed": dice["seed"]}))
        else:
            events.append(event)
    return Decision(state, events, decision.arm, decision.cancel)
