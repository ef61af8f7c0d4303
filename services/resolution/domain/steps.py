"""The steps of the umh damage pipeline (umh 9.1.1), one rule each.

Every step takes the hit and the damage so far and returns a :class:`StepRecord`; damage
never goes below 0 at any step. Later issues add steps (immunity before the defenses,
A-37; boosters, mental shields, degradable coatings) without touching these.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Final

from services.resolution.domain.exact import exact, json_number
from services.resolution.domain.hit import HitContext, StepRecord

PASSIVE_REDUCTION_CAP: Final = Fraction(25)
"""umh 9.4.3 (2nd): the maximum passive percentage reduction."""

GENERAL: Final = "general"


def base_damage(hit: HitContext) -> StepRecord:
    """umh 9.1.1: the pipeline starts from the skill's stated damage (daño base)."""
    amount = Fraction(hit.damage)
    return StepRecord(
        "base", "umh 9.1.1", amount, amount, {"skill": hit.skill, "natures": list(hit.natures)}
    )


def ability_defense(hit: HitContext, amount: Fraction) -> StepRecord:
    """umh 9.2.1: a defensive skill's numeric defense is subtracted from the damage.

    Order: first of the defenses (umh 9.1.1). ``after = max(0, before - defense)``. With no
    applicable defense (none chosen, the window timed out, ...) the damage passes unchanged
    and ``note`` says why.
    """
    if hit.defense is None:
        details = {"skill": None, "defense": 0, "note": hit.defense_note}
        return StepRecord("defense", "umh 9.2.1", amount, amount, details)
    after = max(Fraction(0), amount - hit.defense.value)
    details = {"skill": hit.defense.skill, "kind": hit.defense.kind, "defense": hit.defense.value}
    return StepRecord("defense", "umh 9.2.1", amount, after, details)


def passive_resistance(hit: HitContext, amount: Fraction) -> StepRecord:
    """umh 9.3.2: passive resistance (RES) is subtracted from direct damage only.

    Order: after the ability defenses (umh 9.1.1). ``after = max(0, before - value)``;
    indirect damage passes unchanged. Hardness is recorded for the ignore/pierce rules
    (umh 9.3.5) that a later step will read.
    """
    value = hit.resistance if hit.direct else 0
    after = max(Fraction(0), amount - value)
    details = {"value": value, "hardness": hit.hardness, "direct": hit.direct}
    return StepRecord("resistance", "umh 9.3.2", amount, after, details)


def reduction_percent(
    reductions: Mapping[str, float], natures: Iterable[str]
) -> tuple[Fraction, Fraction]:
    """umh 9.4.3, A-36: general + every matching nature's reduction, added, capped at 25.

    Returns ``(effective, uncapped)`` percents. Additive, not multiplicative; a nature
    listed twice on a skill counts once.
    """
    keys = [GENERAL, *dict.fromkeys(natures)]
    uncapped = sum((exact(reductions[key]) for key in keys if key in reductions), Fraction(0))
    return min(uncapped, PASSIVE_REDUCTION_CAP), uncapped


def percentage_reduction(hit: HitContext, amount: Fraction) -> StepRecord:
    """umh 9.4.1, 9.4.3: percentage reductions apply last, ``after = before × (1 − pct/100)``.

    The percent is :func:`reduction_percent` (passive, capped at 25, A-36). No rounding
    here: the floor comes next (umh 2.7.1).
    """
    percent, uncapped = reduction_percent(hit.reductions, hit.natures)
    after = amount * (1 - percent / 100)
    details = {"percent": json_number(percent), "uncapped": json_number(uncapped)}
    return StepRecord("reduction", "umh 9.4.3", amount, after, details)


def floor_damage(hit: HitContext, amount: Fraction) -> StepRecord:
    """umh 2.7.1: the integral damage is rounded down: 1402.1 -> 1402, 1199.99 -> 1199."""
    return StepRecord("floor", "umh 2.7.1", amount, Fraction(math.floor(amount)))
