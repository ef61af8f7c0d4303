"""The umh damage pipeline: an ordered list of named steps (umh 9.1.1, RULES.md intro).

``immunity (A-37) -> ability defenses (9.2) -> passive resistance (9.3) -> % reductions
(9.4) -> floor (2.7.1) -> VIT``. This slice has every step but immunity; a later step is
one function added at its place in :data:`UMH_DAMAGE_STEPS`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from services.resolution.domain.hit import HitContext, Step, StepRecord
from services.resolution.domain.steps import (
    ability_defense,
    base_damage,
    floor_damage,
    passive_resistance,
    percentage_reduction,
)

UMH_DAMAGE_STEPS: Final[tuple[Step, ...]] = (
    ability_defense,
    passive_resistance,
    percentage_reduction,
    floor_damage,
)


@dataclass(frozen=True)
class Breakdown:
    """Every step of one hit and the integral damage that reaches VIT."""

    steps: tuple[StepRecord, ...]
    damage: int

    def steps_as_dicts(self) -> list[dict[str, Any]]:
        return [step.to_dict() for step in self.steps]


def compute_damage(hit: HitContext, steps: Sequence[Step] = UMH_DAMAGE_STEPS) -> Breakdown:
    """umh 9.1.1: run the base damage through ``steps`` in order.

    The integral damage is the last amount, floored (umh 2.7.1) and never below 0, even
    if a custom list of steps leaves out the floor step.
    """
    records = [base_damage(hit)]
    amount = records[0].after
    for step in steps:
        record = step(hit, amount)
        records.append(record)
        amount = record.after
    damage = max(0, math.floor(amount))
    return Breakdown(tuple(records), damage)


def vitality_step(vit_before: int, damage: int) -> StepRecord:
    """umh 9.1.1: the integral damage comes off VIT, which never goes below 0."""
    vit_after = max(0, vit_before - damage)
    return StepRecord(
        "vitality", "umh 9.1.1", Fraction(vit_before), Fraction(vit_after), {"damage": damage}
    )
