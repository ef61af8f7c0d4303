"""The cypher character sheet (seed 001, docs/rules.md section 3).

A player character (``kind: "pc"``) has three pools (Might / Speed / Intellect: *Vigor*,
*Velocidad*, *Intelecto*), their edges, a tier (*rango*), Armor, the Effort levels he may
declare and his skills (trained / specialized). A non-player character (``kind: "npc"``)
has a level 1-10 (target number 3 x level, reading B-1), health and Armor. Both carry their
attacks: damage is always a fixed amount defined by the attack (001 DAÑO).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictBool, model_validator

from shared.api_types import ApiModel, Int

Stat = Literal["might", "speed", "intellect"]
RangeCategory = Literal["immediate", "short", "long"]
Training = Literal["trained", "specialized"]
WeaponKind = Literal["slashing", "piercing", "bludgeoning", "none"]
RangedKind = Literal["thrown", "bow", "crossbow", "blowgun", "firearm", "energy", "other"]

RANGE_ORDER: dict[str, int] = {"immediate": 0, "short": 1, "long": 2}


class _Model(ApiModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Pools(_Model):
    """*Reservas* of Might (*Vigor*), Speed (*Velocidad*) and Intellect (*Intelecto*)."""

    might: Int = Field(ge=0, le=99)
    speed: Int = Field(ge=0, le=99)
    intellect: Int = Field(ge=0, le=99)

    def of(self, stat: str) -> int:
        return int(getattr(self, stat))


class Edges(_Model):
    """Edge per stat: lowers the cost of Effort on that stat (external Cypher rules, B-7)."""

    might: Int = Field(0, ge=0, le=6)
    speed: Int = Field(0, ge=0, le=6)
    intellect: Int = Field(0, ge=0, le=6)


class CypherSkill(_Model):
    """A skill and its training. Names the rules recognise (case-insensitive): ``low_light``
    (*combatir con poca luz*, 001 ILUMINACIÓN), ``riding`` (*montar*, 001 MOVIMIENTO),
    ``sailing`` (*navegación*, 001 MOVIMIENTO desequilibrado)."""

    name: str = Field(min_length=1, max_length=80)
    level: Training = "trained"


class Poison(_Model):
    """A poison carried by an attack (001 DAÑO ESPECIAL veneno): the target makes a Might
    defense roll at ``level`` (B-24); failing it, he takes ``damage`` Might points (no Armor),
    moves ``steps`` down the damage track, and is paralysed if ``paralysis``."""

    level: Int = Field(ge=1, le=10)
    damage: Int = Field(0, ge=0, le=99)
    steps: Int = Field(0, ge=0, le=3)
    paralysis: StrictBool = False


class Special(_Model):
    """Special damage of an attack that hits (001 DAÑO ESPECIAL)."""

    dazed_rounds: Int = Field(0, ge=0, le=10, description="desorientado: one step harder (B-18)")
    stunned: StrictBool = Field(False, description="aturdido: loses his next turn (B-15)")
    paralysis: StrictBool = Field(False, description="parálisis: cannot move (E_PARALYZED)")
    track_steps: Int = Field(0, ge=0, le=3, description="automatic steps down (001 DAÑO)")
    poison: Poison | None = None


class Attack(_Model):
    """An attack or weapon: fixed damage (001 DAÑO), its kind and range (001 ATACAR,
    ALCANCE), the pool it damages (001 DAÑO types) and the flags of the water rules."""

    name: str = Field(min_length=1, max_length=80)
    damage: Int = Field(ge=0, le=99)
    kind: Literal["melee", "ranged"] = "melee"
    range: RangeCategory = Field(
        "immediate", description="the farthest category it reaches (melee: immediate)"
    )
    damage_type: Stat = Field("might", description="speed / intellect damage ignores Armor")
    weapon: WeaponKind = "none"
    ranged_kind: RangedKind | None = None
    ignores_armor: StrictBool = Field(False, description="environmental damage (001 ARMADURA)")
    pierces_cover: StrictBool = Field(False, description="may hit a target in full cover")
    special: Special | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Attack:
        if self.kind == "melee" and self.range != "immediate":
            raise ValueError("a melee attack reaches immediate range only (001 ALCANCE)")
        if self.kind == "melee" and self.ranged_kind is not None:
            raise ValueError("ranged_kind is for ranged attacks only")
        return self


class CypherSheet(_Model):
    name: str = Field(min_length=1, max_length=80)
    ruleset: Literal["cypher"]
    kind: Literal["pc", "npc"] = "pc"
    pools: Pools | None = Field(None, description="PC only: maximum pools")
    current: Pools | None = Field(None, description="PC only: pools now, if below maximum")
    edges: Edges = Field(default_factory=Edges)
    tier: Int = Field(1, ge=1, le=6, description="rango: recovery 1d6 + tier")
    effort: Int = Field(1, ge=0, le=6, description="Effort levels he may declare")
    defense: Int | None = Field(
        None, ge=0, le=10, description="PC: difficulty of attacks on him (default: tier)"
    )
    level: Int | None = Field(None, ge=1, le=10, description="NPC: target number 3 x level")
    health: Int | None = Field(None, ge=1, le=999, description="NPC: health")
    armor: Int = Field(0, ge=0, le=20, description="additive, no cap (B-17)")
    skills: list[CypherSkill] = Field(default_factory=list, max_length=64)
    attacks: Annotated[list[Attack], Field(default_factory=list, max_length=32)]
    aquatic: StrictBool = Field(False, description="ignores the water modifiers")

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        json_schema_extra={
            "examples": [
                {
                    "name": "Ana",
                    "ruleset": "cypher",
                    "kind": "pc",
                    "pools": {"might": 12, "speed": 10, "intellect": 9},
                    "edges": {"might": 1, "speed": 0, "intellect": 0},
                    "tier": 1,
                    "effort": 1,
                    "armor": 1,
                    "skills": [{"name": "low_light", "level": "trained"}],
                    "attacks": [
                        {"name": "Espada", "damage": 4, "kind": "melee", "weapon": "slashing"},
                        {
                            "name": "Arco",
                            "damage": 4,
                            "kind": "ranged",
                            "range": "long",
                            "ranged_kind": "bow",
                        },
                    ],
                },
                {
                    "name": "Orco",
                    "ruleset": "cypher",
                    "kind": "npc",
                    "level": 3,
                    "health": 9,
                    "armor": 1,
                    "attacks": [{"name": "Hacha", "damage": 4, "weapon": "slashing"}],
                },
            ]
        },
    )

    @model_validator(mode="after")
    def _complete(self) -> CypherSheet:
        if self.kind == "pc" and self.pools is None:
            raise ValueError("a PC sheet has pools {might, speed, intellect} (001 DAÑO)")
        if self.kind == "npc" and (self.level is None or self.health is None):
            raise ValueError("an NPC sheet has level (1-10) and health (B-1)")
        if self.current is not None and self.pools is not None:
            for stat in ("might", "speed", "intellect"):
                if self.current.of(stat) > self.pools.of(stat):
                    raise ValueError(f"current {stat} above its pool (001 RECUPERAR)")
        names = [a.name for a in self.attacks]
        if len(set(names)) != len(names):
            raise ValueError("attack names are unique")
        return self

    def as_given(self) -> dict[str, Any]:
        """The sheet's JSON form with the fields it was given only (no defaults added): how
        a combat state keeps its snapshot."""
        return self.model_dump(mode="json", exclude_unset=True)

    def attack(self, name: str) -> Attack | None:
        return next((a for a in self.attacks if a.name == name), None)

    def training(self, *names: str) -> Training | None:
        """The best training among skills with one of these names (case-insensitive)."""
        wanted = {n.casefold() for n in names}
        levels = [s.level for s in self.skills if s.name.casefold() in wanted]
        if "specialized" in levels:
            return "specialized"
        return "trained" if levels else None
