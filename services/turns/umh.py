"""The umh ruleset of services/turns (seed 000): a thin adapter over ``domain/``."""

from __future__ import annotations

from typing import Any

from services.turns.domain import actions, opening, resolved, timers, view
from services.turns.ruleset import State, TurnsRuleset
from shared.domain import Decision
from shared.payloads import ActOnCombat, StartCombat, TimerFired


class UmhTurns:
    """``TurnsRuleset`` for umh: opening, turn order, turn / defense / preparation timers."""

    name: str = "umh"

    def start(self, cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
        return opening.start(cmd, tenant=tenant, room=room, now_ms=now_ms)

    def act(self, state: State, cmd: ActOnCombat, *, now_ms: int) -> Decision[State]:
        return actions.act(state, cmd, now_ms)

    def on_timer(self, state: State, timer: TimerFired, *, now_ms: int) -> Decision[State]:
        return timers.on_timer(state, timer, now_ms)

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        return resolved.on_event(state, event_type, payload, now_ms)

    def view(self, state: State) -> dict[str, Any]:
        return view.view(state)

    def is_active(self, state: State) -> bool:
        return view.is_active(state)

    def timers(self, state: State) -> dict[str, int]:
        return view.armed_timers(state)


def _conforms() -> TurnsRuleset:
    """Type-level proof (mypy) that ``UmhTurns`` implements ``TurnsRuleset``."""
    return UmhTurns()
