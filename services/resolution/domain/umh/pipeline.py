"""The umh damage pipeline: an ordered list of named steps (umh 9.1.1, docs/rules.md section 2).

``boosters (7.3) -> attack modifiers (11.5.6, 11.5.12, 11.4.12-13) -> immunity (A-37) ->
RESISTIR (7.1.2.3) -> evasion (8.2.1) -> ability defense / counter (9.2, 8.2.4) ->
further defenses against a skill reactable several times (8.1.1.3) -> an external defense
kept on the terrain (9.2.4; not after an evasion without requirements, 8.2.1.4) ->
degradable coatings (9.2.6, A-97) -> passive resistance (9.3) -> mental shield (9.7.3,
A-38) -> % reductions (9.4) -> floor (2.7.1) -> VIT``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from services.resolution.domain.umh.hit import Flow, HitContext, Step, StepRecord
from services.resolution.domain.umh.steps import (
    base_damage,
    booster_step,
    coating_step,
    defense_step,
    evasion_step,
    floor_damage,
    further_step,
    immunity_step,
    modifier_step,
    passive_resistance,
    percentage_reduction,
    resist_step,
    shield_step,
    terrain_defense_step,
)

UMH_DAMAGE_STEPS: Final[tuple[Step, ...]] = (
    booster_step,
    modifier_step,
    immunity_step,
    resist_step,
    evasion_step,
    defense_step,
    further_step,
    terrain_defense_step,
    coating_step,
    passive_resistance,
    shield_step,
    percentage_reduction,
    floor_damage,
)


@dataclass(frozen=True)
class Breakdown:
    """Every step of one hit, the integral damage that reaches VIT, and its mental part."""

    steps: tuple[StepRecord, ...]
    damage: int
    mental: int = 0

    def steps_as_dicts(self) -> list[dict[str, Any]]:
        return [step.to_dict() for step in self.steps]

    def amount_before(self, step: str) -> Fraction | None:
        """The damage entering ``step`` (e.g. the pre-block damage of umh 7.1.1.5)."""
        return next((s.before for s in self.steps if s.step == step), None)

    def after(self, step: str) -> Fraction | None:
        return next((s.after for s in self.steps if s.step == step), None)


def compute_damage(hit: HitContext, steps: Sequence[Step] = UMH_DAMAGE_STEPS) -> Breakdown:
    """umh 9.1.1: run the base damage through ``steps`` in order.

    The integral damage is the last amount, floored (umh 2.7.1) and never below 0, even
    if a custom list of steps leaves out the floor step; its mental part is floored too.
    """
    first = base_damage(hit)
    records = [first]
    flow = first.flow(Flow(first.after))
    for step in steps:
        record = step(hit, flow)
        if record is None:
            continue
        records.append(record)
        flow = record.flow(flow)
    damage = max(0, math.floor(flow.amount))
    return Breakdown(tuple(records), damage, min(damage, max(0, math.floor(flow.mental))))


def vitality_step(vit_before: int, damage: int) -> StepRecord:
    """umh 9.1.1: the integral damage comes off VIT, which never goes below 0."""
    vit_after = max(0, vit_before - damage)
    return StepRecord(
        "vitality", "umh 9.1.1", Fraction(vit_before), Fraction(vit_after), {"damage": damage}
    )
