"""Two weapons at once (umh 12, readings A-78 - A-81)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

MULTIPLIERS: Final[dict[int, tuple[Fraction, Fraction]]] = {
    0: (Fraction(6, 10), Fraction(6, 10)),
    1: (Fraction(7, 10), Fraction(5, 10)),
    2: (Fraction(8, 10), Fraction(4, 10)),
    3: (Fraction(9, 10), Fraction(3, 10)),
}
"""umh 12.2.1 - 12.2.4: (higher tier, lower tier) multipliers by tiers apart."""


@dataclass(frozen=True)
class Wielded:
    tier: int
    arma: int
    weapon_class: str
    unique: bool = False


def combined_arma(
    first: Wielded,
    second: Wielded,
    *,
    unique_used: bool = False,
    four_plus: tuple[float, float] | None = None,
    unique_alone: bool = False,
) -> int | None:
    """umh 12.1.1, 12.2, 12.4 / A-78 - A-80: the ARMA stat of two weapons together.

    Different classes: no combination, each keeps its own ARMA (None). 4+ tiers apart: a
    moderator's ruling (None) unless the setting gives multipliers. Using a unique weapon's
    own skill (12.4): reading A gives it the higher multiplier and the other the lower;
    reading B (``unique_alone``) counts only the unique weapon. The final sum is floored
    (A-79: 33 and 33 -> 39.6 -> 39).
    """
    if first.weapon_class != second.weapon_class:
        return None
    gap = abs(first.tier - second.tier)
    pair = MULTIPLIERS.get(gap)
    if pair is None:
        if four_plus is None:
            return None
        pair = (Fraction(str(four_plus[0])), Fraction(str(four_plus[1])))
    high, low = pair
    if unique_used and (first.unique or second.unique):
        special, other = (first, second) if first.unique else (second, first)
        if unique_alone:
            return math.floor(special.arma * high)
        return math.floor(special.arma * high + other.arma * low)
    upper, lower = (first, second) if first.tier >= second.tier else (second, first)
    return math.floor(upper.arma * high + lower.arma * low)
