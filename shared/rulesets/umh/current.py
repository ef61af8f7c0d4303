"""The STATs a combat reads for a fighter now (umh 2.6, 2.8, 11.5.4 - 11.5.5, 11.5.11).

His sheet's figures, changed in this order by what he carries:
1. increases (2.8): the best tier increase (a percent) and the best numeric one of each
   STAT, then rounding (2.6.1), then what he bought in the experience shop (2.6.3, T000-28);
   a STAT no increase touches keeps the sheet's figure;
2. limbs out of use (11.5.4 - 11.5.5): FUE and VEL halved, or 0;
3. fear (11.5.11): VOL down to the start of the tier below, 1 at the lowest tier, never 0
   by fear (A-45), never raised.
REF and VEL under 1 keep their figure or become 1 (A-22, the ``stat_below_one`` reading).
Both services/turns (speed, order, the combat view) and services/resolution (REF of an
evasion, VOL against an enamouring skill) read them here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Final, Protocol

from pydantic import BaseModel, ConfigDict

from shared.rulesets.umh.attributes import (
    BelowOne,
    below_one,
    feared_will,
    limbed_stats,
    stat_value,
)
from shared.rulesets.umh.increases import BoostedStat
from shared.rulesets.umh.sheet import Stats

STATS: Final[tuple[BoostedStat, ...]] = ("vel", "ref", "vol", "fue")
INCREASE: Final = "increase"


class Held(Protocol):
    """An effect he carries, as either service keeps it (kind, type, amount, limb)."""

    @property
    def kind(self) -> str: ...

    @property
    def type(self) -> str: ...

    @property
    def amount(self) -> float | None: ...

    @property
    def limb(self) -> str | None: ...


class Figures(Protocol):
    """What the current STATs read of a sheet (a :class:`~shared.rulesets.umh.sheet.UmhSheet`,
    or the :class:`SheetFigures` of one)."""

    @property
    def stats(self) -> Stats: ...

    @property
    def traits(self) -> Sequence[str]: ...

    @property
    def xp_shop(self) -> Mapping[BoostedStat, float]: ...

    @property
    def vol_tiers(self) -> Sequence[int]: ...


class SheetFigures(BaseModel):
    """Only the fields :func:`current_stats` reads, of a sheet validated whole when the
    combat took its snapshot: read again at every commit (the combat view's ``stats``), they
    cost about a thirtieth of validating the whole sheet with its skills."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    stats: Stats
    traits: tuple[str, ...] = ()
    xp_shop: dict[BoostedStat, float] = {}
    vol_tiers: tuple[int, ...] = ()


def increase_type(stat: str, mode: str) -> str:
    """The effect type of an increase: ``vel_tier``, ``fue_numeric``... (one of each kind
    and STAT stands at a time, 2.8.1 - 2.8.3)."""
    return f"{stat}_{mode}"


def feared_vol(vol: Fraction, tiers: Sequence[int]) -> Fraction:
    """umh 11.5.11 / A-45: VOL drops to the start of the tier below his; at the lowest tier
    (or without a tier table on the sheet) it becomes 1. Fear never takes VOL to 0, nor
    raises a VOL already below 1 by other means."""
    tier = sum(1 for start in tiers if vol >= start)
    lowered, forced = feared_will(tier)
    figure = Fraction(forced) if forced is not None else Fraction(max(1, tiers[lowered - 1]))
    return min(vol, figure)


def _increased(name: BoostedStat, sheet: Figures, held: Sequence[Held]) -> Fraction:
    figure = Fraction(str(getattr(sheet.stats, name)))
    tiers = [e.amount or 0 for e in held if e.type == increase_type(name, "tier")]
    numbers = [e.amount or 0 for e in held if e.type == increase_type(name, "numeric")]
    if not tiers and not numbers:
        return figure
    bought = Fraction(str(sheet.xp_shop.get(name, 0)))
    return stat_value(
        name,
        float(figure - bought),
        percent=max(tiers, default=0),
        numeric=numbers,
        xp_shop=float(bought),
    )


def current_stats(sheet: Figures, effects: Iterable[Held], reading: BelowOne) -> dict[str, float]:
    """umh 2.6, 2.8, 11.5.4 - 11.5.5, 11.5.11: VEL, REF, VOL and FUE now (module docstring)."""
    held = list(effects)
    increases = [e for e in held if e.kind == INCREASE]
    states = [(e.type, e.limb) for e in held if e.kind == "state"]
    raised = {name: _increased(name, sheet, increases) for name in STATS}
    clamp = reading == "clamp"
    vel = Fraction(str(below_one(float(raised["vel"]), reading)))
    fue, speed = limbed_stats(
        float(raised["fue"]), float(vel), states, sheet.traits, clamp_below_one=clamp
    )
    vol = raised["vol"]
    if any(t == "miedo" for t, _ in states):
        vol = feared_vol(vol, sheet.vol_tiers)
    figures = {
        "vel": speed,
        "ref": Fraction(str(below_one(float(raised["ref"]), reading))),
        "vol": vol,
        "fue": fue,
    }
    return {name: _number(value) for name, value in figures.items()}


def _number(value: Fraction) -> float:
    """JSON-friendly: 6 for 6, 0.5 for a half."""
    return int(value) if value.denominator == 1 else float(value)
