"""A theft in combat (umh 4.2.5): a fighter states what a skill of his stole from an opponent.

Checks, in order: the skill is his (``unknown_skill``) and can steal (``cannot_steal``, its
sheet's ``steals_items``); the target is a participant of the other side
(``invalid_target``). The theft is an ``item.stolen``; services/states decides at the end of
the combat whether he keeps the item (a rival of equal or higher rank) or gives it back.
"""

from __future__ import annotations

from typing import Final

from services.turns.domain.umh.state import CombatState
from shared.carried import ItemStolen
from shared.errors import RuleViolation
from shared.messages import ITEM_STOLEN
from shared.outcome import Outcome
from shared.rulesets.umh.actions import StealAction
from shared.rulesets.umh.sheet import UmhSheet

RULE: Final = "umh 4.2.5"


def steal(state: CombatState, out: Outcome, action: StealAction) -> None:
    """umh 4.2.5: record the theft (see the module docstring for the order of the checks)."""
    thief = state.participants[action.actor]
    skill = UmhSheet.model_validate(thief.sheet).skill(action.skill)
    if skill is None:
        raise RuleViolation("unknown_skill", RULE, skill=action.skill)
    if not skill.steals_items:
        raise RuleViolation("cannot_steal", RULE, skill=skill.name)
    victim = state.participants.get(action.target)
    if victim is None or victim.side == thief.side:
        raise RuleViolation("invalid_target", RULE, target=action.target)
    stolen = ItemStolen(
        character=action.actor,
        target=action.target,
        item=action.item,
        skill=skill.name,
        round=state.round,
    )
    out.emit(ITEM_STOLEN, stolen.model_dump(mode="json"))
