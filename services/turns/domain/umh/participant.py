"""One combatant as services/turns keeps him: his skills, counters and mirrored conditions.

Everything here is plain data with its JSON form; the rules that change it live in the
modules named after them (``economy``, ``limits``, ``conditions``, ``leaving``...).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

from shared.payloads import EffectView
from shared.vocabulary import PublicStatus

Side = Literal["attackers", "defenders"]
JSON = Any

ACTIVE: Final = PublicStatus.ACTIVE
DOWN: Final = PublicStatus.DOWN
FLED: Final = PublicStatus.FLED
DISCONNECTED: Final = PublicStatus.DISCONNECTED


def clone(value: JSON) -> JSON:
    """A copy of a JSON-ready value that shares no container with it (faster than deepcopy)."""
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


@dataclass
class SkillInfo:
    """What turns needs to know of a skill of the sheet (umh 2.3 - 2.5, 3, 8.1, 8.2)."""

    name: str
    pa: int
    type: str
    defense_kind: str | None = None
    hits: int = 1
    area: str | None = None
    cooldown_rounds: int = 0
    uses_per_round: int = 1
    uses_per_combat: int | None = None
    uses_per_week: int | None = None
    raises_slots: int = 0
    flight: bool = False
    flight_cooldown_hours: float | None = None
    joins_combat: bool = False
    grants_interference: str | None = None
    interference_skill: str | None = None
    out_of_turn: bool = False
    preparation: bool = False
    requires_preparation: str | None = None
    telepathic: bool = False
    speech: bool = False
    needs_legs: bool = False
    sets_position: str | None = None
    teleport: bool = False
    covers_allies: bool = False
    melee: bool = False
    physical_preparation: bool = False
    disputed: bool = False
    reach: int = 1
    precognition: bool = False
    reactable_times: int = 1
    terrain: dict[str, Any] | None = None
    """umh 4.1.5.1: what it keeps on the squares its action names (the sheet's ``terrain``)."""
    passive: bool = False

    @property
    def key(self) -> str:
        """The case-insensitive name every per-skill counter is keyed by."""
        return self.name.casefold()

    @property
    def offensive(self) -> bool:
        return self.type == "offensive"

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SkillInfo:
        try:
            return cls(**d)
        except TypeError:  # a state written by another version: keep the known fields
            known = {f.name for f in fields(cls)}
            return cls(**{k: v for k, v in d.items() if k in known})


@dataclass(frozen=True)
class Mirrored:
    """An effect resolution put on him, as ``effect.applied`` told turns: the effect and what
    it forbids him (``EffectApplied.blocks``, umh 11.4, 11.5)."""

    effect: EffectView
    blocks: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"effect": self.effect.model_dump(mode="json"), "blocks": list(self.blocks)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Mirrored:
        return cls(EffectView.model_validate(d["effect"]), tuple(d.get("blocks", ())))


@dataclass
class Participant:
    """One combatant: side, status and every counter turns owns (umh 1.2, 2.3, 3, 4.3.3).

    ``pa`` is the round's pool; ``bonus_pa`` the lone fighter's bucket of the current own
    turn (umh 1.2.6.2, A-15), spent first and lost at the end of that turn.
    ``cooldowns`` maps a skill key to the first round it may be used again (A-19).
    ``effects`` mirrors resolution's ``effect.applied``: effect id -> {effect, blocks}.
    ``reaction_uses`` counts the uses in this combat of every skill with a per-combat limit
    (annulments, anticipations, reflections, umh 2.3.4.1; or ``uses_per_combat``).
    """

    side: Side
    vel: float
    pa: int
    movement_left: float
    joined_seq: int
    skills: dict[str, dict[str, Any]]
    status: PublicStatus = ACTIVE
    reached_zero_vit: bool = False
    cooldowns: dict[str, int] = field(default_factory=dict)
    uses: dict[str, int] = field(default_factory=lambda: {"annul_anticipate": 0})
    sheet: dict[str, Any] = field(default_factory=dict)  # immutable snapshot
    bonus_pa: int = 0
    own_turns: int = 0
    zero_pa_actions: int = 0
    offensive_1pa: int = 0
    used_round: dict[str, int] = field(default_factory=dict)
    reaction_uses: dict[str, int] = field(default_factory=dict)
    weekly_uses: dict[str, int] = field(default_factory=dict)
    weekly_week: str | None = None
    effects: dict[str, Mirrored] = field(default_factory=dict)
    joined_at_ms: int = 0
    joined_round: int = 0
    via: str | None = None
    late: bool = False
    ready: bool = False
    disconnected_at_ms: int | None = None
    grace_deadline_ms: int | None = None
    grace_over: bool = False
    grounded_after_turn: int | None = None  # umh 11.4.1.1: the turn_seq a faint ended in

    # --- who he is in the fight ----------------------------------------------------------
    @property
    def active(self) -> bool:
        """He may act: standing and connected (docs/api.md status ``active``)."""
        return self.status == ACTIVE

    @property
    def in_fight(self) -> bool:
        """He still counts for his side and keeps his turns: active, or disconnected within
        the grace (umh 4.3.3, A-58: his turns and windows still run and expire)."""
        return self.status == ACTIVE or (self.status == DISCONNECTED and not self.grace_over)

    @property
    def pa_available(self) -> int:
        return self.pa + self.bonus_pa

    def skill(self, name: str) -> SkillInfo | None:
        """A skill by name, case-insensitively (casefold), like ``UmhSheet.skill``."""
        raw = self.skills.get(name.casefold())
        return SkillInfo.from_dict(raw) if raw is not None else None

    def skill_name(self, key: str) -> str:
        """The sheet's spelling of a skill key (for the combat view)."""
        raw = self.skills.get(key)
        return str(raw["name"]) if raw is not None else key

    def blocks(self) -> set[str]:
        """Everything his mirrored effects forbid (``EffectApplied.blocks``)."""
        return {b for entry in self.effects.values() for b in entry.blocks}

    # --- JSON ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Everything copied, except ``sheet``: the immutable snapshot, shared as is."""
        data = {k: clone(v) for k, v in vars(self).items() if k not in SHARED}
        data["skills"] = {k: dict(v) for k, v in self.skills.items()}
        data["effects"] = {k: v.to_dict() for k, v in self.effects.items()}
        data["sheet"] = self.sheet
        return data

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Participant:
        data = {k: clone(v) for k, v in d.items() if k in FIELDS and k not in SHARED}
        skills = {k: dict(v) for k, v in d["skills"].items()}
        data["status"] = PublicStatus(d.get("status", ACTIVE))
        data["effects"] = {k: Mirrored.from_dict(v) for k, v in d.get("effects", {}).items()}
        return cls(skills=skills, sheet=d.get("sheet", {}), **data)


FIELDS: Final = frozenset(f.name for f in fields(Participant))
SHARED: Final = frozenset({"skills", "sheet", "effects"})
"""``skills`` (flat dicts of :class:`SkillInfo`, parsed when read through
:meth:`Participant.skill`: a state holds many and a message reads few) are copied one level;
``effects`` (:class:`Mirrored`) are parsed and dumped by their class; ``sheet`` (the
snapshot of the sheet the participant entered with) is never changed by any rule, so it is
shared, not copied."""
