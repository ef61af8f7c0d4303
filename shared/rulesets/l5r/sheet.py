"""The l5r character sheet (seed 004, docs/rules.md section 4), validated in full.

What the seed rolls and limits: the five rings (Void ring = the Void pool's size, "Vacío
(pool)"), the eight traits (Reflexes for initiative and the TN to be hit, Agility for melee
and Full Defense, Strength for disarm), the Insight Rank ("Rango de reconocimiento", Paso 1,
Defensa Total, Derribar), skill ranks (raises max, "Aumentos"; Defense, Horsemanship), the
armour's TN bonus (C-27), the weapon (its damage as XkY, C-1) and the wound ranks with their
penalties (C-7: the seed has none; the L5R table is the default, Earth x5 then Earth x2 each).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Final, Literal

from pydantic import (
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from shared.api_types import ApiModel, Bool, Float, Int

Name = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]
Rating = Annotated[Int, Field(ge=1, le=10)]
XKY: Final = re.compile(r"^(\d{1,2})k(\d{1,2})$")

WOUND_RANK_NAMES: Final = (
    "healthy",
    "nicked",
    "grazed",
    "hurt",
    "injured",
    "crippled",
    "down",
    "out",
)
DEFAULT_PENALTIES: Final = (0, 3, 5, 10, 15, 20, 40, 40)
"""C-7: L5R's penalties of Healthy, Nicked, Grazed, Hurt, Injured, Crippled, Down (+40);
Out cannot act at all."""


class WoundRank(StrEnum):
    """C-7: the wound ranks in order, and dead past the last (Out)."""

    HEALTHY = "healthy"
    NICKED = "nicked"
    GRAZED = "grazed"
    HURT = "hurt"
    INJURED = "injured"
    CRIPPLED = "crippled"
    DOWN = "down"
    OUT = "out"
    DEAD = "dead"


FALLEN: Final = frozenset({WoundRank.DOWN, WoundRank.OUT, WoundRank.DEAD})
"""Golpe final (004 lines 23-25): the ranks that take a combatant out of the fight."""


class L5rRings(ApiModel):
    """Anillos: Tierra, Aire, Agua, Fuego, Vacío (Water moves, 004 Mover; Void is the pool)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    earth: Rating
    air: Rating
    water: Rating
    fire: Rating
    void: Rating


class L5rTraits(ApiModel):
    """Rasgos: the trait of a trait/skill roll keeps its dice (C-2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    stamina: Rating = 2
    willpower: Rating = 2
    reflexes: Rating = 2
    awareness: Rating = 2
    strength: Rating = 2
    perception: Rating = 2
    agility: Rating = 2
    intelligence: Rating = 2


class L5rWeapon(ApiModel):
    """The weapon: its skill (rolled with Agility in melee, Reflexes at range) and damage XkY."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Name = "katana"
    skill: Name = "kenjutsu"
    damage: str = Field("3k2", description="roll-and-keep damage, XkY (C-1)")
    ranged: Bool = False

    @field_validator("damage")
    @classmethod
    def _xky(cls, value: str) -> str:
        m = XKY.match(value.strip().lower())
        if m is None or not 1 <= int(m[2]) <= int(m[1]) <= 10:
            raise ValueError("weapon damage is XkY with 1 <= Y <= X <= 10, e.g. 3k2 (l5r C-1)")
        return value.strip().lower()

    def dice(self) -> tuple[int, int]:
        m = XKY.match(self.damage)
        assert m is not None
        return int(m[1]), int(m[2])


