"""The umh character sheet (docs/api.md "Endpoints"), validated in full.

Nature names, effect names and hardness grades stay in Spanish, as the communities write
them (docs/rules.md section 10). Every limit cites the rule it comes from.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StrictBool, StringConstraints, model_validator

from shared.api_types import ApiModel, Float, Int
from shared.rulesets.umh.increases import BoostedStat, IncreaseEffect
from shared.rulesets.umh.sheet_terms import (
    AreaShape,
    ControlType,
    DefenseKind,
    Hardness,
    Height,
    IndirectType,
    Nature,
    SkillType,
    StateType,
    WeaponClass,
)
from shared.rulesets.umh.terrain_skill import TerrainSkill

# The vocabularies live in sheet_terms; importers of the sheet keep finding them here.
__all__ = [
    "AreaShape",
    "ControlType",
    "DefenseKind",
    "Hardness",
    "Height",
    "IndirectType",
    "Nature",
    "SkillType",
    "StateType",
    "WeaponClass",
]

Name = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]


class _Strict(ApiModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Stats(_Strict):
    vit: Int = Field(ge=1, le=10_000_000, description="VIT, hit points inside a combat")
    vel: Float = Field(ge=0, le=1000, description="VEL, total speed (umh 2.2, 2.3.2)")
    ref: Float = Field(ge=0, le=1000, description="REF, reflexes (umh 7.1.1.2)")
    vol: Int = Field(ge=0, le=1000, description="VOL, will (umh 2.6.2)")
    fue: Int = Field(ge=0, le=10_000_000, description="FUE, strength")
    rank: Int = Field(ge=0, le=100, description="rank of the character (umh 4.4.4)")
    vigor: Int = Field(ge=0, le=1000, description="vigor points (umh 4.1.4)")


class Resistance(_Strict):
    """Passive resistance with its hardness (umh 9.3, 9.6)."""

    value: Int = Field(0, ge=0, le=10_000_000)
    hardness: Hardness | None = None


class Area(_Strict):
    shape: AreaShape
    size: Int = Field(ge=1, le=100)


class IndirectEffect(_Strict):
    kind: Literal["indirect"]
    type: IndirectType
    amount: Int | None = Field(None, ge=0, le=10_000_000, description="fixed amount per action")
    percent: Float | None = Field(
        None, gt=0, le=100, description="percent of the direct damage received (umh 11.2.2)"
    )
    actions: Int = Field(ge=1, le=1000)

    @model_validator(mode="after")
    def _amount_or_percent(self) -> IndirectEffect:
        if (self.amount is None) == (self.percent is None):
            raise ValueError("an indirect effect has exactly one of amount or percent")
        return self


class ControlEffect(_Strict):
    kind: Literal["control"]
    type: ControlType
    actions: Int = Field(ge=1, le=1000)


Limb = Literal["brazo", "pierna", "ala"]
"""umh 11.5.4 - 11.5.5: the limbs a state can take (wings and other limbs to move, 11.5.4.3)."""


class StateEffect(_Strict):
    kind: Literal["state"]
    type: StateType
    actions: Int | None = Field(None, ge=1, le=1000, description="None: until removed")
    limb: Limb | None = Field(
        None, description="umh 11.5.5: the limb an amputation takes (amputacion only)"
    )

    @model_validator(mode="after")
    def _limb_for_amputation(self) -> StateEffect:
        if self.type is StateType.AMPUTACION and self.limb is None:
            raise ValueError("an amputation names its limb: brazo, pierna or ala (umh 11.5.5)")
        if self.type is not StateType.AMPUTACION and self.limb is not None:
            raise ValueError("only an amputation names a limb (umh 11.5.5)")
        return self


class BoosterEffect(_Strict):
    """A temporary percentage damage booster of one nature (umh 7.3, 8.1.1.2.1)."""

    kind: Literal["booster"]
    nature: Nature
    percent: Float = Field(gt=0, le=1000)
    actions: Int = Field(ge=1, le=1000)


class ReductionEffect(_Strict):
    """A temporary percentage reduction from a skill (umh 9.4; not under the 25 % passive cap)."""

    kind: Literal["reduction"]
    nature: Nature | Literal["general"] = "general"
    percent: Float = Field(gt=0, le=100)
    actions: Int = Field(ge=1, le=1000)


class RegenerationEffect(_Strict):
    """VIT regained at the end of each of the target's own turns (umh 2.3.6)."""

    kind: Literal["regeneration"]
    amount: Int = Field(ge=1, le=10_000_000)
    actions: Int = Field(ge=1, le=1000)


