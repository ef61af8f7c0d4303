"""Hazards kept on the terrain (umh 4.1.5.1, 11.3.3, 8.1.1.3.1.2): services/turns names, in
``turn.started``, the hazards its actor starts his turn on; each deals its damage once.

Reading: the damage of a hazard is indirect damage. The skill was performed and its effect
"landed" on the terrain (4.1.5.1 lists terrain skills beside indirect damage); nobody is
performing a skill at the start of someone else's turn, so there is nothing to react to
(8.1.1.3.1.2: no defense against indirect damage), and indirect damage is the damage the
seed applies "al principio de cada turno" (11.3.3). It comes straight off VIT (11.2.1),
only an immunity to its nature lowers it (9.5, A-37). A redelivered ``turn.started`` is
dropped by the processed record, so each turn start hurts once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Final

from services.resolution.domain.umh.condition import CombatCondition
from services.resolution.domain.umh.nature_rules import immunity_cut
from shared.messages import COMBATANT_DOWN, Event
from shared.payloads import CombatantDown

TERRAIN_HURT: Final = "terrain.hurt"
"""umh 11.3.3: a hazard kept on the terrain hurt whoever started his turn on it."""


def hazards_hit(
    condition: CombatCondition, actor: str, hazards: Sequence[dict[str, Any]]
) -> tuple[CombatCondition, list[Event]]:
    """umh 11.3.3 / 4.1.5.1: each hazard under ``actor`` at his turn's start hurts him once."""
    combatant = condition.participants.get(actor)
    if combatant is None or combatant.is_down or not hazards:
        return condition, []
    immunities = [n.value for n in combatant.parsed_sheet().immunities]
    events: list[Event] = []
    for hazard in hazards:
        nature = hazard.get("nature")
        cut = immunity_cut([nature], immunities, condition.readings) if nature else 0
        amount = math.floor(int(hazard.get("damage", 0)) * (1 - cut))
        before = combatant.vit
        combatant = combatant.with_vit(before - amount)
        hurt = {
            "character": actor,
            "terrain_id": hazard.get("terrain_id"),
            "keeper": hazard.get("keeper"),
            "skill": hazard.get("skill"),
            "damage": before - combatant.vit,
            "vit_before": before,
            "vit_after": combatant.vit,
            "rule": "umh 11.3.3",
        }
        events.append(Event(TERRAIN_HURT, hurt))
        if combatant.is_down:
            down = CombatantDown(character=actor, by=hazard.get("keeper"), cause="indirect")
            events.append(Event(COMBATANT_DOWN, down.model_dump(mode="json")))
            break
    return condition.updated({actor: combatant}), events
