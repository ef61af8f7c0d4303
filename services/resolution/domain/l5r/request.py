"""The domain form of an l5r ``resolution.requested`` (what services/turns built, seed 004):
the attack roll's dice, the TN and how it came about, the raises, the damage dice, the
target's numbers. Read tolerantly: a field a newer turns adds is ignored."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from shared.rulesets.l5r.actions import CombatRaises
from shared.rulesets.l5r.sheet import L5rWoundRank


class _Part(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class AttackDice(_Part):
    """(trait + skill) k trait, exploding when skilled, the wound penalty (C-2, Paso 1)."""

    rolled: int
    kept: int
    explode: bool
    penalty: int = 0


class RaisesPaid(CombatRaises):
    """The raises declared (:class:`CombatRaises`) and how turns paid them (C-1, C-24)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    paid: int = 0
    forced: int = 0
    free: dict[str, int] = Field(default_factory=dict)
    damage_raises: int = 0
    max: int = 0

    def as_sent(self) -> dict[str, Any]:
        """The raises as turns sent them (echoed in ``action.resolved``)."""
        return self.model_dump(mode="json", exclude_unset=True)


class DamageDice(_Part):
    """The weapon's XkY plus the damage raises (C-24)."""

    rolled: int
    kept: int


class TargetState(_Part):
    """What the roll needs of the target: wounds and table (C-7), Earth and Insight
    (Derribar, C-22), Strength, Agility, weapon rank, wound penalty and his choice of roll
    (Desarmar, C-23)."""

    wounds: int
    wound_table: list[L5rWoundRank]
    earth: int
    insight: int
    strength: int
    weapon_rank: int
    agility: int | None = None
    """None: a request from an older turns, which opposed a disarm with Strength only."""
    disarm_roll: str = "strength"
    penalty: int = 0


class StrikeRequest(_Part):
    """One l5r attack to resolve."""

    action_id: str
    attacker: str
    target: str
    skill: str = ""
    round: int = 0
    roll: AttackDice
    tn: int
    tn_steps: list[dict[str, Any]] = Field(default_factory=list)
    """How turns built the TN (C-27, T004-06, T004-15, T004-21), shown as it came."""
    raises: RaisesPaid
    damage: DamageDice
    target_state: TargetState
