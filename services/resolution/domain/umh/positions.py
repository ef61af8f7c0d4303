"""Falls and collisions on the grid (umh 10.2.6, 11.5.3, 11.6).

Pure functions of positions and numbers; :mod:`services.resolution.domain.umh.secondary`
applies them to the condition.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from shared.rulesets.umh.grid import Square, direction

FALL_SHARE: Final[dict[str, Fraction]] = {"voladora": Fraction(1, 10), "alzada": Fraction(1, 20)}
"""umh 11.5.3.1 - 11.5.3.2 / A-9: knocked down from voladora 10 %, from alzada 5 % of VIT."""

COLLISION_STUN: Final = 1
"""umh 11.6.2: a collision stuns for 1 action (physical origin) unless the skill says more."""


def fall_damage(height: str, vit_max: int, *, superhuman: bool) -> int:
    """umh 11.5.3.1 - 11.5.3.2 / A-9, A-41: ``floor(share × VIT max)``; none on the ground
    or with a passive defense "sobrehumana" or higher."""
    share = FALL_SHARE.get(height)
    if share is None or superhuman:
        return 0
    return math.floor(share * vit_max)


def knocked_down_by_control(height: str, *, mystic_suspension: bool) -> bool:
    """umh 10.2.6: crowd control on someone in alzada or voladora knocks him down, unless
    something else keeps him up (mystic suspension)."""
    return height in FALL_SHARE and not mystic_suspension


@dataclass(frozen=True)
class Push:
    """Where a pushed player ends and whom he ran into (umh 11.6.1)."""

    end: Square
    squares: int
    hit: str | None = None
    wall: bool = False


def push(
    start: Square,
    away_from: Square,
    squares: int,
    occupied: Mapping[Square, str],
    *,
    obstacles: frozenset[Square] = frozenset(),
    room: Square | None = None,
) -> Push:
    """umh 11.6.1: push ``squares`` straight away from ``away_from``; running into another
    player, an obstacle or the room's edge (``room``: width and height) stops him on the
    square before: a collision with that player (``hit``) or with the wall (``wall``)."""
    step = direction(away_from, start)
    if step == (0, 0):
        step = (1, 0)
    here = start
    for moved in range(squares):
        ahead = (here[0] + step[0], here[1] + step[1])
        other = occupied.get(ahead)
        if other is not None:
            return Push(here, moved, other)
        outside = room is not None and not (0 <= ahead[0] < room[0] and 0 <= ahead[1] < room[1])
        if ahead in obstacles or outside:
            return Push(here, moved, None, wall=True)
        here = ahead
    return Push(here, squares, None)


def collision_share(value: int, share: Fraction, *, control: bool) -> int:
    """umh 11.6.1.1 - 11.6.1.2 / A-77: what the player hit (50 %) or each of several on one
    square (25 %) receives: rounded down, crowd control never below 1."""
    scaled = math.floor(value * share)
    return max(1, scaled) if control else scaled


def collision_shares(companions: int) -> Fraction:
    """umh 11.6.1.1 (alone: 50 %) or 11.6.1.2 (with companions or pets: 25 % each)."""
    return Fraction(1, 4) if companions > 0 else Fraction(1, 2)
