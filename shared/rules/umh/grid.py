"""The grid (umh 5 - 6, 10) with reading A-61 (Chebyshev distance, a setting: Manhattan)."""

from __future__ import annotations

from typing import Literal

Square = tuple[int, int]
Metric = Literal["chebyshev", "manhattan"]

HEIGHTS: dict[str, int] = {"suelo": 0, "alzada": 3, "voladora": 5}
"""Reading A-39: SUELO 0, ALZADA 3, VOLADORA 5; reaching a height needs that difference."""


def distance(a: Square, b: Square, metric: Metric = "chebyshev") -> int:
    """umh 5.1.1 / A-61: squares between two squares (a diagonal step is 1 square)."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) if metric == "chebyshev" else dx + dy


def height_gap(attacker: str, target: str) -> int:
    """umh 10.2.1 - 10.2.2 / A-39, A-40: the reach a height difference asks for, both ways."""
    return abs(HEIGHTS[attacker] - HEIGHTS[target])
