"""Where an evasion may go (umh 8.2.1.3 - 8.2.1.6), shared by the checks and resolution."""

from __future__ import annotations

from shared.errors import RuleViolation
from shared.rulesets.umh.grid import (
    Metric,
    Square,
    direction,
    distance,
    is_diagonal,
    squares_to_leave,
)


def check_move(
    here: Square,
    to: Square,
    attacker: Square,
    covered: set[Square],
    *,
    cone: bool = False,
    metric: Metric = "chebyshev",
) -> int:
    """umh 8.2.1.3, 8.2.1.5, 8.2.1.6 / A-50: refuse a bad evasion; return the squares moved.

    Order: direction first (never straight toward the attack; against a cone not
    diagonally toward its executor either), then enough squares to leave the covered
    squares (``evasion_insufficient``), then no more than needed (``evasion_overspend``).
    """
    step, toward = direction(here, to), direction(here, attacker)
    moved = distance(here, to, metric)
    if moved == 0:
        return 0
    if not is_diagonal(step) and _toward(step, toward):
        raise RuleViolation("evasion_direction", "umh 8.2.1.5", to=list(to))
    if cone and is_diagonal(step) and _closer(step, toward):
        raise RuleViolation("evasion_direction", "umh 8.2.1.6", to=list(to))
    if to in covered:
        raise RuleViolation("evasion_insufficient", "umh 8.2.1.3", to=list(to))
    needed = squares_to_leave(here, covered, metric)
    if moved > needed:
        raise RuleViolation("evasion_overspend", "umh 8.2.1.3", moved=moved, needed=needed)
    return moved


def _toward(step: Square, toward: Square) -> bool:
    """The step brings him closer to the attacker on every axis it moves along."""
    moving = [(s, t) for s, t in zip(step, toward, strict=True) if s != 0]
    return bool(moving) and all(s == t for s, t in moving)


def _closer(step: Square, toward: Square) -> bool:
    """The step has a component toward the attacker (a diagonal toward him, 8.2.1.6)."""
    return step[0] * toward[0] + step[1] * toward[1] > 0
