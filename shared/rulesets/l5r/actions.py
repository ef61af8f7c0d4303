"""The actions of the l5r ruleset (docs/api.md "Endpoints" additions; their type is "l5r.<name>").

Seed 004 ("Resolución de combate", "Posiciones de combate", "Acciones durante el asalto",
"Aumentos en combate", "Vacío"). Raises declared on an attack are what the player pays for
(+5 TN each, C-1); free raises are added by the referee (Full Attack, feint, concentration,
Mejora) and spent on the declared effects first.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, model_validator

from shared.actions_base import CharacterId, _Action
from shared.api_types import ApiModel, Bool, Float, Int

Stance = Literal["attack", "full_attack", "full_defense"]
VoidOnRoll = Literal["mejora_die", "mejora_rank", "mejora_raise", "persistencia"]
VoidUse = Literal[
    "incremento_no",
    "obtener_accion",
    "cambiar_iniciativa",
    "alentar",
    "golpe_final",
    "reduccion_heridas",
    "velocidad",
]
Location = Literal["torso", "arm", "leg", "head"]
Text = Annotated[str, Field(min_length=1, max_length=500)]


class L5rReady(_Action):
    """Done preparing (Velocidad is spent before the initiative roll, 004 Velocidad)."""

    type: Literal["l5r.ready"]


class L5rStance(_Action):
    """Paso 2: declare the stance for this round, first thing in the turn."""

    type: Literal["l5r.stance"]
    stance: Stance


class L5rFullDefense(_Action):
    """Same as ``l5r.stance`` with ``full_defense``: rolls Agility/Defense (C-2, C-15)."""

    type: Literal["l5r.full_defense"]


class Protect(ApiModel):
    """Proteger (C-25): +5 to the ally's TN against the target per raise, next round."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ally: CharacterId
    raises: Int = Field(1, ge=1, le=10)


class CombatRaises(ApiModel):
    """Aumentos en combate: what the raises buy (costs: 004 lines 110-116)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    damage: Int = Field(0, ge=0, le=10, description="Incrementar el daño (C-24)")
    called_shot: Location | None = Field(None, description="Ataque localizado: 1 / 2 / 2 / 3")
    knockdown: Bool = Field(False, description="Derribar: 3 raises (C-22)")
    disarm: Bool = Field(False, description="Desarmar: 3 raises, melee only (C-23)")
    feint: Bool = Field(False, description="Finta: 1 raise, no damage (T004-23)")
    extra_attack: Bool = Field(False, description="Ataque adicional: 4 raises (C-21)")
    protect: Protect | None = Field(None, description="Proteger (C-25)")
    lower_tn: Int = Field(0, ge=0, le=10, description="raises with no effect (+5 TN each)")


class L5rAttack(_Action):
    """Ataque cuerpo a cuerpo / a distancia: (trait + skill) k trait against the TN to be hit."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "type": "l5r.attack",
                    "actor": "ryoku",
                    "target": "toshi",
                    "kind": "melee",
                    "raises": {"damage": 2},
                    "void": ["mejora_die"],
                }
            ]
        }
    )

    type: Literal["l5r.attack"]
    target: CharacterId
    kind: Literal["melee", "ranged"] = "melee"
    raises: CombatRaises = Field(default_factory=CombatRaises)
    void: list[VoidOnRoll] = Field(
        default_factory=list, max_length=4, description="Void spent on this roll (one use, C-4)"
    )
    stand_up: Bool = Field(False, description="prone in Full Attack: stand and attack (C-31)")


class L5rMove(_Action):
    """Mover (Water x 3 m, a simple action) or Correr (Water x 9 m, the whole turn)."""

    type: Literal["l5r.move"]
    mode: Literal["move", "run"] = "move"
    meters: Float = Field(gt=0, le=1000)


class L5rVoid(_Action):
    """A Void use that is not part of a roll (004 "Usos"); ``partner`` for Alentar and
    Cambiar iniciativa."""

    type: Literal["l5r.void"]
    use: VoidUse
    partner: CharacterId | None = None

    @model_validator(mode="after")
    def _partner(self) -> L5rVoid:
        needs = self.use in ("alentar", "cambiar_iniciativa")
        if needs and not self.partner:
            raise ValueError(f"{self.use} names a partner")
        if not needs and self.partner:
            raise ValueError(f"{self.use} takes no partner")
        return self


class L5rStandUp(_Action):
    """Ponerte en pie: standing up is the action (T004-25)."""

    type: Literal["l5r.stand_up"]


class L5rConcentrate(_Action):
    """Concentración: a round focused on one opponent (C-26)."""

    type: Literal["l5r.concentrate"]
    target: CharacterId


class L5rSimple(_Action):
    """Acción miscelánea simple: no risk, no roll (C-18)."""

    type: Literal["l5r.simple"]
    description: Text


class L5rComplex(_Action):
    """Acción miscelánea compleja (or a special ability / riding): optionally a skill roll
    (trait + skill) k trait against ``tn``."""

    type: Literal["l5r.complex"]
    description: Text
    skill: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    trait: (
        Literal[
            "stamina",
            "willpower",
            "reflexes",
            "awareness",
            "strength",
            "perception",
            "agility",
            "intelligence",
        ]
        | None
    ) = None
    tn: Int | None = Field(None, ge=0, le=200)
    raises: Int = Field(0, ge=0, le=10)
    category: Literal["complex", "special", "ride"] = "complex"
    void: list[VoidOnRoll] = Field(default_factory=list, max_length=4)


class L5rSpeak(_Action):
    """Hablar: always allowed, no action cost."""

    type: Literal["l5r.speak"]
    text: Text


class L5rTide(_Action):
    """Curso de combate (C-12): at the round's end, add the die to your initiative (no
    ``against``) or subtract it from an opponent you hit or wounded since your last turn."""

    type: Literal["l5r.tide"]
    against: CharacterId | None = None


class L5rPass(_Action):
    """End the turn; ``delay``: act later this round (Paso 2, delay)."""

    type: Literal["l5r.pass"]
    delay: Bool = False


class L5rFlee(_Action):
    """Leave the combat (Paso 3: no longer wants to fight)."""

    type: Literal["l5r.flee"]


class L5rGrantVoid(_Action):
    """Moderator only (C-3): the DM confirms a story-relevant roll with 2 exploding dice:
    +1 Void point, capped at the Void ring."""

    type: Literal["l5r.grant_void"]
    character: CharacterId


class L5rVetoVoid(_Action):
    """Moderator only (Vacío, C-3): the referee gave ``character`` a Void point for two
    exploding dice; the DM finds that roll not relevant to the story and takes the last such
    point back."""

    type: Literal["l5r.veto_void"]
    character: CharacterId


L5rActions = (
    L5rReady
    | L5rStance
    | L5rFullDefense
    | L5rAttack
    | L5rMove
    | L5rVoid
    | L5rStandUp
    | L5rConcentrate
    | L5rSimple
    | L5rComplex
    | L5rSpeak
    | L5rTide
    | L5rPass
    | L5rFlee
    | L5rGrantVoid
    | L5rVetoVoid
)
