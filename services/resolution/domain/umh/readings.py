"""The readings of docs/rules.md section 6.1 that are a community's choice ("config").

Each combat applies its community's: :func:`from_settings` builds them from the settings
``combat.started`` carries (``CommunitySettings.umh.readings``, a snapshot taken at the
start), and the combat's condition keeps them, so a change of the settings never alters a
running combat. Two are not community settings and keep their recommended value: A-32
("player chooses" boosters, not offered) and A-37's 4+ natures (``immunity_four_plus``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from shared.rulesets.umh.attributes import BelowOne
from shared.rulesets.umh.grid import Metric
from shared.rulesets.umh.settings import UmhReadings as ReadingSettings


@dataclass(frozen=True)
class UmhReadings:
    """Recommended readings of seed 000 (docs/rules.md 6.1) where a community may choose.

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

    metric: Metric = "chebyshev"
    indirect_per_turn: bool = False
    burn_total_split: bool = False
    sonic_literal: bool = False
    intrusion_literal: bool = False
    stat_below_one: BelowOne = "keep"
    ambidextrous_four_plus: tuple[float, float] | None = None
    unique_weapon_alone: bool = False
    immunity_four_plus: Literal["proportional", "none"] = "proportional"
    wet_actions: int = 3

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        pair = self.ambidextrous_four_plus
        data["ambidextrous_four_plus"] = list(pair) if pair is not None else None
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> UmhReadings:
        """The readings a state kept; a state written before they were kept: RECOMMENDED."""
        if not data:
            return RECOMMENDED
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        pair = known.get("ambidextrous_four_plus")
        if pair is not None:
            known["ambidextrous_four_plus"] = (float(pair[0]), float(pair[1]))
        return cls(**known)


RECOMMENDED = UmhReadings()


def from_settings(settings: ReadingSettings) -> UmhReadings:
    """The combat's readings from its community's settings (the snapshot of its start)."""
    return UmhReadings(
        metric=settings.grid_metric,
        indirect_per_turn=settings.indirect_per_turn,
        burn_total_split=settings.burn_total_split,
        sonic_literal=settings.sonic_literal,
        intrusion_literal=settings.intrusion_literal,
        stat_below_one=settings.stat_below_one,
        ambidextrous_four_plus=settings.ambidextrous_four_plus,
        unique_weapon_alone=settings.unique_weapon_alone,
    )
