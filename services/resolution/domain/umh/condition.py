"""Each combatant's condition inside a combat: the state of services/resolution.

The runtime stores the state as a JSON-ready dict; :class:`CombatCondition` is its domain
form (``to_dict`` / ``from_dict``). Sheets and the readings of docs/rules.md 6.1 are the
snapshots ``combat.started`` carried, so a sheet or a community setting edited mid-combat
never changes a running combat (docs/DESIGN.md).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from services.resolution.domain.umh.effect import Effect
from services.resolution.domain.umh.readings import RECOMMENDED, UmhReadings
from shared.rulesets.umh.sheet import UmhSheet
from shared.vocabulary import EffectKind

SIDES = ("attackers", "defenders")

# The sheets validated lately, by the identity of the snapshot they were read from: a
# snapshot is never changed in place (a combatant is replaced, keeping his sheet), so one
# message reads each sheet once however many rules look at it (a hit: five to eight).
_PARSED: OrderedDict[int, tuple[Mapping[str, Any], UmhSheet]] = OrderedDict()
PARSED_KEPT = 64


def parsed(sheet: Mapping[str, Any]) -> UmhSheet:
    """``sheet`` validated as a umh sheet, once while it is among the last ones read."""
    found = _PARSED.get(id(sheet))
    if found is not None and found[0] is sheet:
        _PARSED.move_to_end(id(sheet))
        return found[1]
    result = UmhSheet.model_validate(sheet)
    _PARSED[id(sheet)] = (sheet, result)  # holding the snapshot keeps its id from reuse
    while len(_PARSED) > PARSED_KEPT:
        _PARSED.popitem(last=False)
    return result


@dataclass(frozen=True)
class Combatant:
    """One participant: side, vitality (VIT) now and at most, active effects, sheet.

    ``ledger`` counts damage whose regeneration is limited (umh 7.1.1 Mental / Daño al
    alma, 11.3.4 - 11.3.6): ``mental``, ``soul``, ``pain``, ``suffocation``. ``cc_immune``
    (11.5.16 / A-93) and ``cc_seen`` (a crowd control was active in his current own turn),
    ``resist_immune`` (11.5.17: ``attacker:skill`` keys) guard new crowd control.
    """

    side: str
    vit: int
    vit_max: int
    sheet: Mapping[str, Any]
    effects: tuple[Effect, ...] = ()
    ledger: Mapping[str, int] = field(default_factory=dict)
    cc_immune: bool = False
    cc_seen: bool = False
    resist_immune: tuple[str, ...] = ()

    @property
    def is_down(self) -> bool:
        """umh 4.1.1.2: a combatant at 0 VIT is down."""
        return self.vit <= 0

    def with_vit(self, vit: int) -> Combatant:
        return replace(self, vit=max(0, min(self.vit_max, vit)))

    def parsed_sheet(self) -> UmhSheet:
        return parsed(self.sheet)

    def effects_of(self, kind: EffectKind, type_: str | None = None) -> list[Effect]:
        return [e for e in self.effects if e.kind == kind and (type_ is None or e.type == type_)]

    def has(self, kind: EffectKind, type_: str | None = None) -> bool:
        return bool(self.effects_of(kind, type_))

    def booked(self, **damage: int) -> Combatant:
        """The ledger with ``damage`` added (only positive amounts are recorded)."""
        ledger = dict(self.ledger)
        for key, amount in damage.items():
            if amount > 0:
                ledger[key] = ledger.get(key, 0) + amount
        return replace(self, ledger=ledger)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "side": self.side,
            "vit": self.vit,
            "vit_max": self.vit_max,
            "effects": [effect.to_dict() for effect in self.effects],
            "sheet": dict(self.sheet),
        }
        if self.ledger:
            data["ledger"] = dict(self.ledger)
        if self.cc_immune:
            data["cc_immune"] = True
        if self.cc_seen:
            data["cc_seen"] = True
        if self.resist_immune:
            data["resist_immune"] = list(self.resist_immune)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Combatant:
        return cls(
            side=data["side"],
            vit=int(data["vit"]),
            vit_max=int(data["vit_max"]),
            sheet=data["sheet"],
            effects=tuple(Effect.from_dict(e) for e in data.get("effects", ())),
            ledger=dict(data.get("ledger", {})),
            cc_immune=bool(data.get("cc_immune", False)),
            cc_seen=bool(data.get("cc_seen", False)),
            resist_immune=tuple(data.get("resist_immune", ())),
        )


RESOLVED_KEPT = 64
"""How many resolved hits are remembered against a repeated request. Turns asks once per hit,
and a redelivered request is already dropped by the processed-message record; this is the last
guard, and a bounded one so the state does not grow with the combat."""


def hit_key(action_id: str, hit: int) -> str:
    """The key of one hit of an action: a combo (umh 8.1.1.1.1) is resolved hit by hit, each
    hit in a request of its own, so an action id alone does not name what was resolved."""
    return f"{action_id}#{hit}"


@dataclass(frozen=True)
class CombatCondition:
    """The condition of every combatant of one combat, the last actions resolved, and the
    readings the combat applies (its community's at its start; RECOMMENDED for a state
    written before they were kept)."""

    combat_id: str
    ruleset: str
    participants: Mapping[str, Combatant]
    resolved_actions: tuple[str, ...] = field(default=())
    readings: UmhReadings = RECOMMENDED

    def has_resolved(self, action_id: str, hit: int) -> bool:
        """Whether this hit of the action was resolved already (a repeated request)."""
        return hit_key(action_id, hit) in self.resolved_actions

    def after_action(
        self, action_id: str, hit: int, changed: Mapping[str, Combatant]
    ) -> CombatCondition:
        """The condition once hit ``hit`` of ``action_id`` is resolved with the ``changed``
        combatants."""
        return replace(
            self,
            participants={**self.participants, **changed},
            resolved_actions=(*self.resolved_actions, hit_key(action_id, hit))[-RESOLVED_KEPT:],
        )

    def updated(self, changed: Mapping[str, Combatant]) -> CombatCondition:
        """The condition with ``changed`` combatants (ticks, regenerations, joins)."""
        return replace(self, participants={**self.participants, **changed})

    def to_dict(self) -> dict[str, Any]:
        return {
            "combat_id": self.combat_id,
            "ruleset": self.ruleset,
            "participants": {cid: c.to_dict() for cid, c in self.participants.items()},
            "resolved_actions": list(self.resolved_actions),
            "readings": self.readings.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CombatCondition:
        return cls(
            combat_id=data["combat_id"],
            ruleset=data["ruleset"],
            participants={cid: Combatant.from_dict(c) for cid, c in data["participants"].items()},
            resolved_actions=tuple(data.get("resolved_actions", ())),
            readings=UmhReadings.from_dict(data.get("readings")),
        )


def entering_combatant(side: str, sheet: Mapping[str, Any]) -> Combatant:
    """umh 1.2.1: a combatant enters on his side with his full VIT (the sheet's stats.vit)."""
    vit = UmhSheet.model_validate(sheet).stats.vit
    return Combatant(side=side, vit=vit, vit_max=vit, sheet=sheet)


def condition_at_start(payload: Mapping[str, Any], readings: UmhReadings) -> CombatCondition:
    """umh 1.2.1-1.2.2: everyone on both sides of ``combat.started``, at full VIT, under the
    combat's ``readings``.

    Raises ``ValueError`` when a participant has no sheet or stands on both sides (the
    turns service refuses both before a combat starts, so this is a broken contract).
    """
    sheets: Mapping[str, Mapping[str, Any]] = payload["sheets"]
    participants: dict[str, Combatant] = {}
    for side in SIDES:
        for character in payload["sides"].get(side, ()):
            if character in participants:
                raise ValueError(f"{character} is listed twice in combat.started")
            if character not in sheets:
                raise ValueError(f"combat.started has no sheet for {character}")
            participants[character] = entering_combatant(side, sheets[character])
    return CombatCondition(
        combat_id=payload["combat_id"],
        ruleset=payload["ruleset"],
        participants=participants,
        readings=readings,
    )
