"""umh 8.1.1.3.1: a defense that covers allies in its reach defends a target who did not
answer the hit himself; the ally who raised it paid for it in services/turns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from services.resolution.domain.umh.condition import CombatCondition
from services.resolution.domain.umh.hit import Reaction
from shared.payloads import Position
from shared.rulesets.umh.grid import distance
from shared.rulesets.umh.sheet import DefenseKind

if TYPE_CHECKING:
    from services.resolution.domain.umh.resolve import ActionRequest

COVERING_KINDS = (DefenseKind.EXTERNAL, DefenseKind.INTERNAL)


def covering(
    condition: CombatCondition,
    request: ActionRequest,
    target_id: str,
    targets: Sequence[str],
) -> Reaction | None:
    """The first defense of a non-target ally that covers ``target_id``: a numeric defense
    (external or internal) marked ``covers_allies``, within its reach of the target when
    both stand on the grid (squares in the combat's metric, A-61). ``None`` if there is none.
    """
    here = request.positions.get(target_id)
    for who, reaction in request.reactions.items():
        if who in targets or not reaction.reacted or reaction.skill is None:
            continue
        ally = condition.participants.get(who)
        if ally is None:
            continue
        defense = ally.parsed_sheet().skill(reaction.skill)
        if defense is None or not defense.covers_allies:
            continue
        if defense.defense_kind not in COVERING_KINDS:
            continue
        if not in_reach(condition, here, request.positions.get(who), defense.reach):
            continue
        return Reaction(skill=defense.name, covered_by=who, lent=defense)
    return None


def in_reach(
    condition: CombatCondition, a: Position | None, b: Position | None, reach: int
) -> bool:
    """Within ``reach`` squares, or off the grid (nothing to measure)."""
    if a is None or b is None or a.square is None or b.square is None:
        return True
    return distance(a.square, b.square, condition.readings.metric) <= reach
