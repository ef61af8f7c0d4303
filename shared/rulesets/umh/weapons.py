"""Two weapons at once (umh 12, readings A-78 - A-81)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from shared.errors import RuleViolation
from shared.rulesets.umh.sheet import Skill, UmhSheet, Weapon

MULTIPLIERS: Final[dict[int, tuple[Fraction, Fraction]]] = {
    0: (Fraction(6, 10), Fraction(6, 10)),
    1: (Fraction(7, 10), Fraction(5, 10)),
    2: (Fraction(8, 10), Fraction(4, 10)),
    3: (Fraction(9, 10), Fraction(3, 10)),
}
"""umh 12.2.1 - 12.2.4: (higher tier, lower tier) multipliers by tiers apart."""


@dataclass(frozen=True)
class Wielded:
    tier: int
    arma: int
    weapon_class: str
    unique: bool = False


def combined_arma(
    first: Wielded,
    second: Wielded,
    *,
    unique_used: bool = False,
    four_plus: tuple[float, float] | None = None,
    unique_alone: bool = False,
) -> int | None:
    """umh 12.1.1, 12.2, 12.4 / A-78 - A-80: the ARMA stat of two weapons together.

    Different classes: no combination, each keeps its own ARMA (None). 4+ tiers apart: a
    moderator's ruling (None) unless the setting gives multipliers. Using a unique weapon's
    own skill (12.4): reading A gives it the higher multiplier and the other the lower;
    reading B (``unique_alone``) counts only the unique weapon. The final sum is floored
    (A-79: 33 and 33 -> 39.6 -> 39).
    """
    if first.weapon_class != second.weapon_class:
        return None
    gap = abs(first.tier - second.tier)
    pair = MULTIPLIERS.get(gap)
    if pair is None:
        if four_plus is None:
            return None
        pair = (Fraction(str(four_plus[0])), Fraction(str(four_plus[1])))
    high, low = pair
    if unique_used and (first.unique or second.unique):
        special, other = (first, second) if first.unique else (second, first)
        if unique_alone:
            return math.floor(special.arma * high)
        return math.floor(special.arma * high + other.arma * low)
    upper, lower = (first, second) if first.tier >= second.tier else (second, first)
    return math.floor(upper.arma * high + lower.arma * low)


def check_wielded(sheet: UmhSheet, weapons: Sequence[str], effects_of: str | None) -> None:
    """umh 12.1 / 12.3: the weapons a skill is declared with are the user's own, each once;
    the weapon whose additional effects apply is one of them. (Two weapons without the
    ambidextrous trait: ``check_declaration``, umh 12.1.)"""
    owned = {weapon.name for weapon in sheet.weapons}
    for name in weapons:
        if name not in owned:
            raise RuleViolation("unknown_weapon", "umh 12.1", weapon=name, owned=sorted(owned))
    if len(set(weapons)) != len(weapons):
        raise RuleViolation("unknown_weapon", "umh 12.1", weapons=list(weapons))
    if effects_of is not None and effects_of not in weapons:
        raise RuleViolation("unknown_weapon", "umh 12.3", weapon=effects_of, used=list(weapons))


def wielded_of(weapon: Weapon) -> Wielded:
    return Wielded(weapon.tier, weapon.arma, weapon.weapon_class.value, weapon.unique)


def armed(
    sheet: UmhSheet,
    skill: Skill,
    weapons: Sequence[str],
    effects_of: str | None,
    *,
    four_plus: tuple[float, float] | None = None,
    unique_alone: bool = False,
) -> tuple[Skill, dict[str, Any] | None]:
    """umh 12.2 - 12.4: a skill used with weapons, as the hit resolves it, and what the
    breakdown shows.

    - One weapon: its ARMA; its additional effects join the skill's.
    - Two weapons (12.2): their ARMA together (:func:`combined_arma`; None across classes,
      12.1.1, or 4+ tiers apart without the A-78 setting); the additional effects of only
      one of them (12.3): ``effects_of``, else the first named.
    - 12.4 / A-80: naming a unique weapon in ``effects_of`` means its own abilities are being
      used: the higher multiplier goes to it and only its effects apply.

    The skill's damage is the sheet's number: the seed does not say how ARMA enters it, so
    the combined ARMA is reported (``arma``) and not applied to the damage.
    """
    by_name = {weapon.name: weapon for weapon in sheet.weapons}
    used = [by_name[name] for name in weapons if name in by_name]
    if not used:
        return skill, None
    chosen = by_name.get(effects_of or "", used[0])
    summary: dict[str, Any] = {
        "used": [weapon.name for weapon in used],
        "effects_of": chosen.name,
        "rule": "umh 12.3" if len(used) == 2 else "umh 12",
        "arma": used[0].arma,
    }
    if len(used) == 2:
        first, second = (wielded_of(w) for w in used)
        unique_used = chosen.unique
        summary["arma"] = combined_arma(
            first,
            second,
            unique_used=unique_used,
            four_plus=four_plus,
            unique_alone=unique_alone,
        )
        summary["arma_rule"] = arma_rule(first, second, unique_used=unique_used)
    extra = list(chosen.effects)
    if not extra:
        return skill, summary
    return skill.model_copy(update={"effects": [*skill.effects, *extra]}), summary


def arma_rule(first: Wielded, second: Wielded, *, unique_used: bool) -> str:
    """Which rule of umh 12 set the ARMA of two weapons."""
    if first.weapon_class != second.weapon_class:
        return "umh 12.1.1"
    if unique_used and (first.unique or second.unique):
        return "umh 12.4"
    gap = abs(first.tier - second.tier)
    return f"umh 12.2.{gap + 1}" if gap in MULTIPLIERS else "umh 12.2 (A-78)"
