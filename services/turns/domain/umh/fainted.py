"""Fainted: no climbing until one own turn has passed (umh 11.4.1.1 / A-92).

While fainted he is stunned (11.4.1: no action at all). Once the faint ends he still may
not rise to alzada or voladora by his own skills until he has completed one own turn that
started after it ended; then the mark is gone.
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.umh.participant import Participant, SkillInfo
from shared.errors import RuleViolation

FAINT = "desmayo"
RAISED = frozenset({"alzada", "voladora"})


def faint_ended(player: Participant, payload: dict[str, Any], turn_seq: int) -> None:
    """``effect.expired`` of a faint during the combat's turn ``turn_seq``: he stays on the
    ground until an own turn that starts after it has passed."""
    if payload.get("type") == FAINT:
        player.grounded_after_turn = turn_seq


def turn_over(player: Participant, turn_seq: int) -> None:
    """The end of his own turn ``turn_seq``: one that started after the faint lifts it."""
    mark = player.grounded_after_turn
    if mark is not None and turn_seq > mark:
        player.grounded_after_turn = None


def check_climb(player: Participant, skill: SkillInfo) -> None:
    """umh 11.4.1.1 / A-92: no skill that raises him to alzada or voladora meanwhile."""
    if player.grounded_after_turn is not None and skill.sets_position in RAISED:
        raise RuleViolation("fainted_no_climb", "umh 11.4.1.1", skill=skill.name)
