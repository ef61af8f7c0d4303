"""The grid (umh 5 - 6, 10): distances, areas, reach against heights, temporary positions.

Reading A-61: Chebyshev distance (a diagonal step is 1 square); Manhattan is the setting's
other value. Reading A-62: until moderators supply the figures' templates, an area on the
user or on the target of size N is every square within N, a cone of size N is N rows of
width 1, 3, 5 ... in one orthogonal direction, a line of size N is N squares straight or
diagonal, and a simple area ("square") of size N is the N × N block centred on its
epicentre. Reading A-39: heights SUELO 0, ALZADA 3, VOLADORA 5.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final, Literal

Square = tuple[int, int]
Metric = Literal["chebyshev", "manhattan"]
Shape = Literal["line", "square", "on_self", "on_target", "cone", "special"]

HEIGHTS: Final[dict[str, int]] = {"suelo": 0, "alzada": 3, "voladora": 5}
"""Reading A-39: SUELO 0, ALZADA 3, VOLADORA 5; reaching a height needs that difference."""


def distance(a: Square, b: Square, metric: Metric = "chebyshev") -> int:
    """umh 5.1.1 / A-61: squares between two squares (a diagonal step is 1 square)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) if metric == "chebyshev" else dx + dy


def height_gap(attacker: str, target: str) -> int:
    """umh 10.2.1 - 10.2.2 / A-39, A-40: the reach a height difference asks for, both ways."""
    return abs(HEIGHTS[attacker] - HEIGHTS[target])


def direction(origin: Square, toward: Square) -> Square:
    """The unit step (each axis -1, 0 or 1) from ``origin`` toward ``toward``."""
    return (_sign(toward[0] - origin[0]), _sign(toward[1] - origin[1]))


def is_diagonal(step: Square) -> bool:
    """A step that moves on both axes."""
    return step[0] != 0 and step[1] != 0


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _within(centre: Square, radius: int, metric: Metric) -> set[Square]:
    x, y = centre
    return {
        (x + dx, y + dy)
        for dx in range(-radius, radius + 1)
        for dy in range(-radius, radius + 1)
        if distance(centre, (x + dx, y + dy), metric) <= radius
    }


def line_squares(origin: Square, toward: Square, size: int) -> set[Square]:
    """umh 6.1.1 Lineal: ``size`` squares straight or diagonal from the user (not his own)."""
    step = direction(origin, toward)
    return {(origin[0] + step[0] * k, origin[1] + step[1] * k) for k in range(1, size + 1)}


def cone_squares(origin: Square, toward: Square, size: int) -> set[Square]:
    """umh 6.1.1 Cónico / A-62: rows 1..size deep, row k of width 2k - 1, orthogonal only.

    Raises ``ValueError`` for a diagonal direction (umh 6.1.1: a cone cannot go diagonally;
    the checks refuse it first with ``cone_diagonal``).
    """
    step = direction(origin, toward)
    if is_diagonal(step) or step == (0, 0):
        raise ValueError("a cone needs an orthogonal direction (umh 6.1.1 Cónico)")
    side = (step[1], step[0])  # perpendicular axis
    squares: set[Square] = set()
    for k in range(1, size + 1):
        row = (origin[0] + step[0] * k, origin[1] + step[1] * k)
        for w in range(-(k - 1), k):
            squares.add((row[0] + side[0] * w, row[1] + side[1] * w))
    return squares


def area_squares(
    shape: Shape,
    size: int,
    user: Square,
    epicentre: Square,
    metric: Metric = "chebyshev",
    declared: Iterable[Square] = (),
) -> set[Square]:
    """umh 6.1.1 / A-62: the squares an area covers.

    ``epicentre`` is the target square (on_target, square), or the square that gives the
    direction (line, cone); on_self covers every square around the user but his own; a
    special area (6.1.1 Área especial, shaped by its own document) covers the ``declared``
    squares.
    """
    if shape == "special":
        return set(declared)
    if shape == "on_self":
        return _within(user, size, metric) - {user}
    if shape == "on_target":
        return _within(epicentre, size, metric)
    if shape == "square":
        return _within(epicentre, size // 2, "chebyshev")
    if shape == "line":
        return line_squares(user, epicentre, size)
    return cone_squares(user, epicentre, size)


def inside(squares: Iterable[Square], positions: Mapping[str, Square]) -> list[str]:
    """umh 6.1.1: who stands inside an area (areas hit allies too unless stated)."""
    covered = set(squares)
    return [who for who, square in positions.items() if square in covered]


def squares_to_leave(start: Square, covered: set[Square], metric: Metric = "chebyshev") -> int:
    """umh 8.2.1.3: the fewest squares from ``start`` to the nearest square not covered."""
    if start not in covered:
        return 0
    radius = 1
    while True:
        ring = {s for s in _within(start, radius, metric) if distance(start, s, metric) == radius}
        if ring - covered:
            return radius
        radius += 1


def reaches_height(attacker: str, target: str, reach: int) -> bool:
    """umh 10.2.1 - 10.2.2 / A-39, A-40: may a skill of ``reach`` hit across the heights?

    Upward the reach must cover the gap (ground -> alzada 3, ground -> voladora 5,
    alzada -> voladora 2). Downward an attacker may always close in (umh 10.2.3): he drops
    to the height the reach needs (:func:`approach_height`).
    """
    if HEIGHTS[target] <= HEIGHTS[attacker]:
        return True
    return reach >= height_gap(attacker, target)


def approach_height(attacker: str, target: str, reach: int, closes_in: bool = True) -> int:
    """umh 10.2.3 - 10.2.4 / A-39: the attacker's height until the end of his turn.

    An attacker above his target with a skill that implies closing in drops to the
    target's height + the skill's reach, never above where he was (T000-10: alzada, reach
    1 on the ground -> 1; reading A-39 takes "contact" to the target's own level, so reach 1
    gives the target's height; T000-11: voladora, reach 3 on the ground -> 3). Against a
    target at his height or above, or without closing in, he keeps his height. A later
    attack recomputes from his own position (10.2.4, T000-12), so callers pass the
    position he holds outside the override.
    """
    here, there = HEIGHTS[attacker], HEIGHTS[target]
    if not closes_in or there >= here:
        return here
    level = there if reach <= 1 else there + reach
    return min(here, level)


def height_name(level: int) -> str:
    """The named position (umh 10.1) at or below a numeric height (A-39)."""
    return max((name for name, h in HEIGHTS.items() if h <= level), key=HEIGHTS.__getitem__)


def regrab_height(current: str, dropped_to_ground: bool) -> str:
    """umh 10.2.5 / A-11: re-equipping gear that fell puts him on the ground for the turn."""
    return "suelo" if dropped_to_ground else current