Effect = Annotated[
    IndirectEffect
    | ControlEffect
    | StateEffect
    | BoosterEffect
    | ReductionEffect
    | RegenerationEffect
    | IncreaseEffect,
    Field(discriminator="kind"),
]


class PostCombat(_Strict):
    """What a post-combat skill does to a defeated rival (umh 4.1.2, 4.1.3, 4.5.1)."""

    kind: Literal["vigor", "state", "imprison"]
    vigor: Int = Field(0, ge=0, le=100, description="vigor points removed (kind vigor)")
    state: str | None = Field(None, max_length=80, description="the post-combat state (kind state)")
    seconds: Int | None = Field(None, ge=1, le=30 * 86400, description="how long it lasts")
    stacks: StrictBool = Field(
        False, description="umh 4.1.2: may be applied with another such effect"
    )


class Weapon(_Strict):
    """A weapon and its ARMA stat (umh 12)."""

    name: Name
    tier: Int = Field(ge=0, le=20)
    arma: Int = Field(ge=0, le=10_000_000, description="the ARMA stat")
    weapon_class: WeaponClass = Field(alias="class")
    unique: StrictBool = Field(
        False, description="umh 12.4: has unique skills or effects of its own"
    )
    effects: list[Effect] = Field(default_factory=list, max_length=10)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Skill(_Strict):
    name: Name
    tier: Int = Field(ge=0, le=20)
    pa: Int = Field(ge=0, le=1000, description="PA cost (umh 3.1.2)")
    type: SkillType
    defense_kind: DefenseKind | None = None
    natures: list[Nature] = Field(min_length=1, max_length=8)
    damage: Int = Field(0, ge=0, le=10_000_000)
    hits: Int = Field(1, ge=1, le=50, description="impacts of a combo (umh 8.1.1.1.1)")
    reach: Int = Field(1, ge=0, le=1000, description="squares; 0 = own (umh 5.1.1)")
    area: Area | None = None
    cooldown_rounds: Int = Field(0, ge=0, le=1000, description="TR (umh 2.3.4)")
    uses_per_combat: Int | None = Field(None, ge=0, le=1000)
    uses_per_week: Int | None = Field(None, ge=0, le=1000, description="umh 2.3.4.2")
    ignore_defense_pct: Float = Field(0, ge=0, le=100, description="umh 9.2.3")
    pierces_defense: StrictBool = Field(False, description="umh 9.2.2")
    ignores_hardness: Hardness | None = Field(None, description="umh 9.3.5")
    defense: Int = Field(0, ge=0, le=10_000_000, description="a defensive skill's defense")
    all_angles: StrictBool = Field(False, description="umh 7.1.3.1")
    ref_required: Float = Field(0, ge=0, le=1000)
    effects: list[Effect] = Field(default_factory=list, max_length=20)
    preparation: StrictBool = Field(
        False, description="usable in the preparation round (umh 1.3.3)"
    )
    # --- who may act, when and at what cost (services/turns) ---
    uses_per_round: Int = Field(1, ge=1, le=100, description="umh 2.3.1.3: uses in one round")
    raises_slots: Int = Field(
        0, ge=0, le=10, description="umh 1.2.3: extra slots for the user's side (one per side)"
    )
    flight: StrictBool = Field(False, description="umh 4.1.1.1: a flight skill like HUIR")
    flight_cooldown_hours: Float | None = Field(
        None, gt=0, le=10_000, description="umh 4.1.1.1.1: its own cooldown (none: 72 h, shared)"
    )
    joins_combat: StrictBool = Field(
        False, description="umh 1.2.4.1: an entry skill other than IRRUMPIR (cannot be vetoed)"
    )
    grants_interference: Literal["free", "predetermined"] | None = Field(
        None, description="umh 2.5.3: gives its target an interference turn of this kind"
    )
    interference_skill: str | None = Field(
        None, max_length=80, description="umh 2.5.3.2: the only skill that turn allows"
    )
    out_of_turn: StrictBool = Field(False, description="umh 2.4.1: usable outside the own turn")
    requires_preparation: str | None = Field(
        None, max_length=80, description="umh 1.3.6: the preparation skill it needs first"
    )
    disputed: StrictBool = Field(
        False, description="umh 1.1.5: in doubt, refused until a moderator rules on it"
    )
    physical_preparation: StrictBool = Field(
        False,
        description="umh 8.2.2.2.1: a supplementary skill with a visible physical preparation "
        "(any anticipation may anticipate it)",
    )
    precognition: StrictBool = Field(
        False,
        description="umh 8.2.2.2.1: an anticipation that reads the user's mind or foresees what "
        "he will do (it anticipates supplementary skills without a physical preparation)",
    )
    telepathic: StrictBool = Field(False, description="umh 11.4.2: usable while paralysed")
    speech: StrictBool = Field(False, description="umh 11.5.8: needs the voice (orders, spells)")
    needs_legs: StrictBool = Field(False, description="umh 11.5.1: an evasion that needs the legs")
    sets_position: Height | None = Field(None, description="umh 10.1: levitate / fly skills")
    persists_when_fallen: StrictBool = Field(False, description="umh 4.1.5.2")
    steals_items: StrictBool = Field(
        False, description="umh 4.2.5: it can steal an item in combat (the steal action)"
    )
    passive: StrictBool = Field(False, description="umh 11.4.1: a knockout does not end it")
    terrain: TerrainSkill | None = Field(
        None, description="umh 4.1.5.1: kept on the squares its action names"
    )
    # --- how it hits and defends (services/resolution) ---
    tangible: StrictBool = Field(True, description="umh 7.1.1 Mística: tangible or intangible")
    melee: StrictBool = Field(False, description="umh 8.2.4.4: a melee (contact) skill")
    firearm: StrictBool = Field(False, description="umh 9.2.5.1")
    covers_allies: StrictBool = Field(False, description="umh 8.1.1.3.1: defends allies in reach")
    reactable_times: Int = Field(1, ge=1, le=50, description="umh 8.1.1.3")
    affects_mind: StrictBool = Field(False, description="umh 9.7.2.2 / A-96: a mental intrusion")
    against_hellfire: StrictBool = Field(False, description="umh 7.1.1 Fuego infernal")
    against_soul: StrictBool = Field(False, description="umh 7.1.1 Daño al alma")
    hits_allies: StrictBool = Field(True, description="umh 6.1.1: areas hit allies unless stated")
    mental_shield: Int = Field(0, ge=0, le=10_000_000, description="umh 9.7.1: shield granted")
    coating: Int = Field(0, ge=0, le=10_000_000, description="umh 9.2.6: degradable defense")
    push: Int = Field(0, ge=0, le=100, description="umh 11.6: squares the target is pushed")
    collision_damage: Int = Field(0, ge=0, le=10_000_000, description="umh 11.6.1")
    grows: Int = Field(
        0, ge=0, le=10, description="umh 8.3.1: squares around him the user comes to occupy"
    )
    weapon: str | None = Field(None, max_length=80, description="umh 12: the weapon it uses")
    # --- after the combat (services/states) ---
    post_combat: PostCombat | None = Field(None, description="umh 4.1.2 - 4.1.3, 4.5.1")
    requirement: StrictBool = Field(False, description="umh 4.4.3: using it earns a requirement")

    @model_validator(mode="after")
    def _defense_kind_matches_type(self) -> Skill:
        if self.type is SkillType.DEFENSIVE and self.defense_kind is None:
            raise ValueError("a defensive skill needs defense_kind (umh 8.2, 9.2.4-9.2.5)")
        if self.type is not SkillType.DEFENSIVE and self.defense_kind is not None:
            raise ValueError("only defensive skills have a defense_kind (umh 8.1)")
        if len(set(self.natures)) != len(self.natures):
            raise ValueError("a nature is listed twice (umh 7.1.1)")
        if self.physical_preparation and self.type is not SkillType.SUPPLEMENTARY:
            raise ValueError("only a supplementary skill has physical_preparation (umh 8.2.2.2.1)")
        if self.precognition and self.defense_kind is not DefenseKind.ANTICIPATION:
            raise ValueError("only an anticipation has precognition (umh 8.2.2.2.1)")
        if self.terrain is not None and self.type is SkillType.DEFENSIVE:
            raise ValueError(
                "a skill kept on the terrain is offensive or supplementary (umh 4.1.5.1)"
            )
        return self


