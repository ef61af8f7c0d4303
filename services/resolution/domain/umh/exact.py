"""Exact arithmetic for damage: fractions inside, JSON numbers outside.

Damage goes through subtractions and percentages before it is floored (umh 2.7.1). Binary
floats would turn ``200 × 0.80`` into ``159.999...`` on some inputs and floor it one point
too low, so every step computes with :class:`fractions.Fraction`; a float read from a sheet
is taken by its shortest decimal spelling (``12.5`` is ``25/2``, not the nearest binary).
"""

from __future__ import annotations

from fractions import Fraction


def exact(value: int | float | Fraction) -> Fraction:
    """The exact value of a number read from a sheet or a payload."""
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def json_number(value: Fraction) -> int | float:
    """An integer when the value is whole, else the nearest float (for breakdowns)."""
    if value.denominator == 1:
        return int(value)
    return float(value)
