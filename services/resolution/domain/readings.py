"""The readings of RULES.md section 6.1 that are a community's choice ("config").

shared/settings.py has no field for them yet, so each lives here with its recommended
default; a community setting can later build a :class:`UmhReadings` per combat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class UmhReadings:
    """Recommended readings of seed 000 (RULES.md 6.1) where a community may choose.

    - ``metric`` (A-61): grid distance, "chebyshev" or "manhattan".
    - ``indirect_per_turn`` (A-25): False ticks indirect damage per general action from the
      general turn after it was inflicted; True ticks once at the start of each general turn.
    - ``burn_total_split`` (A-28): False burns 10 % per action for 3 actions; True spreads
      the 10 % over the 3 actions.
    - ``sonic_literal`` (A-29): False lets the rounded-up half of a sonic hit past a defense
      without "all angles" and defends the rest; True lands that half and nothing else.
    - ``intrusion_literal`` (A-96): False makes only mental, psionic, intangible mystic and
      mind-affecting skills intrusions for a mental shield; True every skill with effects.
    - ``stat_below_one`` (A-22): "keep" keeps a REF / VEL under 1; "clamp" raises it to 1.
    - ``ambidextrous_four_plus`` (A-78): None leaves 4+ tiers apart to a moderator (no
      combination); a pair of multipliers reuses it (the setting's value: 0.90 / 0.30).
    - ``unique_weapon_alone`` (A-80): False is reading A (the unique weapon gets the higher
      multiplier, the other the lower); True is reading B (only the unique weapon counts).
    - ``immunity_four_plus`` (A-37): 4+ natures are a moderator's ruling; "proportional"
      (immune natures / natures) until one is recorded, or "none".
    - ``wet_actions``: how long the "mojado" of an internally defended water skill lasts
      (umh 7.1.1.4 gives no duration; 3 actions like the other nature side effects).
    """

    metric: Literal["chebyshev", "manhattan"] = "chebyshev"
    indirect_per_turn: bool = False
    burn_total_split: bool = False
    sonic_literal: bool = False
    intrusion_literal: bool = False
    stat_below_one: Literal["keep", "clamp"] = "keep"
    ambidextrous_four_plus: tuple[float, float] | None = None
    unique_weapon_alone: bool = False
    immunity_four_plus: Literal["proportional", "none"] = "proportional"
    wet_actions: int = 3


RECOMMENDED = UmhReadings()
