"""Percentage damage boosters (potenciadores, umh 7.3 and 8.1.1.2.1 / A-31, A-32).

Per nature at most two boosters add up, at most one of them from a supplementary skill (a
temporary booster effect), and a booster of 50 % or more stands alone. A skill with
several natures takes the highest booster of each of its natures and adds the picks, with
the same 50 % rule. Reading A-32: the best allowed option is applied (the setting's other
value lets the player choose, which needs a field in the declaration).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from services.resolution.domain.umh.exact import exact

STANDS_ALONE: Final = Fraction(50)
"""umh 7.3.1.1: a booster that by itself reaches 50 % cannot be combined."""


@dataclass(frozen=True)
class Booster:
    nature: str
    percent: Fraction
    supplementary: bool = False


def _best(options: Iterable[Sequence[Booster]]) -> tuple[Booster, ...]:
    best: tuple[Booster, ...] = ()
    for option in options:
        if sum((b.percent for b in option), Fraction(0)) > sum(
            (b.percent for b in best), Fraction(0)
        ):
            best = tuple(option)
    return best


def best_for_nature(boosters: Sequence[Booster]) -> tuple[Booster, ...]:
    """umh 7.3.1, 7.3.1.1, 8.1.1.2.1 / A-31, A-32: the best allowed set for one nature.

    Options: any booster ≥ 50 % alone; the two best passive ones under 50 %; the best
    passive and the best supplementary one under 50 %; any single one. The highest sum wins.
    """
    big = [[b] for b in boosters if b.percent >= STANDS_ALONE]
    small = sorted((b for b in boosters if b.percent < STANDS_ALONE), key=lambda b: -b.percent)
    passive = [b for b in small if not b.supplementary]
    supplementary = [b for b in small if b.supplementary]
    pairs = [passive[:2], passive[:1] + supplementary[:1], supplementary[:1]]
    return _best([*big, *pairs])


def pick_boosters(natures: Sequence[str], boosters: Sequence[Booster]) -> tuple[Booster, ...]:
    """umh 7.3.1 (one nature) or 7.3.2 (several): the boosters that apply to a skill."""
    matching = [b for b in boosters if b.nature in natures]
    if len(set(natures)) <= 1:
        return best_for_nature(matching)
    picks = []
    for nature in dict.fromkeys(natures):
        own = [b for b in matching if b.nature == nature]
        if own:
            picks.append(max(own, key=lambda b: b.percent))
    big = [[b] for b in picks if b.percent >= STANDS_ALONE]
    return _best([*big, [b for b in picks if b.percent < STANDS_ALONE]])


def boosters_of(
    passive: Mapping[str, Sequence[float]], temporary: Iterable[tuple[str, float]]
) -> list[Booster]:
    """The sheet's passive boosters and the temporary booster effects, as one list."""
    found = [Booster(n, exact(p)) for n, values in passive.items() for p in values]
    return found + [Booster(n, exact(p), supplementary=True) for n, p in temporary]


def boost_percent(picked: Iterable[Booster]) -> Fraction:
    return sum((b.percent for b in picked), Fraction(0))
