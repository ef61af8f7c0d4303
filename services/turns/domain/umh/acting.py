"""Who may act now (umh 2.3.1, 2.4.1, 2.4.2, 2.5.1): the context of an action.

``own``: the current actor in his own turn; ``interference``: the holder of the open
interference turn (2.5); ``other``: anyone using a skill that says it can be used outside
his own turn (2.4.1, ``out_of_turn``).
"""

from __future__ import annotations

from typing import Final, Literal

from services.turns.domain.umh.participant import Participant, SkillInfo
from services.turns.domain.umh.state import CombatState
from shared.errors import RuleViolation

OWN: Final = "own"
INTERFERENCE: Final = "interference"
OTHER: Final = "other"
Context = Literal["own", "interference", "other"]


def acting_context(state: CombatState, actor: str, skill: SkillInfo | None = None) -> Context:
    """umh 2.4.1 / 2.5.1 / 2.4.2: in whose turn ``actor`` acts, or ``not_your_turn``; nobody
    acts while a defense window is pending (``reaction_pending``)."""
    context: Context | None = None
    interference = state.interference
    if interference is not None and interference.holder == actor:
        context = INTERFERENCE
    elif interference is None and state.turn is not None and state.turn.actor == actor:
        context = OWN
    elif skill is not None and skill.out_of_turn:
        context = OTHER
    if context is None:
        if interference is not None:
            raise RuleViolation("not_your_turn", "umh 2.5.1", current=interference.holder)
        current = state.turn.actor if state.turn else None
        raise RuleViolation("not_your_turn", "umh 2.4.1", current=current)
    if state.awaiting_defense():
        raise RuleViolation("reaction_pending", "umh 2.4.2")
    return context


def known_skill(actor: Participant, name: str, rule: str) -> SkillInfo:
    """umh 3.1.2: a skill of the actor's sheet, by case-insensitive name."""
    skill = actor.skill(name)
    if skill is None:
        raise RuleViolation("unknown_skill", rule, skill=name)
    return skill
