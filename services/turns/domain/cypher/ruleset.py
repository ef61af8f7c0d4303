"""services/turns for cypher (seed 001): initiative, rounds, one action per turn, who may act.

A thin adapter over :mod:`opening`, :mod:`actions`, :mod:`flow` and :mod:`view`: each entry
point parses the stored state once (:class:`CypherCombat`), works on it and dumps it once.
services/turns keeps every combatant's condition (pools, track, special damage) because it
decides who may act; services/resolution computes each action and answers
``action.resolved`` with the new conditions, which are copied here before the turn ends.
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.cypher import actions, declared, opening, resuming, view
from services.turns.domain.cypher.flow import check_end, end_turn
from services.turns.domain.cypher.state import CypherCombat, TurnEnd
from services.turns.interface import State, TurnsRuleset
from shared.domain import Decision
from shared.messages import ACTION_COMPLETED, ACTION_RESOLVED, TURN_TIMED_OUT
from shared.outcome import Outcome, arm_timer
from shared.payloads import ActOnCombat, StartCombat, TimerFired
from shared.rulesets.cypher.conditions import GONE, Condition

PENDING_GRACE_MS = 5000


def on_resolved(state: CypherCombat, payload: dict[str, Any], now_ms: int) -> Decision[State]:
    """``action.resolved``: the new conditions; then the turn ends (or the combat)."""
    pending = state.turn.pending if state.turn else None
    if state.ended or pending is None or pending.action_id != payload.get("action_id"):
        return Decision(None)
    out = Outcome()
    for character, cond in payload.get("conditions", {}).items():
        if character in state.participants:
            state.participants[character] = Condition.parse(cond)
    declared.used(state, payload)
    turn = state.current_turn()
    turn.pending = None
    completed = {"action_id": pending.action_id, "attacker": payload.get("attacker")}
    out.emit(ACTION_COMPLETED, completed)
    if pending.ends_turn:
        end_turn(state, out, now_ms, TurnEnd.ACTED)
    elif not check_end(state, out, now_ms) and state.participants[turn.actor].status in GONE:
        end_turn(state, out, now_ms, TurnEnd.DOWN)
    return out.decision(state)


def on_timer(state: CypherCombat, timer: TimerFired, now_ms: int) -> Decision[State]:
    """The turn clock (the community's ``turn_seconds``, 5 minutes by default): the turn
    passes. Stale: nothing; while a resolution is in flight, the clock waits a little more."""
    turn = state.turn
    if state.ended or timer.kind != "turn" or turn is None or timer.timer_id != turn.timer_id:
        return Decision(None)
    out = Outcome()
    state.timers.pop(timer.timer_id, None)
    turn.timer_id = None
    if turn.pending is not None:
        due = now_ms + PENDING_GRACE_MS
        turn.timer_id = arm_timer(state, out, "turn", due, dict(timer.data))
        turn.deadline_ms = due
        return out.decision(state)
    out.emit(
        TURN_TIMED_OUT, {"actor": turn.actor, "round": state.round, "turn_seq": state.turn_seq}
    )
    end_turn(state, out, now_ms, TurnEnd.TIMEOUT)
    return out.decision(state)


class CypherTurns:
    name: str = "cypher"

    def start(self, cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
        return opening.start(cmd, tenant=tenant, room=room, now_ms=now_ms)

    def act(self, state: State, cmd: ActOnCombat, *, now_ms: int) -> Decision[State]:
        return actions.act(CypherCombat.parse(state), cmd, now_ms)

    def on_timer(self, state: State, timer: TimerFired, *, now_ms: int) -> Decision[State]:
        return on_timer(CypherCombat.parse(state), timer, now_ms)

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        if event_type == ACTION_RESOLVED and payload.get("ruleset") == self.name:
            return on_resolved(CypherCombat.parse(state), payload, now_ms)
        return Decision(None)

    def view(self, state: State) -> dict[str, Any]:
        return view.view(CypherCombat.parse(state))

    def is_active(self, state: State) -> bool:
        return not CypherCombat.parse(state).ended

    def timers(self, state: State) -> dict[str, int]:
        return {tid: t.due_ms for tid, t in CypherCombat.parse(state).timers.items()}

    def stalled(self, state: State, quiet_ms: int) -> str | None:
        found = resuming.stall(CypherCombat.parse(state), quiet_ms)
        return found.value if found is not None else None


def _conforms() -> TurnsRuleset:
    return CypherTurns()
