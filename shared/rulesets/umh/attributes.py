"""STATs: rounding, increases and the states that change them (umh 2.6 - 2.8, 11.5.4,
11.5.11).

Order of a STAT (2.6.3, the 2nd 2.6.4): base -> percentage and additive boosts -> rounding
(2.6.1) -> + STATs bought in the experience shop, always last.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from typing import Final, Literal

StatName = Literal["ref", "vel", "vol", "fue", "vit", "other"]
BelowOne = Literal["keep", "clamp"]
"""Reading A-22 (a community setting): a REF / VEL under 1 keeps its figure, or becomes 1."""

KEEPS_BELOW_ONE: Final = frozenset({"ref", "vel"})
"""umh 2.6.1.1 - 2.6.1.2 / A-22: REF and VEL keep a figure below 1 instead of rounding to 0."""


def below_one(value: float, reading: BelowOne) -> float:
    """umh 2.6.1.1 - 2.6.1.2 / A-22: the REF or VEL a combat uses for a sheet's figure.

    A figure between 0 and 1 is kept as it is (``keep``, the recommended reading: a VEL of
    0.5 pays for no square) or raised to 1 (``clamp``, the setting); 0 stays 0 (an effect
    that sets it to 0, 11.5.4.2), and any other figure is the sheet's.
    """
    if reading == "clamp" and 0 < value < 1:
        return 1.0
    return value


def round_stat(
    name: StatName, value: Fraction | float, *, clamp_below_one: bool = False
) -> Fraction:
    """umh 2.6.1, 2.6.1.1 - 2.6.1.2, 2.6.2: every STAT rounds down; REF and VEL below 1
    keep that figure (A-22; the setting ``clamp`` raises it to 1); VOL may reach 0."""
    exact = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    if name in KEEPS_BELOW_ONE and 0 < exact < 1:
        return Fraction(1) if clamp_below_one else exact
    return Fraction(math.floor(exact))


def best_increases(tiers: Iterable[int], numbers: Iterable[float]) -> tuple[int, float]:
    """umh 2.8.1 - 2.8.3: only the highest tier increase and the highest numeric increase
    apply; one of each may coexist. Returns ``(tier, number)`` (0 when none)."""
    return max(tiers, default=0), max(numbers, default=0)


def stat_value(
    name: StatName,
    base: float,
    *,
    percent: float = 0,
    numeric: Iterable[float] = (),
    xp_shop: float = 0,
) -> Fraction:
    """umh 2.6.3 (2nd 2.6.4), 2.8.2: ``round(base × (1 + percent/100) + best numeric) +
    xp_shop`` (T000-28: floor(20 × 1.25) + 4 = 29, not (20 + 4) × 1.25 = 30)."""
    _, number = best_increases((), numeric)
    boosted = Fraction(str(base)) * (1 + Fraction(str(percent)) / 100) + Fraction(str(number))
    return round_stat(name, boosted) + Fraction(str(xp_shop))


def disabled_limbs(
    value: float, limbs: int, *, name: StatName, clamp_below_one: bool = False
) -> Fraction:
    """umh 11.5.4.1 - 11.5.4.2: one arm halves FUE, one leg halves VEL; both give 0.
    Rounded as STATs round (VEL 1 -> 0.5 is kept, A-22; the setting ``clamp``: 1)."""
    if limbs >= 2:
        return Fraction(0)
    if limbs == 1:
        return round_stat(name, Fraction(str(value)) / 2, clamp_below_one=clamp_below_one)
    return Fraction(str(value))


LIMB_STATES: Final[dict[str, tuple[str, int]]] = {
    "inhabilitacion_brazo": ("brazo", 1),
    "inhabilitacion_brazos": ("brazo", 2),
    "inhabilitacion_pierna": ("pierna", 1),
    "inhabilitacion_piernas": ("pierna", 2),
    "inhabilitacion_ala": ("ala", 1),
    "inhabilitacion_alas": ("ala", 2),
}
"""umh 11.5.4.1 - 11.5.4.3: the states that take limbs out of use, and how many."""


def limbs_out(states: Iterable[tuple[str, str | None]]) -> dict[str, int]:
    """umh 11.5.4 - 11.5.5: arms, legs and wings out of use, from ``(state type, limb)``
    pairs: a disabling counts its limbs, each amputation one limb (its ``limb``); a
    creature has two of each, so the count stops at 2."""
    out = {"brazo": 0, "pierna": 0, "ala": 0}
    for type_, limb in states:
        if type_ in LIMB_STATES:
            which, count = LIMB_STATES[type_]
            out[which] += count
        elif type_ == "amputacion" and limb in out:
            out[limb] += 1
    return {which: min(2, count) for which, count in out.items()}


def moving_limb(traits: Iterable[str]) -> str:
    """umh 11.5.4.3: a character with wings moves with them (the wings, not the legs,
    reduce his VEL); everyone else with his legs."""
    return "ala" if "wings" in traits else "pierna"


def limbed_stats(
    fue: float,
    vel: float,
    states: Iterable[tuple[str, str | None]],
    traits: Iterable[str],
    *,
    clamp_below_one: bool = False,
) -> tuple[Fraction, Fraction]:
    """umh 11.5.4 - 11.5.5: FUE and VEL with the limbs out of use: one arm halves FUE,
    both give 0 (11.5.4.1, A-82); one leg (or wing, 11.5.4.3) halves VEL, both give 0
    (11.5.4.2); an amputated limb counts like a disabled one (11.5.5)."""
    out = limbs_out(states)
    strength = disabled_limbs(fue, out["brazo"], name="fue")
    speed = disabled_limbs(
        vel, out[moving_limb(traits)], name="vel", clamp_below_one=clamp_below_one
    )
    return strength, speed


def feared_will(tier: int, lowest_tier: int = 1) -> tuple[int, int | None]:
    """umh 11.5.11 / A-45: fear lowers VOL one tier; at the lowest tier VOL becomes 1, never
    0. Returns ``(tier, forced VOL or None)``."""
    if tier > lowest_tier:
        return tier - 1, None
    return tier, 1
