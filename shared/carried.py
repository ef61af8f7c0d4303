"""What a fighter takes out of a combat, between the services: his condition into the next
combat (umh 4.1.7) and the items he stole (4.2.5, ``item.stolen``).

services/resolution tells, once a combat ends (not annulled), each participant's VIT and the
effects that outlast the combat (``condition.carried``, internal); services/states keeps
them on his record and answers them with its gates (``states.check``); the gateway passes
them to services/turns with the start or the join, and resolution enters him with them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from shared.vocabulary import EndReason


class _Payload(BaseModel):
    """Read tolerantly, like :class:`shared.payloads.ServicePayload`."""

    model_config = ConfigDict(extra="ignore", frozen=True)


class CarriedEffect(_Payload):
    """An effect received in a combat that lasts into the next (umh 4.1.7, 11.5.5)."""

    effect_id: str = Field(description="its id in the combat it comes from")
    kind: str
    type: str
    amount: float | None = None
    actions_left: int | None = Field(None, description="general actions left; none: until healed")
    source: str | None = None
    skill: str | None = None
    limb: str | None = None


class Carried(_Payload):
    """What one fighter enters his next combat with (umh 4.1.7): ``vit`` (none: his whole
    VIT) and the lasting effects; ``combat_id`` is the combat he carries them from."""

    combat_id: str | None = None
    vit: int | None = Field(None, ge=1)
    effects: list[CarriedEffect] = Field(default_factory=list)


class EndCondition(_Payload):
    """One participant's condition as his combat ended."""

    vit: int
    vit_max: int
    effects: list[CarriedEffect] = Field(default_factory=list)


class ConditionCarried(_Payload):
    """``condition.carried``: resolution -> states, once per combat that ended and counts."""

    combat_id: str
    ruleset: str
    reason: EndReason
    ended_at_ms: int
    participants: dict[str, EndCondition]


class ItemStolen(_Payload):
    """``item.stolen``: turns -> states, frontends (umh 4.2.5): ``character`` stole ``item``
    from ``target`` with ``skill``; states decides at the end whether he keeps it."""

    character: str
    target: str
    item: str
    skill: str
    round: int = 0
