"""Dice expressions: ``XdY``, ``XdY+Z``, ``XdYkhN`` (keep highest), ``XdY!`` (exploding) and
roll-and-keep ``XkY`` (ten-sided dice, tens explode; ``XkY~`` does not explode, for unskilled
rolls, l5r "Aumentos (unskilled)")."""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_DICE = 100
MAX_SIDES = 1000
MAX_EXPLOSIONS = 50  # a die stops exploding after 50 more rolls (odds: 10^-50)

_DY = re.compile(
    r"^(?P<n>\d{1,3})d(?P<sides>\d{1,4})(?:kh(?P<keep>\d{1,3}))?(?P<boom>!)?(?P<mod>[+-]\d{1,6})?$"
)
_KY = re.compile(r"^(?P<n>\d{1,3})k(?P<keep>\d{1,3})(?P<calm>~)?(?P<mod>[+-]\d{1,6})?$")


class NotationError(ValueError):
    """An expression this notation does not describe."""


@dataclass(frozen=True)
class DiceSpec:
    """What to roll: ``count`` dice of ``sides``, keep the ``keep`` highest, add ``bonus``."""

    count: int
    sides: int
    keep: int
    bonus: int = 0
    explode: bool = False
    roll_and_keep: bool = False

    def __str__(self) -> str:
        if self.roll_and_keep:
            text = f"{self.count}k{self.keep}{'' if self.explode else '~'}"
        else:
            keep = f"kh{self.keep}" if self.keep != self.count else ""
            text = f"{self.count}d{self.sides}{keep}{'!' if self.explode else ''}"
        return text + (f"{self.bonus:+d}" if self.bonus else "")


def parse(expression: str) -> DiceSpec:
    """Parse a dice expression; roll-and-keep specs get the ten-dice rule applied."""
    text = expression.replace(" ", "").lower()
    if m := _DY.match(text):
        count, sides = int(m["n"]), int(m["sides"])
        keep = int(m["keep"]) if m["keep"] else count
        bonus = int(m["mod"] or 0)
        if not 1 <= count <= MAX_DICE or not 2 <= sides <= MAX_SIDES or not 1 <= keep <= count:
            raise NotationError(f"{expression!r}: 1-{MAX_DICE} dice of 2-{MAX_SIDES} sides")
        return DiceSpec(count, sides, keep, bonus, explode=bool(m["boom"]))
    if m := _KY.match(text):
        count, keep = int(m["n"]), int(m["keep"])
        if not 1 <= count <= MAX_DICE or not 1 <= keep <= MAX_DICE:
            raise NotationError(f"{expression!r}: XkY with X and Y in 1-{MAX_DICE}")
        return roll_and_keep(count, keep, int(m["mod"] or 0), explode=not m["calm"])
    raise NotationError(f"{expression!r} is not XdY[khN][!][+Z] nor XkY[~][+Z]")


def roll_and_keep(rolled: int, kept: int, bonus: int = 0, *, explode: bool = True) -> DiceSpec:
    """``XkY`` with the ten-dice rule (L5R): no roll uses more than 10 dice.

    Rolled dice past 10 become kept dice, one per two (an odd one left is +2); once kept dice
    are 10, every further rolled or kept die is +2 instead: 12k4 = 10k5, 13k9 = 10k10+2,
    10k12 = 10k10+4, 14k12 = 10k10+12. Kept dice are never more than rolled ones (2k5 keeps 2).
    """
    extra_rolled = max(0, rolled - 10)
    rolled = min(rolled, 10)
    if kept >= 10:
        bonus += 2 * extra_rolled
    else:
        converted = min(extra_rolled // 2, 10 - kept)
        kept += converted
        bonus += 2 * (extra_rolled - 2 * converted)
    if kept > 10:
        bonus += 2 * (kept - 10)
        kept = 10
    return DiceSpec(rolled, 10, min(kept, rolled), bonus, explode=explode, roll_and_keep=True)
