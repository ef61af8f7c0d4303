"""Damage, Armor, the cascade between pools and the damage track (seed 001 DAÑO, ARMADURA,
INDICADOR), and Effort's cost (B-7). Pure functions on :class:`Pools` (frozen)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from shared.rulesets.cypher.sheet import Pools, Stat

STATS: Final[tuple[Stat, Stat, Stat]] = ("might", "speed", "intellect")
DEAD_STEP: Final = 3

ARMOR_CATEGORIES: Final = {"light": 1, "medium": 2, "heavy": 3}


class Track(StrEnum):
    """001 INDICADOR: the damage track's steps, unhurt (ileso), impaired (lesionado),
    debilitated (incapacitado), dead (muerto)."""

    UNHURT = "unhurt"
    IMPAIRED = "impaired"
    DEBILITATED = "debilitated"
    DEAD = "dead"


TRACK: Final = tuple(Track)


@dataclass(frozen=True)
class PoolMove:
    """One pool a blow touched in the cascade (B-4): its points before and after."""

    pool: Stat
    before: int
    after: int

    def as_dict(self) -> dict[str, Any]:
        return {"pool": self.pool, "before": self.before, "after": self.after}


def total_armor(*sources: int) -> int:
    """001 ARMADURA (stacking), B-17: every source adds up, no cap (light 1, medium 2,
    heavy 3: :data:`ARMOR_CATEGORIES`)."""
    return sum(max(0, s) for s in sources)


def armor_applied(damage: int, armor: int, damage_type: str, *, ignores_armor: bool) -> int:
    """001 ARMADURA: damage minus Armor, never below 0 (B-17); Speed and Intellect damage
    and environmental damage ignore Armor."""
    if ignores_armor or damage_type in ("speed", "intellect"):
        return max(0, damage)
    return max(0, damage - armor)


def cascade_order(damage_type: str) -> list[Stat]:
    """B-4: the damaged pool first, then Might -> Speed -> Intellect, each once."""
    return [*[s for s in STATS if s == damage_type], *[s for s in STATS if s != damage_type]]


def apply_damage(pools: Pools, amount: int, damage_type: str) -> tuple[Pools, list[PoolMove]]:
    """001 DAÑO (cascade), B-4: the damage goes to its pool; what a pool at 0 cannot take
    goes on to the next pool in :func:`cascade_order` that is above 0; what is left when
    every pool is 0 is lost. Returns the new pools and one entry per pool touched."""
    after = pools.model_dump()
    left = amount
    moves: list[PoolMove] = []
    for stat in cascade_order(damage_type):
        if left <= 0:
            break
        taken = min(after[stat], left)
        if taken > 0:
            moves.append(PoolMove(stat, after[stat], after[stat] - taken))
            after[stat] -= taken
            left -= taken
    return Pools(**after), moves


def track_step(pools: Pools, special_steps: int) -> int:
    """B-5, B-6: the step = pools at 0 + special-damage steps, capped at 3 (dead)."""
    return min(DEAD_STEP, sum(1 for s in STATS if pools.of(s) <= 0) + special_steps)


def track_name(step: int) -> Track:
    """001 INDICADOR: unhurt (ileso), impaired (lesionado), debilitated (incapacitado),
    dead (muerto)."""
    return TRACK[min(DEAD_STEP, max(0, step))]


def effort_cost(levels: int, edge: int, *, impaired: bool) -> int:
    """B-7 (external Cypher rules): the first level costs 3 points, each further level 2,
    minus the stat's Edge once (not below 0); impaired: +1 point per level declared
    (001 INDICADOR lesionado)."""
    if levels <= 0:
        return 0
    base = max(0, 3 + 2 * (levels - 1) - edge)
    return base + (levels if impaired else 0)


@dataclass(frozen=True)
class Recovery:
    """What a recovery roll gives and where the points went."""

    points: int
    applied: dict[str, int]
    pools_after: Pools
    wasted: int


def recover(pools: Pools, maxima: Pools, points: int, order: list[Stat]) -> Recovery:
    """001 RECUPERAR: the points spread as the player likes (here: ``order``, each pool
    filled up to its maximum before the next); a pool never goes above its maximum."""
    after = pools.model_dump()
    applied: dict[str, int] = {}
    left = points
    for stat in [*order, *[s for s in STATS if s not in order]]:
        room = max(0, maxima.of(stat) - after[stat])
        given = min(room, left)
        if given:
            applied[stat] = applied.get(stat, 0) + given
            after[stat] += given
            left -= given
    return Recovery(points, applied, Pools(**after), left)


def effect_of(natural: int, *, impaired: bool) -> str | None:
    """B-7: a natural 19 is a minor effect, a 20 a major effect (external Cypher rules);
    impaired characters ignore them (001 INDICADOR lesionado)."""
    if impaired:
        return None
    return {19: "minor", 20: "major"}.get(natural)
