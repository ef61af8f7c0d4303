"""The umh action bodies of ``POST /v1/combats/{id}/actions`` (docs/api.md "Endpoints").

They join :data:`shared.actions.Action` through :mod:`shared.rulesets.registry`; services/turns
receives them unchanged in a ``combat.act`` command. Character ids and squares follow docs/api.md's
identifier rules.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictBool, StringConstraints

from shared.actions_base import CharacterId, SkillName, Square, _Action
from shared.api_types import Int


class SkillAction(_Action):
    """Use a skill; offensive skills open one pending reaction per target (umh 2.4.2)."""

    type: Literal["skill"]
    skill: SkillName
    targets: list[CharacterId | Square] = Field(default_factory=list, max_length=16)
    use_number: Int | None = Field(None, ge=1, le=1000, description="umh 2.3.1.2")
    weapons: list[SkillName] = Field(
        default_factory=list,
        max_length=2,
        description="umh 12: the sheet's weapons the skill is used with (two: ambidextrous)",
    )
    weapon_effects: SkillName | None = Field(
        None, description="umh 12.3: with two weapons, the one whose additional effects apply"
    )
    to: Square | None = Field(
        None, description="umh 7.1.1 Teletransportadora: the free square a teleport takes him to"
    )
    height: Literal["suelo", "alzada", "voladora"] | None = Field(
        None, description="umh 7.1.1 Teletransportadora: the height a teleport takes him to"
    )


class ReactAction(_Action):
    """Answer a pending reaction: a defensive skill, ``null`` to take it, or RESISTIR."""

    type: Literal["react"]
    action_id: Annotated[str, StringConstraints(pattern=r"^a_[0-9a-f]{32}$")]
    skill: SkillName | None = None
    resist: StrictBool = False
    use_number: Int | None = Field(None, ge=1, le=1000, description="umh 2.3.1.2")
    to: Square | None = Field(None, description="an evasion's destination square (umh 8.2.1)")
    redirect_to: CharacterId | None = Field(
        None, description="a reflection sends the skill to this opponent (umh 8.2.5.2)"
    )


class MoveAction(_Action):
    type: Literal["move"]
    to: Square


class JoinAction(_Action):
    """Enter a running combat (umh 1.2.4); an entry skill instead of IRRUMPIR cannot be vetoed."""

    type: Literal["join"]
    side: Literal["attackers", "defenders"]
    via: Literal["irrumpir", "llamada_de_auxilio"]
    skill: SkillName | None = Field(None, description="an entry skill (umh 1.2.4.1)")
    square: Square | None = Field(
        None, description="where he enters, in a combat played on a grid (a free square)"
    )


class VetoJoinAction(_Action):
    type: Literal["veto_join"]
    joiner: CharacterId


class EquipAction(_Action):
    type: Literal["equip"]
    item: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    from_ground: StrictBool = Field(
        False,
        description="umh 10.2.5: in his turn, he picks up gear that fell to the ground (he was "
        "disarmed) and equips it again",
    )


class DisconnectAction(_Action):
    type: Literal["disconnect"]


class ReconnectAction(_Action):
    type: Literal["reconnect"]


class StandUpAction(_Action):
    """*Levantarse*: ends a knockdown (umh 11.5.2)."""

    type: Literal["stand_up"]


class DisputeAction(_Action):
    """Moderator only: ``actor``'s ``skill`` is in doubt (refused until ruled, umh 1.1.5), or
    ruled usable again (``disputed: false``)."""

    type: Literal["dispute"]
    skill: SkillName
    disputed: StrictBool = True


class StealAction(_Action):
    """umh 4.2.5: ``actor`` stole ``item`` from ``target`` (an opponent) with ``skill``, one of
    his skills able to steal; whether he keeps it is decided at the end of the combat."""

    type: Literal["steal"]
    skill: SkillName
    target: CharacterId
    item: Annotated[str, StringConstraints(min_length=1, max_length=80)]


UMH_ACTIONS = (
    SkillAction,
    ReactAction,
    MoveAction,
    JoinAction,
    VetoJoinAction,
    EquipAction,
    DisconnectAction,
    ReconnectAction,
    StandUpAction,
    DisputeAction,
    StealAction,
)
