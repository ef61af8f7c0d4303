"""services/turns for l5r (seed 004): a thin adapter over the modules of this package.

Opening and preparation (``opening``), initiative, rounds, turns, Curso de combate and the
end (``flow``), who may act and how (``acting``, ``in_turn``, ``moving``, ``attack``,
``complex``, ``voiding``), what a hit leaves (``wounds``), the pure rules (``rules``) and the
read model (``view``). Each entry point parses the stored state once (:class:`L5rCombat`)
and dumps it once.
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import acting, flow, opening, resuming, view, wounds
from services.turns.domain.l5r.fighter import GolpeFinal
from services.turns.domain.l5r.state import L5rCombat, TurnEnd
from services.turns.interface import State, TurnsRuleset
from shared.domain import Decision
from shared.messages import ACTION_RESOLVED
from shared.outcome import Outcome
from shared.payloads import ActOnCombat, StartCombat, TimerFired


class L5rTurns:
    name: str = "l5r"

    def start(self, cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
        state, out = opening.start(cmd, tenant=tenant, room=room, now_ms=now_ms)
        return out.decision(state)

    def act(self, state: State, cmd: ActOnCombat, *, now_ms: int) -> Decision[State]:
        combat = L5rCombat.parse(state)
        return acting.act(combat, cmd, now_ms).decision(combat)

    def on_timer(self, state: State, timer: TimerFired, *, now_ms: int) -> Decision[State]:
        combat = L5rCombat.parse(state)
        out = flow.on_timer(combat, timer.timer_id, now_ms)
        return Decision(None) if out is None else out.decision(combat)

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        """``action.resolved`` of this combat's pending attack: its wounds and effects; a
        Golpe final's one action ends that turn (G23)."""
        if event_type != ACTION_RESOLVED or payload.get("ruleset") != "l5r":
            return Decision(None)
        combat = L5rCombat.parse(state)
        out = Outcome()
        if not wounds.resolved(combat, out, payload):
            return Decision(None)
        actor = str(payload.get("attacker"))
        p = combat.participants.get(actor)
        turn = combat.turn
        if turn and turn.actor == actor and p and p.golpe_final == GolpeFinal.PENDING:
            flow.end_turn(combat, out, now_ms, TurnEnd.GOLPE_FINAL)
        return out.decision(combat)

    def view(self, state: State) -> dict[str, Any]:
        return view.view(L5rCombat.parse(state))

    def is_active(self, state: State) -> bool:
        return not L5rCombat.parse(state).ended

    def timers(self, state: State) -> dict[str, int]:
        return {tid: t.due_ms for tid, t in L5rCombat.parse(state).timers.items()}

    def stalled(self, state: State, quiet_ms: int) -> str | None:
        found = resuming.stall(L5rCombat.parse(state), quiet_ms)
        return found.value if found is not None else None


def _conforms() -> TurnsRuleset:
    """Type-level proof (mypy) that ``L5rTurns`` implements ``TurnsRuleset``."""
    return L5rTurns()
