"""services/turns for l5r (seed 004): a thin adapter over the modules of this package.

Opening and preparation (``opening``), initiative, rounds, turns, Curso de combate and the
end (``flow``), who may act and how (``acting``, ``attack``, ``complex``, ``voiding``), the
pure rules (``rules``) and the read model (``view``).
"""

from __future__ import annotations

import copy
from typing import Any

from services.turns.domain.l5r import acting, attack, flow, opening, view
from services.turns.interface import State, TurnsRuleset
from shared.dict_state import Out
from shared.domain import Decision
from shared.messages import ACTION_RESOLVED
from shared.payloads import ActOnCombat, StartCombat, TimerFired


class L5rTurns:
    name: str = "l5r"

    def start(self, cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
        state, out = opening.start(cmd, tenant=tenant, room=room, now_ms=now_ms)
        if cmd.dice is not None:
            state["dice"] = copy.deepcopy(cmd.dice)
        return out.decision(state)

    def act(self, state: State, cmd: ActOnCombat, *, now_ms: int) -> Decision[State]:
        new = copy.deepcopy(state)
        out = acting.act(new, cmd, now_ms)
        return out.decision(new)

    def on_timer(self, state: State, timer: TimerFired, *, now_ms: int) -> Decision[State]:
        new = copy.deepcopy(state)
        out = flow.on_timer(new, timer.timer_id, now_ms)
        return Decision(None) if out is None else out.decision(new)

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        """``action.resolved`` of this combat's pending attack: its wounds and effects; a
        Golpe final's one action ends that turn (G23)."""
        if event_type != ACTION_RESOLVED or payload.get("ruleset") != "l5r":
            return Decision(None)
        new = copy.deepcopy(state)
        out = Out()
        if not attack.resolved(new, out, payload):
            return Decision(None)
        actor = str(payload.get("attacker"))
        turn = new.get("turn")
        p = new["participants"].get(actor)
        if turn and turn["actor"] == actor and p and p.get("golpe_final") == "pending":
            flow.end_turn(new, out, now_ms, "golpe_final")
        return out.decision(new)

    def view(self, state: State) -> dict[str, Any]:
        return view.view(state)

    def is_active(self, state: State) -> bool:
        return view.is_active(state)

    def timers(self, state: State) -> dict[str, int]:
        return {tid: int(t["due_ms"]) for tid, t in state["timers"].items()}


def _conforms() -> TurnsRuleset:
    """Type-level proof (mypy) that ``L5rTurns`` implements ``TurnsRuleset``."""
    return L5rTurns()
