"""Skills in doubt (umh 1.1.5: "ante la duda no se puede").

A skill of a private document whose effect is in doubt during the combat is applied the way
least favourable to its user until a moderator rules: the referee refuses it
(``ability_disputed``). A sheet may bring a skill already disputed (``disputed: true``); a
moderator opens or closes a dispute mid-combat with the ``dispute`` action.
"""

from __future__ import annotations

from services.turns.domain.umh.events import SKILL_DISPUTED
from services.turns.domain.umh.participant import Participant, SkillInfo
from services.turns.domain.umh.state import CombatState
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.rulesets.umh.actions import DisputeAction
from shared.vocabulary import Phase

RULE = "umh 1.1.5"


def check(player: Participant, skill: SkillInfo) -> None:
    """Refuse a skill while it is disputed."""
    if skill.disputed:
        raise RuleViolation("ability_disputed", RULE, skill=skill.name)


def dispute(state: CombatState, out: Outcome, action: DisputeAction) -> None:
    """A moderator's word: the skill is in doubt (refused) or ruled usable again."""
    if state.phase == Phase.ENDED:
        raise RuleViolation("wrong_phase", RULE, phase=state.phase)
    player = state.participant(action.actor)
    key = action.skill.casefold()
    raw = player.skills.get(key)
    if raw is None:
        raise RuleViolation("unknown_skill", RULE, skill=action.skill)
    raw["disputed"] = action.disputed
    out.emit(
        SKILL_DISPUTED,
        {"character": action.actor, "skill": str(raw["name"]), "disputed": action.disputed},
    )
