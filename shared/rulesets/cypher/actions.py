"""The actions of the cypher ruleset (docs/api.md "Endpoints" additions; their type is
"cypher.<name>").

Every circumstance that moves a difficulty (001 COBERTURA, POSICIÓN, SORPRESA, ALCANCE,
ILUMINACIÓN, AGUA, MOVIMIENTO) is an explicit field of the attack, declared by the player
or the moderator (the class RECORD of docs/rules.md): the referee adds the steps.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StrictBool, StringConstraints

from shared.actions_base import CharacterId, _Action
from shared.api_types import ApiModel, Float, Int

Stat = Literal["might", "speed", "intellect"]


class Circumstances(ApiModel):
    """What moves an attack's difficulty, each with its seed heading (docs/rules.md section 3)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    distance_m: Float = Field(1.0, ge=0, le=100000, description="metres (B-16)")
    cover: Literal["none", "partial", "full"] = "none"
    target_prone: StrictBool = False
    target_elevated: StrictBool = Field(False, description="B-13: one step for him")
    attacker_elevated: StrictBool = Field(False, description="B-13: one step for the attacker")
    surprise: Literal["none", "unaware", "on_guard"] = Field("none", description="B-25")
    extreme_range: StrictBool = Field(False, description="at the very limit (B-11)")
    lighting: Literal["light", "dim", "very_dim", "darkness"] = "light"
    located_by_senses: StrictBool = Field(False, description="darkness: placed by hearing (B-12)")
    xp_spent: StrictBool = Field(False, description="darkness: 1 XP for a lucky hit (B-12)")
    water: Literal["none", "shallow", "deep", "submerged"] = "none"
    target_moving_fast: StrictBool = False
    attacker_mounted: StrictBool = Field(False, description="moving mount or vehicle")
    off_balance: StrictBool = False
    off_balance_ignored: StrictBool = Field(False, description="a skill cancels it (RECORD)")
    other_steps: Int = Field(0, ge=-10, le=10, description="any other step the GM declares")


class CypherAttack(_Action):
    """ATACAR: roll d20 against 3 x the difficulty (B-1) of the target."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        json_schema_extra={
            "examples": [
                {
                    "type": "cypher.attack",
                    "actor": "ana",
                    "target": "orco",
                    "attack": "Arco",
                    "stat": "speed",
                    "effort": 1,
                    "circumstances": {"distance_m": 12, "cover": "partial", "lighting": "dim"},
                }
            ]
        },
    )

    type: Literal["cypher.attack"]
    target: CharacterId
    attack: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    stat: Stat | None = Field(None, description="melee: might | speed; ranged: default speed")
    effort: Int = Field(0, ge=0, le=6, description="levels of Effort, each one step easier")
    circumstances: Circumstances = Field(default_factory=Circumstances)


class CypherMove(_Action):
    """DISTANCIA: immediate (free, with another action), short (the turn), long (a Speed
    roll at difficulty 4 plus terrain, B-21)."""

    type: Literal["cypher.move"]
    distance: Literal["immediate", "short", "long"]
    terrain_steps: Int = Field(0, ge=0, le=6, description="terrain, obstacles (001 DISTANCIA)")
    roll: StrictBool = Field(True, description="long move: the GM may waive the roll (B-21)")


class CypherGenericAction(_Action):
    """ACCIÓN: any other action of one stat, a difficulty (0 = automatic) and a minimum spend."""

    type: Literal["cypher.action"]
    stat: Stat
    difficulty: Int = Field(0, ge=0, le=10)
    minimum_spend: Int = Field(0, ge=0, le=99, description="001 ACCIÓN: auto-fail below it")
    effort: Int = Field(0, ge=0, le=6)
    physical: StrictBool = Field(True, description="needs physical movement (parálisis)")
    description: str = Field("", max_length=300)


def _every_pool() -> list[Stat]:
    return ["might", "speed", "intellect"]


class CypherRecover(_Action):
    """RECUPERAR: the day's first rest, a turn's action: 1d6 + tier spread by the player."""

    type: Literal["cypher.recover"]
    distribution: list[Stat] = Field(
        default_factory=_every_pool,
        min_length=1,
        max_length=3,
        description="which pools get the points, in order, each filled to its maximum",
    )
    special_damage: StrictBool = Field(False, description="heal special damage instead (B-5)")


class CypherPass(_Action):
    type: Literal["cypher.pass"]


class CypherRerollInitiative(_Action):
    """Moderator only: new initiative rolls at the start of the next round (B-3)."""

    type: Literal["cypher.reroll_initiative"]


class CypherInflict(_Action):
    """Moderator only: special damage the GM declares on a character (001 DAÑO automatic
    steps, DAÑO DIVERSO, DAÑO ESPECIAL): points, steps, dazed, stunned, poison, paralysis."""

    type: Literal["cypher.inflict"]
    target: CharacterId
    damage: Int = Field(0, ge=0, le=99)
    damage_type: Stat = "might"
    ignores_armor: StrictBool = True
    track_steps: Int = Field(0, ge=0, le=3)
    dazed_rounds: Int = Field(0, ge=0, le=10)
    stunned: StrictBool = False
    paralysis: StrictBool | None = Field(None, description="true paralyses, false ends it")
    poison_level: Int | None = Field(None, ge=1, le=10, description="a Might defense roll")
    poison_damage: Int = Field(0, ge=0, le=99)
    poison_steps: Int = Field(0, ge=0, le=3)
    poison_paralysis: StrictBool = False
    reason: str = Field("", max_length=300)


class CypherDefend(_Action):
    """A PC's Effort on his next Speed defense roll (001 ATACAR with B-7): ``effort`` levels,
    at most his sheet's Effort, paid from Speed when he rolls (as many levels as the pool
    pays then). Any time, not an action; 0 withdraws it."""

    type: Literal["cypher.defend"]
    effort: Int = Field(ge=0, le=6)


class CypherIntrusion(_Action):
    """Moderator only: a GM intrusion for ``actor`` (001 ILUMINACIÓN, oscuridad: attacks in
    total darkness miss with no roll "salvo que el jugador gaste 1 PX ... o el DJ lleve a
    cabo una intromisión"): his next attack on a target he cannot place is rolled."""

    type: Literal["cypher.intrusion"]
    reason: str = Field("", max_length=300)


CypherActions = (
    CypherAttack
    | CypherMove
    | CypherGenericAction
    | CypherRecover
    | CypherPass
    | CypherRerollInitiative
    | CypherInflict
    | CypherDefend
    | CypherIntrusion
)

CYPHER_MODERATOR_ONLY = frozenset(
    {"cypher.reroll_initiative", "cypher.inflict", "cypher.intrusion"}
)

__all__ = ["CYPHER_MODERATOR_ONLY", "CharacterId", "CypherActions"]