class UmhSheet(_Strict):
    """A umh character sheet."""

    name: Name
    ruleset: Literal["umh"]
    stats: Stats
    resistance: Resistance = Field(default_factory=Resistance)
    reductions: dict[Nature | Literal["general"], Float] = Field(
        default_factory=dict, description="percent reductions (umh 9.4)"
    )
    boosters: dict[Nature, list[Float]] = Field(
        default_factory=dict, description="percent damage boosters per nature (umh 7.3)"
    )
    immunities: list[Nature] = Field(default_factory=list, max_length=16)
    traits: list[
        Literal[
            "ambidextrous",
            "fireproof",
            "insulated",
            "superhuman_resistance",
            "mystic_suspension",
            "detection",
            "wings",
        ]
    ] = Field(default_factory=list, max_length=16)
    alliance: str | None = Field(None, max_length=64)
    skills: list[Skill] = Field(default_factory=list, max_length=200)
    regeneration: Int = Field(
        0, ge=0, le=10_000_000, description="umh 2.3.6: VIT at the end of each own turn (passive)"
    )
    position: Height = Field(Height.SUELO, description="umh 10.1: where he starts a combat")
    weapons: list[Weapon] = Field(default_factory=list, max_length=10)
    profile: Literal["basic", "special"] = Field(
        "basic", description="umh 4.1.1.1.2: flights of basic profiles share one cooldown"
    )
    cell: StrictBool = Field(False, description="umh 4.5.1: owns a cell that allows imprisonment")
    companions: Int = Field(
        0, ge=0, le=20, description="umh 11.6.1.2: companions or pets on his square"
    )
    xp_shop: dict[BoostedStat, Float] = Field(
        default_factory=dict,
        description="umh 2.6.3 (2nd 2.6.4): of each STAT, what was bought in the experience "
        "shop (added after increases and rounding)",
    )
    vol_tiers: list[Int] = Field(
        default_factory=list,
        max_length=20,
        description="umh 11.5.11: the VOL each tier starts at, lowest tier first (fear "
        "lowers VOL to the start of the tier below; at the lowest tier, to 1)",
    )

    @model_validator(mode="after")
    def _consistent(self) -> UmhSheet:
        names = [s.name.casefold() for s in self.skills]
        if len(set(names)) != len(names):
            raise ValueError("two skills share a name")
        for nature, values in self.boosters.items():
            if any(v <= 0 or v > 1000 for v in values):
                raise ValueError(f"booster of {nature} out of range (0, 1000]")
        for key, value in self.reductions.items():
            if value < 0 or value > 100:
                raise ValueError(f"reduction {key} out of range [0, 100]")
        for stat, bought in self.xp_shop.items():
            if bought < 0 or bought > getattr(self.stats, stat):
                raise ValueError(f"xp_shop {stat} must be between 0 and the STAT (umh 2.6.3)")
        tiers = self.vol_tiers
        if any(t < 1 for t in tiers) or any(a >= b for a, b in pairwise(tiers)):
            raise ValueError("vol_tiers rise strictly from 1 or more (umh 11.5.11)")
        return self

    def skill(self, name: str) -> Skill | None:
        folded = name.casefold()
        return next((s for s in self.skills if s.name.casefold() == folded), None)
