"""Teleports (umh 7.1.1 Teletransportadora, 7.1.1.1).

A teleport skill may name where it takes its user (``to``, a free square of the grid, and
``height``): he gets there without spending speed once the skill resolves (annulled or
anticipated, he stays). Teleported to alzada or voladora, he is back on the ground, with
no damage, once he has done one action up there (his next skill that completes). It needs
no displacement, so immobilisation and knockdown do not stop it (7.1.1.1, conditions).
"""

from __future__ import annotations

from services.turns.domain.umh import approach, terrain
from services.turns.domain.umh.events import POSITION_CHANGED
from services.turns.domain.umh.inflight import InFlight
from services.turns.domain.umh.participant import SkillInfo
from services.turns.domain.umh.state import CombatState
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.rulesets.umh.actions import SkillAction

RULE = "umh 7.1.1 Teletransportadora"
GROUND = "suelo"


def check(state: CombatState, action: SkillAction, skill: SkillInfo) -> None:
    """Only a teleport names a destination; a square needs the grid and must be free (no
    fighter, no obstacle, inside the room: 11.6.1)."""
    if action.to is None and action.height is None:
        return
    if not skill.teleport:
        raise RuleViolation("invalid_request", RULE, skill=skill.name, reason="not a teleport")
    if action.to is None:
        return
    if state.positions.get(action.actor) is None:
        raise RuleViolation("invalid_target", "umh 2.3.2.1", reason="no square on the grid")
    to = [action.to[0], action.to[1]]
    taken = [c for c, sq in state.positions.items() if sq == to and c != action.actor]
    if any(state.participants[c].in_fight for c in taken):
        raise RuleViolation("invalid_target", "umh 11.6.1", square=to, occupied_by=taken[0])
    terrain.check_free(state, to)


def _moved(state: CombatState, out: Outcome, who: str) -> None:
    square = state.positions.get(who)
    out.emit(
        POSITION_CHANGED,
        {
            "character": who,
            "square": list(square) if square else None,
            "height": state.heights.get(who, GROUND),
            "rule": RULE,
        },
    )


def complete(state: CombatState, out: Outcome, action: InFlight, cancelled: bool) -> None:
    """An action of his completed: back on the ground if a teleport had left him up high
    and this was his action there; then this teleport, if it resolved, takes him."""
    who = action.attacker
    if who in state.aloft:
        state.aloft.remove(who)
        if state.heights.get(who, GROUND) != GROUND:
            state.heights[who] = GROUND
            approach.settle(state, who)
            _moved(state, out, who)
    if cancelled or (action.teleport_to is None and action.teleport_height is None):
        return
    if action.teleport_to is not None:
        state.positions[who] = list(action.teleport_to)
    if action.teleport_height is not None:
        state.heights[who] = action.teleport_height
    approach.settle(state, who)
    if state.heights.get(who, GROUND) != GROUND:
        state.aloft.append(who)
    _moved(state, out, who)
