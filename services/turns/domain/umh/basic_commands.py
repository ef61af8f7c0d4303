"""Basic commands of the own turn (umh 2.3.2.1 moving, 2.3.3 PASO TURNO, 11.5.2 Levantarse).

Basic commands are not skills: no PA, no per-round limit (umh 2.3.1.4).
"""

from __future__ import annotations

from services.turns.domain.umh import conditions, interference, rulechecks, terrain
from services.turns.domain.umh.acting import INTERFERENCE, acting_context
from services.turns.domain.umh.events import COMBATANT_MOVED, COMBATANT_STOOD_UP
from services.turns.domain.umh.flow import end_turn
from services.turns.domain.umh.progress import move_on
from services.turns.domain.umh.reactions import declare_use
from services.turns.domain.umh.state import CombatState, TurnEnd
from shared.actions_base import PassTurnAction
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.rulesets.umh.actions import MoveAction, StandUpAction
from shared.vocabulary import Phase

STAND_UP = "stand_up"
"""The name *Levantarse* goes by in ``action.declared`` (services/resolution ends the
knockdown on it)."""


def move(state: CombatState, out: Outcome, action: MoveAction) -> None:
    """umh 2.3.2.1 / 2.5.3.1 / 2.5.4: move on the grid, 1 speed per square in the combat's
    grid metric (A-61: Chebyshev; a setting: Manhattan).

    Order: phase (2.1.1); own or free interference turn, no defense pending (2.4.1,
    2.4.2, 2.5.3.2); conditions (11.4.1, 11.4.2, 11.5.2, 11.5.1); a square to move from
    (the combat has a grid, ``invalid_target``); the destination free, not an obstacle of the
    room or kept on the terrain, inside the room (11.6.1, 4.1.5.1); the speed
    left (``insufficient_speed``: a VEL below 1 cannot pay a square, A-22, unless the
    combat's reading raises it to 1). Speed comes back at the next round, also the speed
    spent in an interference turn (2.5.4).
    """
    if state.phase != Phase.FIGHTING:
        raise RuleViolation("wrong_phase", "umh 2.3.2", phase=state.phase)
    context = acting_context(state, action.actor)
    if context == INTERFERENCE:
        interference.check_move(state)
    player = state.participants[action.actor]
    conditions.check_move(player)
    here = state.positions.get(action.actor)
    if here is None:
        raise RuleViolation("invalid_target", "umh 2.3.2.1", reason="no square on the grid")
    to = [action.to[0], action.to[1]]
    taken = [c for c, sq in state.positions.items() if sq == to and c != action.actor]
    if any(state.participants[c].in_fight for c in taken):
        raise RuleViolation("invalid_target", "umh 11.6.1", square=to, occupied_by=taken[0])
    terrain.check_free(state, to)
    cost = rulechecks.squares_apart(state, here, to)
    if cost > player.movement_left:
        raise RuleViolation(
            "insufficient_speed", "umh 2.3.2.1", needed=cost, left=player.movement_left
        )
    player.movement_left -= cost
    state.positions[action.actor] = to
    out.emit(
        COMBATANT_MOVED,
        {
            "character": action.actor,
            "from": list(here),
            "to": to,
            "cost": cost,
            "movement_left": player.movement_left,
            "interference": context == INTERFERENCE,
        },
    )


def pass_turn(state: CombatState, out: Outcome, action: PassTurnAction, now_ms: int) -> None:
    """umh 2.3.3 PASO TURNO: the actor ends his own turn (or his interference turn, 2.5);
    not while a defense is pending (2.4.2)."""
    if state.phase != Phase.FIGHTING:
        raise RuleViolation("wrong_phase", "umh 2.3.3", phase=state.phase)
    context = acting_context(state, action.actor)
    if context == INTERFERENCE:
        interference.close(state, out, "passed")
        move_on(state, out, now_ms)
        return
    end_turn(state, out, now_ms, TurnEnd.PASSED)


def stand_up(state: CombatState, out: Outcome, action: StandUpAction, action_id: str) -> None:
    """umh 11.5.2 *Levantarse*: the knocked-down player stands up in his own turn; stunned
    or paralysed players cannot (11.4.1, 11.4.2). Not knocked down: ``wrong_phase``."""
    if state.phase != Phase.FIGHTING:
        raise RuleViolation("wrong_phase", "umh 11.5.2", phase=state.phase)
    acting_context(state, action.actor)
    player = state.participants[action.actor]
    blocks = player.blocks()
    if conditions.KNOCKED_DOWN not in blocks:
        raise RuleViolation("wrong_phase", "umh 11.5.2", reason="not knocked down")
    if conditions.STUN in blocks:
        raise RuleViolation("stunned", "umh 11.4.1")
    if conditions.PARALYSIS in blocks:
        raise RuleViolation("paralyzed", "umh 11.4.2")
    ended = conditions.stand_up(player)
    out.emit(COMBATANT_STOOD_UP, {"character": action.actor, "effects": ended})
    declare_use(out, action_id, action.actor, STAND_UP, state.round, None)
