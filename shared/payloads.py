"""Payloads of the messages between the gateway and the services, and between services.

These pydantic models are the contract at the boundary; domains convert them to their own
dataclasses. Field names are the ones frontends see in events and in the combat log.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from shared.actions import Action
from shared.carried import Carried
from shared.payload_base import ServicePayload
from shared.settings import CommunitySettings, known_only
from shared.states_payloads import (
    CharacterStatus,
    CombatEnded,
    CombatEndedParticipant,
    Refusal,
    RoomBan,
    StatesCheck,
    StatesChecked,
)


class Opening(ServicePayload):
    """How the combat opens (umh 1.1.1): a challenge or an offensive skill."""

    kind: Literal["challenge", "skill"]
    skill: str | None = None
    targets: list[str] = Field(default_factory=list)


class Terrain(ServicePayload):
    """The room a combat on a grid is fought in (umh 11.6.1): its size in squares (columns
    0 to width - 1, rows 0 to height - 1; none: unbounded) and the squares no one can walk
    on (obstacles)."""

    size: tuple[int, int] | None = None
    obstacles: list[tuple[int, int]] = Field(default_factory=list)


class StartCombat(ServicePayload):
    """``combat.start``: gateway -> turns. Sheets are snapshots taken at the start."""

    combat_id: str
    ruleset: str
    attacker: str
    defenders: list[str]
    opening: Opening
    positions: dict[str, tuple[int, int]] | None = None
    terrain: Terrain | None = Field(None, description="umh 11.6.1: the room's size, obstacles")
    sheets: dict[str, dict[str, Any]]
    settings: CommunitySettings
    moderator: bool = False

    @field_validator("settings", mode="before")
    @classmethod
    def _known_settings(cls, value: Any) -> Any:
        """Settings a newer gateway added are ignored (shared/settings.py ``known_only``)."""
        return known_only(CommunitySettings, value)

    weekly_uses: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="umh 2.3.4.2: from services/states at the start"
    )
    prisoner_challenge: bool = Field(False, description="umh 4.5.4 (from services/states)")
    carried: dict[str, Carried] = Field(
        default_factory=dict, description="umh 4.1.7: from services/states at the start"
    )
    # Put by services/turns itself: the combat's dice (seed, commitment, draws), so that a
    # ruleset rolling at the start (initiative) has them; see shared/dice/combat.py.
    dice: dict[str, Any] | None = None


class ActOnCombat(ServicePayload):
    """``combat.act``: gateway -> turns, one action of docs/api.md "Endpoints"."""

    action_id: str = Field(pattern=r"^a_[0-9a-f]{32}$")
    action: Action
    if_match: int | None = None
    moderator: bool = False
    # The moderator's key id (who resumed a combat) and, for a ``resume``, how long the
    # combat's log has been quiet when the gateway read it (a stall's evidence).
    moderator_key: str | None = None
    quiet_ms: int | None = Field(None, ge=0)
    # For a join: the joiner's sheet snapshot and what services/states answered.
    sheet: dict[str, Any] | None = None
    weekly_uses: dict[str, int] = Field(default_factory=dict)
    carried: Carried | None = Field(None, description="umh 4.1.7: the joiner's, from states")


class TimerFired(ServicePayload):
    """``timer.fired``: the scheduler -> the service that armed the timer."""

    timer_id: str
    kind: str
    due_ms: int
    data: dict[str, Any] = Field(default_factory=dict)


Square = tuple[int, int]
Height = Literal["suelo", "alzada", "voladora"]


class Position(ServicePayload):
    """Where a combatant is (umh 5, 10): a grid square (if the combat uses a grid) and a height."""

    square: Square | None = None
    height: Height = "suelo"


class ReactionChoice(ServicePayload):
    """How one target answered (or did not answer) an action (umh 8.2, 9.2)."""

    skill: str | None = None
    resist: bool = False
    timed_out: bool = False
    to: Square | None = Field(None, description="an evasion's destination (umh 8.2.1)")
    redirect_to: str | None = Field(None, description="a reflection's new target (umh 8.2.5.2)")
    use_number: int | None = Field(None, description="umh 2.3.1.2")
    covered_by: str | None = Field(
        None, description="umh 8.1.1.3.1: the ally whose defense covered this target"
    )
    more: list[ReactionChoice] | None = Field(
        None,
        description="umh 8.1.1.3: the further defenses against a skill reactable several "
        "times, in the order given (each works on what the one before let through)",
    )


class ResolutionRequested(ServicePayload):
    """``resolution.requested``: turns -> resolution, once every reaction to a hit is in.

    A combo (umh 8.1.1.1.1) is resolved hit by hit: ``hit`` of ``hits``, each with its own
    reactions; ``interference`` actions do not count for durations (umh 2.5.2).
    """

    action_id: str
    attacker: str
    skill: str
    targets: list[str]
    reactions: dict[str, ReactionChoice] = Field(default_factory=dict)
    # umh 8.2.2.4: how the attacker answered each anticipation, keyed by the anticipator.
    anticipation_answers: dict[str, ReactionChoice] = Field(default_factory=dict)
    round: int = 0
    hit: int = 1
    hits: int = 1
    squares: list[Square] = Field(default_factory=list, description="an area's target squares")
    positions: dict[str, Position] = Field(default_factory=dict)
    terrain: Terrain | None = Field(None, description="umh 11.6.1: the room's size, obstacles")
    terrain_defenses: dict[str, int] = Field(
        default_factory=dict,
        description="umh 8.2.1.4: the resistance of the external defense on the terrain each "
        "one stands on (skills kept on the terrain)",
    )
    opening: bool = False
    interference: bool = False
    movement_left: dict[str, float] = Field(
        default_factory=dict, description="umh 2.3.2.1: speed each one has left this round"
    )
    weapons: list[str] = Field(default_factory=list, description="umh 12: the weapons used")
    weapon_effects: str | None = Field(None, description="umh 12.3: whose effects apply")


class EffectView(ServicePayload):
    """One active effect on a combatant, as the combat shows it (docs/api.md ``effects``)."""

    effect_id: str
    kind: str  # indirect | control | state | booster | reduction | regeneration | shield | coating
    type: str
    amount: float | None = None
    actions_left: int | None = None
    source: str | None = Field(None, description="the character whose skill caused it")
    limb: str | None = Field(None, description="umh 11.5.5: the limb an amputation took")


class HitResult(ServicePayload):
    """What one hit did to one target, step by step (umh 9.1.1)."""

    target: str
    reaction: ReactionChoice | None = None
    steps: list[dict[str, Any]] = Field(default_factory=list)
    damage: int = 0
    vit_before: int = 0
    vit_after: int = 0
    down: bool = False
    already_down: bool = False
    effects: list[EffectView] = Field(default_factory=list)


class ActionResolved(ServicePayload):
    """``action.resolved``: resolution -> turns (and everyone), one hit of one action.

    Besides the damage, what turns must apply: the hit did not happen at all (``cancelled``:
    anticipated or annulled, umh 8.2.2, 8.2.3), PA given back (umh 3.2), speed spent by
    evasions (umh 8.2.1.1), combatants moved (evasions, pushes, collisions, umh 11.6), and
    whether a combo goes on (umh 8.1.1.1.2, 8.1.1.1.4).
    """

    action_id: str
    attacker: str
    skill: str
    round: int = 0
    hit: int = 1
    hits: int = 1
    results: list[HitResult] = Field(default_factory=list)
    downs: list[str] = Field(default_factory=list)
    cancelled: bool = False
    combo_continues: bool = False
    refunds: dict[str, int] = Field(default_factory=dict)
    speed_spent: dict[str, float] = Field(default_factory=dict)
    moved: dict[str, Position] = Field(default_factory=dict)
    ignored_targets: list[str] = Field(default_factory=list)
    weapons: dict[str, Any] | None = Field(
        None, description="umh 12: the weapons used, their ARMA together, whose effects applied"
    )
    error: dict[str, Any] | None = None


class EffectApplied(ServicePayload):
    """``effect.applied``: resolution -> turns, states, frontends.

    ``blocks`` lists what the effect forbids its carrier, for turns to refuse: ``act``
    (stun, umh 11.4.1), ``act_unless_telepathic`` (paralysis, 11.4.2), ``move`` and
    ``evade_with_legs`` (immobilised, 11.5.1), ``speech`` (mute, 11.5.8), ``attack:<id>``
    (enamoured, 11.5.10), ``stand_up`` needed (knocked down, 11.5.2).
    """

    combat_id: str
    character: str
    effect: EffectView
    blocks: list[str] = Field(default_factory=list)
    action_id: str | None = None
    is_state: bool = Field(
        True, description="counts as 'received a state' for the immunity of umh 4.2.1"
    )
    from_last_combat: bool = Field(False, description="umh 4.1.7: kept from his last combat")


class EffectExpired(ServicePayload):
    """``effect.expired``: resolution -> turns, frontends."""

    combat_id: str
    character: str
    effect_id: str
    kind: str
    type: str
    reason: Literal["duration", "replaced", "broken", "removed", "fallen", "fled"] = "duration"


class CombatantDown(ServicePayload):
    """``combatant.down``: reached 0 VIT (umh 4.1.1.2), by a hit or outside any (a tick)."""

    character: str
    action_id: str | None = None
    by: str | None = None
    cause: Literal["damage", "indirect", "fall", "collision"] = "damage"


class ActionDeclared(ServicePayload):
    """``action.declared``: turns -> resolution, states, frontends.

    ``general_action`` says whether it counts for durations and ticks (reading A-26: offensive
    and supplementary skills, not reactions, passes, movement or interference turns).
    """

    action_id: str
    attacker: str
    skill: str
    targets: list[Any] = Field(default_factory=list)
    pa_spent: int = 0
    opening: bool = False
    round: int = 0
    offensive: bool = False
    general_action: bool = True
    interference: bool = False
    weekly_limit: int | None = Field(None, description="umh 2.3.4.2: the skill's weekly uses")


class TurnEnded(ServicePayload):
    """``turn.ended``: regenerations apply at the end of each own turn (umh 2.3.6)."""

    actor: str
    reason: str
    round: int = 0
    turn_seq: int = 0


class CombatantJoined(ServicePayload):
    """``combatant.joined``: turns -> resolution (its condition), states (in combat)."""

    combat_id: str
    ruleset: str
    character: str
    side: Literal["attackers", "defenders"]
    via: Literal["irrumpir", "llamada_de_auxilio", "skill"]
    skill: str | None = None
    joined_at_ms: int
    sheet: dict[str, Any]
    square: tuple[int, int] | None = Field(None, description="where he entered on the grid")
    carries: Carried | None = Field(None, description="umh 4.1.7: what he brings from his last")


class CombatantFled(ServicePayload):
    """``combatant.fled``: turns -> states (umh 4.1.1.1, 4.2.2, 4.2.3, 4.1.1.1.1) and
    resolution (umh 4.1.5, A-91)."""

    combat_id: str
    character: str
    side: Literal["attackers", "defenders"]
    skill: str | None = None
    flight_cooldown_hours: float | None = Field(
        None, description="the skill's own cooldown; none: 72 h shared by basic profiles"
    )
    profile: Literal["basic", "special"] = "basic"
    fled_at_ms: int


__all__ = [
    "CharacterStatus",
    "CombatEnded",
    "CombatEndedParticipant",
    "Refusal",
    "RoomBan",
    "ServicePayload",
    "StatesCheck",
    "StatesChecked",
]
