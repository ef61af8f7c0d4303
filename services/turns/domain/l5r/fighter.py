"""One combatant of an l5r combat as services/turns keeps him (seed 004): his sheet's numbers,
Void, wounds and rank (C-7), initiative, stance and what it brings, this round's counters.

A pydantic model whose JSON form (field order kept) is the one the untyped code stored; a
field missing from an older state takes its default.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from shared.errors import RuleViolation
from shared.rulesets.l5r.sheet import (
    FALLEN,
    L5rRings,
    L5rSheet,
    L5rTraits,
    L5rWeapon,
    L5rWoundRank,
    WoundRank,
    wound_rank,
)
from shared.vocabulary import Side


class Status(StrEnum):
    """In the fight, fallen at a wound rank (C-7), or gone (Paso 3)."""

    ACTIVE = "active"
    DOWN = "down"
    OUT = "out"
    DEAD = "dead"
    FLED = "fled"


OUT_OF_FIGHT: Final = frozenset({Status.DOWN, Status.OUT, Status.DEAD, Status.FLED})


class Stance(StrEnum):
    """Posiciones de combate (Paso 2): Attack, Full Attack, Full Defense."""

    ATTACK = "attack"
    FULL_ATTACK = "full_attack"
    FULL_DEFENSE = "full_defense"


class GolpeFinal(StrEnum):
    """Golpe final (T004-08, G23): paid, his next turn's one action pending; then used."""

    PENDING = "pending"
    USED = "used"


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore")


class RoundCounters(_Part):
    """Acciones durante el asalto (C-18): what he did this round."""

    complex: int = 0
    simple: int = 0
    move_actions: int = 0
    moved: float = 0.0
    attacks: int = 0
    extra_actions: int = 0
    extra_attack_tried: bool = False
    ran: bool = False
    acted: bool = False


class FullDefense(_Part):
    """Defensa Total (T004-15, C-15): the roll's bonus, the opponents it covers, lost."""

    bonus: int
    opponents: list[str] = Field(default_factory=list)
    lost: bool = False


class Concentration(_Part):
    """Concentración (T004-17, C-26): on whom, and for how many rounds."""

    target: str
    rounds: int


class Protection(_Part):
    """Proteger (T004-21, C-25): the TN bonus an ally's attack gave him, until the round."""

    bonus: int
    round: int
    by: str


class LastHit(_Part):
    """The last hit that wounded him: Reducción de heridas may answer it (T004-07, C-10)."""

    action_id: str
    wounds: int
    round: int
    turn_seq: int
    reduced: bool = False


class Fighter(_Part):
    """One combatant (see the module docstring)."""

    side: Side
    status: Status = Status.ACTIVE
    name: str
    rings: L5rRings
    traits: L5rTraits
    reflexes: int
    insight: int
    skills: dict[str, int] = Field(default_factory=dict)
    armor_tn: int = 0
    weapon: L5rWeapon
    riding_techniques: list[str] = Field(default_factory=list)
    mounted: bool = False
    horse_movement: float | None = None
    disarm_roll: str = "usual"
    wound_table: list[L5rWoundRank]
    void: int
    void_max: int
    void_spent: int = 0
    void_from_dice: int = 0
    alentar_received: int = 0
    alentar_bonus: int = 0
    wounds: int = 0
    rank: WoundRank = WoundRank.HEALTHY
    penalty: int = 0
    initiative: int = 0
    initiative_roll: int | None = None
    tiebreak: int | None = None
    velocidad: bool = False
    ready: bool = False
    stance: Stance | None = None
    full_defense: FullDefense | None = None
    tn_boost: int = 0
    prone: bool = False
    disarmed: bool = False
    feint: dict[str, int] = Field(default_factory=dict)
    concentration: Concentration | None = None
    protected: dict[str, Protection] = Field(default_factory=dict)
    round: RoundCounters = Field(default_factory=RoundCounters)
    reduction_round: int = 0
    last_hit: LastHit | None = None
    golpe_final: GolpeFinal | None = None
    wounded_since_turn: bool = False
    hit_since_turn: list[str] = Field(default_factory=list)
    tide_against: str | None = None
    stop: bool = False

    @property
    def can_fight(self) -> bool:
        """Down, Out, dead or gone: out of the fight (a pending Golpe final still acts once)."""
        return self.status not in OUT_OF_FIGHT or self.golpe_final == GolpeFinal.PENDING

    @property
    def current_stance(self) -> Stance:
        """Paso 2: no stance declared yet counts as Attack."""
        return self.stance or Stance.ATTACK

    def skill(self, name: str) -> int:
        return self.skills.get(name.lower(), 0)

    def use_slot(self, kind: str) -> None:
        """C-18: one complex action per round (Obtener una acción adds one, C-9); the first
        simple action is free, the second takes the complex slot."""
        counters = self.round
        if kind == "simple" and counters.simple == 0:
            counters.simple = 1
            return
        if counters.complex >= 1 + counters.extra_actions:
            raise RuleViolation("complex_action_limit", "l5r Acción compleja", kind=kind)
        counters.complex += 1
        if kind == "simple":
            counters.simple += 1

    def set_rank(self, wounds: int) -> tuple[WoundRank, WoundRank]:
        """C-7: his wounds, their rank and penalty; his status follows a fall or a recovery
        (Reducción de heridas). Returns the rank before and after."""
        before = self.rank
        self.wounds = wounds
        self.rank, self.penalty = wound_rank(wounds, self.wound_table)
        fallen = self.rank in FALLEN
        if fallen and self.status == Status.ACTIVE:
            self.status = Status(str(self.rank))
        elif self.status in (Status.DOWN, Status.OUT, Status.DEAD):
            self.status = Status(str(self.rank)) if fallen else Status.ACTIVE
        return before, self.rank


def new_fighter(sheet: L5rSheet, side: Side, counters: dict[str, int]) -> Fighter:
    """A combatant at the start: his sheet's numbers, his Void pool (services/states' count
    when it has one, else the sheet's, else full), no wounds (the rank and penalty of 0
    wounds in his sheet's table, C-7), no initiative yet."""
    void_max = sheet.rings.void
    table = sheet.wound_table()
    rank, penalty = wound_rank(0, table)  # C-7: the sheet's first rank may carry a penalty
    void = counters.get(
        "void_points", sheet.void_points if sheet.void_points is not None else void_max
    )
    return Fighter(
        side=side,
        name=sheet.name,
        rings=sheet.rings,
        traits=sheet.traits,
        reflexes=sheet.traits.reflexes,
        insight=sheet.insight_rank,
        skills=dict(sheet.skills),
        armor_tn=sheet.armor_tn,
        weapon=sheet.weapon,
        riding_techniques=list(sheet.riding_techniques),
        mounted=sheet.mounted,
        horse_movement=sheet.horse_movement,
        disarm_roll=sheet.disarm_roll,
        wound_table=table,
        void=max(0, min(int(void), void_max)),
        void_max=void_max,
        alentar_received=int(counters.get("alentar_received", 0)),
        rank=rank,
        penalty=penalty,
    )
