"""How natures, immunities and states change a hit's numbers (umh 7.1, 9.5, 11.5.12, 8.2.1.4).

Pure arithmetic on fractions; the context builder decides when each applies.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Final

from services.resolution.domain.umh.hit import Modifier
from services.resolution.domain.umh.readings import UmhReadings

THREE_NATURE_CUTS: Final[dict[int, Fraction]] = {
    1: Fraction(1, 4),
    2: Fraction(3, 4),
    3: Fraction(1),
}
"""umh 9.5.4: a 3-nature skill is cut 25 % / 75 % / 100 % by 1 / 2 / 3 immunities."""

WET_ELECTRIC: Final = Modifier("mojado", "umh 11.5.12", Fraction(5, 4))
WET_IGNEOUS: Final = Modifier("mojado", "umh 11.5.12", Fraction(3, 4))
PETRIFIED_BREAK: Final = Modifier("petrificacion", "umh 11.4.12", Fraction(6, 5))
FROZEN_BREAK: Final = Modifier("congelacion", "umh 11.4.13", Fraction(13, 10))
BLIND_ATTACKER: Final = Modifier("ceguera", "umh 11.5.6", Fraction(1, 2))

BURN_SHARE: Final = Fraction(1, 10)
"""umh 7.1.1.5: the burn of an igneous skill blocked internally: 10 % of the pre-block damage."""
BURN_ACTIONS: Final = 3


def immunity_cut(
    natures: Iterable[str], immunities: Iterable[str], readings: UmhReadings
) -> Fraction:
    """umh 9.5.2 - 9.5.4 / A-37: the share of damage and effects an immunity removes.

    1 nature: 100 % if immune. 2 natures: 50 % per immunity (both: 100 %). 3 natures: 25 %,
    75 %, 100 % as written. 4 or more: a moderator's ruling; until one is recorded, the
    reading ``immunity_four_plus`` ("proportional": immune / natures; "none": no cut).
    Fire immunity does not cover hellfire: natures are matched by name.
    """
    listed = list(dict.fromkeys(natures))
    immune = sum(1 for nature in listed if nature in set(immunities))
    if immune == 0:
        return Fraction(0)
    if len(listed) <= 2:
        return Fraction(immune, len(listed))
    if len(listed) == 3:
        return THREE_NATURE_CUTS[immune]
    if readings.immunity_four_plus == "none":
        return Fraction(0)
    return Fraction(immune, len(listed))


def mental_share(natures: Iterable[str]) -> Fraction:
    """umh 7.1.1 Mental, 7.1.2.1: the mental part of a skill's damage (psionic: half)."""
    found = set(natures)
    if "psionica" in found:
        return Fraction(1, 2)
    if "mental" in found:
        return Fraction(1)
    return Fraction(0)


def wet_modifier(natures: Iterable[str]) -> Modifier | None:
    """umh 11.5.12: a wet target takes electric × 1.25 and igneous × 0.75."""
    found = set(natures)
    if "electrica" in found:
        return WET_ELECTRIC
    if found & {"fuego", "fuego_infernal"}:
        return WET_IGNEOUS
    return None


def reduced_effect(
    value: int, factor: Fraction, *, round_up: bool = False, minimum: int = 1
) -> int:
    """umh 8.2.1.4 / A-87, 9.5 / A-37, 11.6.1.1, 7.1.3.1 / A-29: an effect's number scaled.

    Rounded down (or up for sonic), and never below ``minimum`` (1 for durations and crowd
    control; 0 where the rule allows it to vanish).
    """
    scaled = value * factor
    rounded = math.ceil(scaled) if round_up else math.floor(scaled)
    return max(minimum, rounded)


def hellfire_split(integral: int) -> tuple[int, int]:
    """umh 7.1.1 Fuego infernal: the integral damage is 50 % soul and 50 % fire.

    Returns ``(soul, fire)``; an odd point counts as fire (soul damage is never rounded up).
    """
    soul = integral // 2
    return soul, integral - soul


def burn_amount(pre_block: Fraction, readings: UmhReadings) -> tuple[int, int]:
    """umh 7.1.1.5 / A-28: the burn an internally blocked igneous skill leaves.

    Returns ``(amount per action, actions)``: ``floor(10 % × pre-block damage)`` for 3
    actions; the reading ``burn_total_split`` spreads that 10 % over the 3 actions instead.
    """
    total = pre_block * BURN_SHARE
    if readings.burn_total_split:
        return math.floor(total / BURN_ACTIONS), BURN_ACTIONS
    return math.floor(total), BURN_ACTIONS
