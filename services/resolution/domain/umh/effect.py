"""One active effect on a combatant (umh 11): the :class:`shared.payloads.EffectView` fields
plus ``skill`` (what caused it), ``limb`` (the limb an amputation took, 11.5.5) and, for
indirect damage, ``armed`` (it ticks from the general turn after the one it was inflicted
in, 11.3.3 / A-25). Immutable; its JSON form is the one the state stored before it was
typed (``armed`` only on indirect damage, ``limb`` only on an amputation)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.vocabulary import EffectKind


@dataclass(frozen=True)
class Effect:
    effect_id: str
    kind: EffectKind
    type: str
    amount: float | None = None
    actions_left: int | None = None
    source: str | None = None
    skill: str | None = None
    armed: bool = False
    limb: str | None = None

    @property
    def amount_int(self) -> int:
        """The amount as the rules add it up (none: 0)."""
        return int(self.amount or 0)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "effect_id": self.effect_id,
            "kind": str(self.kind),
            "type": self.type,
            "amount": self.amount,
            "actions_left": self.actions_left,
            "source": self.source,
            "skill": self.skill,
        }
        if self.kind == EffectKind.INDIRECT:
            data["armed"] = self.armed
        if self.limb is not None:
            data["limb"] = self.limb
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Effect:
        return cls(
            effect_id=str(data["effect_id"]),
            kind=EffectKind(data["kind"]),
            type=str(data["type"]),
            amount=data.get("amount"),
            actions_left=data.get("actions_left"),
            source=data.get("source"),
            skill=data.get("skill"),
            armed=bool(data.get("armed", False)),
            limb=data.get("limb"),
        )
