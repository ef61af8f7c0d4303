"""A combatant's condition in a cypher combat (pools or health, track, special damage), as
services/turns keeps it and services/resolution changes it (seed 001 DAÑO, INDICADOR).

:class:`Condition` is a pydantic model: its JSON form (``to_dict``, field order kept) is the
one the ``conditions`` of ``combat.started``, ``resolution.requested``, ``action.resolved``
and ``combat.ended`` carry; :meth:`Condition.parse` reads it back (a field missing from an
older state takes its default).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from shared.rulesets.cypher.damage import DEAD_STEP, STATS, Track, track_name, track_step
from shared.rulesets.cypher.sheet import CypherSheet, Pools, Stat
from shared.vocabulary import Side


class Status(StrEnum):
    """001 INDICADOR: where the track left him (impaired still fights); or fled."""

    ACTIVE = "active"
    DEBILITATED = "debilitated"
    DEAD = "dead"
    FLED = "fled"


OUT_OF_FIGHT = frozenset({Status.DEAD, Status.DEBILITATED, Status.FLED})
"""A side all of whose members are here has lost (001 INDICADOR incapacitado: this referee's
reading)."""

GONE = frozenset({Status.DEAD, Status.FLED})
"""No turn any more, no target any more."""


class Condition(BaseModel):
    """One combatant: a PC's pools (and maxima) or an NPC's health, Armor, the track, the
    special damage he carries (dazed turns, stunned, paralysed, steps, B-5, B-15, B-18), the
    rests he took (B-10)."""

    model_config = ConfigDict(extra="ignore")

    kind: Literal["pc", "npc"]
    side: Side
    pools: Pools | None = None
    pools_max: Pools | None = None
    health: int | None = None
    health_max: int | None = None
    armor: int = 0
    special_steps: int = 0
    track: int = 0
    track_name: Track = Track.UNHURT
    status: Status = Status.ACTIVE
    dazed_turns: int = 0
    stunned: bool = False
    paralyzed: bool = False
    rests_taken: int = 0
    recovered_this_combat: bool = False
    rested_today: int = 0

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Condition:
        return cls.model_validate(data)

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @property
    def impaired(self) -> bool:
        """001 INDICADOR lesionado: one step down (or more)."""
        return self.track >= 1

    @property
    def dazed(self) -> bool:
        """B-18: dazed (desorientado) for some turns still."""
        return self.dazed_turns > 0

    def pool(self, stat: str) -> int:
        return 0 if self.pools is None else self.pools.of(stat)

    def pools_at_zero(self) -> list[Stat]:
        return [s for s in STATS if self.pool(s) <= 0]

    def set_pool(self, stat: Stat, value: int) -> None:
        assert self.pools is not None
        self.pools = self.pools.model_copy(update={stat: value})

    def refresh(self) -> None:
        """Track and status from the pools (B-5, B-6) or health: dead at step 3 / health 0,
        debilitated at step 2 (001 INDICADOR). A fled combatant stays fled."""
        if self.kind == "npc":
            self.track = DEAD_STEP if (self.health or 0) <= 0 else 0
        else:
            assert self.pools is not None
            self.track = track_step(self.pools, self.special_steps)
        self.track_name = track_name(self.track)
        if self.status == Status.FLED:
            return
        if self.track >= DEAD_STEP:
            self.status = Status.DEAD
        elif self.track == 2:
            self.status = Status.DEBILITATED
        else:
            self.status = Status.ACTIVE


def initial(sheet: CypherSheet, side: Side) -> Condition:
    """The condition a sheet starts a combat with: its current pools (else full), its health."""
    if sheet.kind == "npc":
        health = int(sheet.health or 1)
        cond = Condition(kind="npc", side=side, health=health, health_max=health)
    else:
        assert sheet.pools is not None
        cond = Condition(kind="pc", side=side, pools=sheet.current or sheet.pools)
        cond.pools_max = sheet.pools
    cond.armor = sheet.armor
    cond.refresh()
    return cond


def conditions_of(data: dict[str, Any]) -> dict[str, Condition]:
    """Every combatant's condition from its JSON form (a payload's ``conditions``)."""
    return {character: Condition.parse(cond) for character, cond in data.items()}


def dumped(conditions: dict[str, Condition]) -> dict[str, dict[str, Any]]:
    """The JSON form of every combatant's condition, in order."""
    return {character: cond.to_dict() for character, cond in conditions.items()}