class L5rWoundRank(ApiModel):
    """One wound rank: it holds wounds up to ``up_to`` (cumulative); ``penalty`` is subtracted
    from rolls and initiative (004 Paso 1)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Literal["healthy", "nicked", "grazed", "hurt", "injured", "crippled", "down", "out"]
    up_to: Int = Field(ge=1, le=1000)
    penalty: Int = Field(ge=0, le=100)


def default_wounds(earth: int) -> list[L5rWoundRank]:
    """C-7 (L5R): Healthy holds Earth x 5 wounds, every further rank Earth x 2 more."""
    ranks: list[L5rWoundRank] = []
    up_to = 0
    for index, (name, penalty) in enumerate(zip(WOUND_RANK_NAMES, DEFAULT_PENALTIES, strict=True)):
        up_to += earth * (5 if index == 0 else 2)
        ranks.append(
            L5rWoundRank.model_validate({"name": name, "up_to": up_to, "penalty": penalty})
        )
    return ranks


class L5rSheet(ApiModel):
    """An l5r character (seed 004)."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        json_schema_extra={
            "examples": [
                {
                    "name": "Kakita Ryoku",
                    "ruleset": "l5r",
                    "rings": {"earth": 2, "air": 3, "water": 2, "fire": 3, "void": 2},
                    "traits": {"reflexes": 3, "agility": 3, "strength": 2, "stamina": 2},
                    "insight_rank": 2,
                    "skills": {"kenjutsu": 3, "defense": 2, "horsemanship": 1},
                    "void_points": 2,
                    "armor_tn": 5,
                    "weapon": {"name": "katana", "skill": "kenjutsu", "damage": "3k2"},
                }
            ]
        },
    )

    name: Name
    ruleset: Literal["l5r"]
    rings: L5rRings
    traits: L5rTraits = Field(default_factory=L5rTraits)
    insight_rank: Int = Field(1, ge=1, le=10, description="Rango de reconocimiento (Paso 1)")
    skills: dict[Annotated[str, StringConstraints(min_length=1, max_length=40)], Int] = Field(
        default_factory=dict, description="skill -> rank 0..10; no rank: unskilled (Aumentos)"
    )
    void_points: Int | None = Field(
        None, ge=0, le=10, description="Void points now (Vacío); none: a full pool (Void ring)"
    )
    wounds: list[L5rWoundRank] | None = Field(
        None, description="wound ranks in order (C-7); none: the L5R table from Earth"
    )
    armor_tn: Int = Field(0, ge=0, le=50, description="the armour's bonus to the TN (C-27)")
    weapon: L5rWeapon = Field(default_factory=L5rWeapon)
    riding_techniques: list[Name] = Field(
        default_factory=list, description="techniques that allow Full Attack / Defense mounted"
    )
    mounted: Bool = Field(False, description="enters the combat on horseback (Montar a caballo)")
    horse_movement: Float | None = Field(
        None,
        gt=0,
        le=200,
        description="the horse's movement in metres a round (Montar a caballo: a rider may "
        "move with it instead of his own Water x 3); none: his own",
    )
    disarm_roll: Literal["usual", "strength"] = Field(
        "usual",
        description="the roll he opposes a disarm with (Desarmar: his usual attack roll, or "
        "(Strength + weapon skill) k Strength)",
    )

    @field_validator("skills")
    @classmethod
    def _ranks(cls, value: dict[str, int]) -> dict[str, int]:
        for skill, rank in value.items():
            if not 0 <= rank <= 10:
                raise ValueError(f"skill {skill!r}: a rank is 0..10 (Aumentos)")
        return {skill.strip().lower(): rank for skill, rank in value.items()}

    @model_validator(mode="after")
    def _consistent(self) -> L5rSheet:
        if self.void_points is not None and self.void_points > self.rings.void:
            raise ValueError("void_points cannot exceed the Void ring (Vacío: pool = Void ring)")
        if self.wounds is not None:
            names = [w.name for w in self.wounds]
            if names != list(WOUND_RANK_NAMES):
                raise ValueError(f"wounds: the ranks {', '.join(WOUND_RANK_NAMES)} in order (C-7)")
            ups = [w.up_to for w in self.wounds]
            if any(b <= a for a, b in itertools.pairwise(ups)):
                raise ValueError("wounds: every rank's up_to is above the previous one (C-7)")
        return self

    def rank_of(self, skill: str) -> int:
        return self.skills.get(skill.strip().lower(), 0)

    def wound_table(self) -> list[L5rWoundRank]:
        return list(self.wounds) if self.wounds is not None else default_wounds(self.rings.earth)


def wound_rank(wounds: int, table: Sequence[L5rWoundRank]) -> tuple[WoundRank, int]:
    """C-7: the rank that holds ``wounds`` and its penalty; past the last (Out): dead."""
    for rank in table:
        if wounds <= rank.up_to:
            return WoundRank(rank.name), rank.penalty
    return WoundRank.DEAD, table[-1].penalty if table else 0
