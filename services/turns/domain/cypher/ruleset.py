"""services/turns for cypher (seed 001): initiative, rounds, one action per turn, who may act.

A thin adapter over :mod:`opening`, :mod:`actions` and :mod:`flow`. services/turns keeps
every combatant's condition (pools, track, special damage) because it decides who may act;
services/resolution computes each action and answers ``action.resolved`` with the new
conditions, which are copied here before the turn ends.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

from services.turns.domain.cypher import actions, opening
from services.turns.domain.cypher.flow import PHASE_ENDED, check_end, end_turn, public_status
from services.turns.interface import State, TurnsRuleset
from shared.dict_state import Out, arm_timer
from shared.domain import Decision
from shared.messages import ACTION_COMPLETED, ACTION_RESOLVED, TURN_TIMED_OUT
from shared.payloads import ActOnCombat, StartCombat, TimerFired

PENDING_GRACE_MS = 5000


def rfc3339(at_ms: int | None) -> str | None:
    if at_ms is None:
        return None
    moment = datetime.fromtimestamp(at_ms / 1000, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def on_resolved(state: State, payload: dict[str, Any], now_ms: int) -> Decision[State]:
    """``action.resolved``: the new conditions; then the turn ends (or the combat)."""
    turn = state.get("turn")
    pending = (turn or {}).get("pending")
    if (
        state["phase"] == PHASE_ENDED
        or not pending
        or pending["action_id"] != payload.get("action_id")
    ):
        return Decision(None)
    new = copy.deepcopy(state)
    out = Out()
    for character, cond in payload.get("conditions", {}).items():
        if character in new["participants"]:
            new["participants"][character] = copy.deepcopy(cond)
    new["turn"]["pending"] = None
    out.emit(ACTION_COMPLETED, {"action_id": pending["action_id"]})
    if pending["ends_turn"]:
        end_turn(new, out, now_ms, "acted")
    elif not check_end(new, out, now_ms):
        actor = new["turn"]["actor"]
        if new["participants"][actor]["status"] in ("dead", "fled"):
            end_turn(new, out, now_ms, "down")
    return out.decision(new)


def on_timer(state: State, timer: TimerFired, now_ms: int) -> Decision[State]:
    """The turn clock (the community's ``turn_seconds``, 5 minutes by default): the turn
    passes. Stale: nothing; while a resolution is in flight, the clock waits a little more."""
    turn = state.get("turn")
    if (
        state["phase"] == PHASE_ENDED
        or timer.kind != "turn"
        or turn is None
        or timer.timer_id != turn.get("timer_id")
    ):
        return Decision(None)
    new = copy.deepcopy(state)
    out = Out()
    new["timers"].pop(timer.timer_id, None)
    new["turn"]["timer_id"] = None
    if turn.get("pending"):
        due = now_ms + PENDING_GRACE_MS
        new["turn"]["timer_id"] = arm_timer(new, out, "turn", due, dict(timer.data))
        new["turn"]["deadline_ms"] = due
        return out.decision(new)
    out.emit(
        TURN_TIMED_OUT,
        {"actor": turn["actor"], "round": new["round"], "turn_seq": new["turn_seq"]},
    )
    end_turn(new, out, now_ms, "timeout")
    return out.decision(new)


def view(state: State) -> dict[str, Any]:
    turn = state.get("turn")
    participants = {
        c: {
            "side": p["side"],
            "status": public_status(p["status"]),
            "condition": p["status"],
            "kind": p["kind"],
            "pools": p["pools"],
            "pools_max": p["pools_max"],
            "health": p["health"],
            "health_max": p["health_max"],
            "armor": p["armor"],
            "track": p["track_name"],
            "special_steps": p["special_steps"],
            "dazed_turns": p["dazed_turns"],
            "stunned": p["stunned"],
            "paralyzed": p["paralyzed"],
            "rests_taken": p["rests_taken"],
            "initiative": state["initiative"].get(c),
        }
        for c, p in state["participants"].items()
    }
    return {
        "id": state["id"],
        "tenant": state["tenant"],
        "room": state["room"],
        "ruleset": "cypher",
        "phase": state["phase"],
        "round": state["round"],
        "sides": state["sides"],
        "slots_left": {"attackers": 0, "defenders": 0},
        "turn_order": state["order"],
        "turn": None
        if turn is None
        else {
            "index": state["turn_index"],
            "actor": turn["actor"],
            "deadline": rfc3339(turn["deadline_ms"]),
            "paused_remaining": None,
            "acted": turn["acted"],
            "free_moved": turn["free_moved"],
            "pending_action": (turn.get("pending") or {}).get("action_id"),
        },
        "pending_reactions": [],
        "initiative": state["initiative"],
        "reroll_next_round": state["reroll_next_round"],
        "participants": participants,
        "timers": {tid: rfc3339(t["due_ms"]) for tid, t in state["timers"].items()},
        "created_at": rfc3339(state["created_at_ms"]),
        "ended_at": rfc3339(state.get("ended_at_ms")),
        "result": state["result"],
    }


class CypherTurns:
    name: str = "cypher"

    def start(self, cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
        return opening.start(cmd, tenant=tenant, room=room, now_ms=now_ms)

    def act(self, state: State, cmd: ActOnCombat, *, now_ms: int) -> Decision[State]:
        return actions.act(copy.deepcopy(state), cmd, now_ms)

    def on_timer(self, state: State, timer: TimerFired, *, now_ms: int) -> Decision[State]:
        return on_timer(state, timer, now_ms)

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        if event_type == ACTION_RESOLVED and payload.get("ruleset") == self.name:
            return on_resolved(state, payload, now_ms)
        return Decision(None)

    def view(self, state: State) -> dict[str, Any]:
        return view(state)

    def is_active(self, state: State) -> bool:
        return bool(state.get("phase") != PHASE_ENDED)

    def timers(self, state: State) -> dict[str, int]:
        return {tid: int(t["due_ms"]) for tid, t in state.get("timers", {}).items()}


def _conforms() -> TurnsRuleset:
    return CypherTurns()
