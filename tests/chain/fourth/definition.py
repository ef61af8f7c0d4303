"""``toy``: a tiny fourth ruleset written in test code, to show that a ruleset is its folders
plus one line per registry. This is its shared part (``shared/rulesets/toy/`` in real code):
sheet, actions, error codes, settings; ``adapters.py`` holds its three services' parts.

Two fighters poke each other in turn; a poke costs the target 1 point (resolution computes
it); the first at 0 loses; services/states counts each one's defeats."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from shared.actions_base import _Action
from shared.rulesets.interface import SharedRuleset


class ToySheet(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ruleset: Literal["toy"]
    name: str


class ToyPoke(_Action):
    type: Literal["toy.poke"]
    target: str


class ToySettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    points: int = 2


TOY = SharedRuleset(
    name="toy",
    sheet=ToySheet,
    actions=(ToyPoke,),
    moderator_only=frozenset(),
    errors={"toy_not_your_poke": (422, "Not your poke.", "No te toca.")},
    settings=ToySettings,
)
