"""The umh ruleset of services/turns (seed 000): a thin adapter over ``domain/``."""

from __future__ import annotations

from typing import Any

from services.turns.domain.umh import actions, opening, resolved, resuming, timers, view
from services.turns.interface import State, TurnsRuleset
from shared.domain import Decision
from shared.payloads import ActOnCombat, StartCombat, TimerFired


class UmhTurns:
    """``TurnsRuleset`` for umh (seed 000): who may act, when and at what cost.

    Opening and preparation (umh 1.1, 1.3), joins and vetoes (1.2.3 - 1.2.5), turn order and
    the lone fighter (1.2.6, 2.2), own / other's / interference turns (2.3 - 2.5), action
    points (3), per-round / cooldown / per-combat / weekly limits (2.3.1.3, 2.3.4), defense
    windows of every kind (2.4.2, 8.2), and the end (4.1.1, 4.3.3, 2.3.3.1, 4.2.4); the
    modules of ``domain/`` name each rule.
    """

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

    def stalled(self, state: State, quiet_ms: int) -> str | None:
        return resuming.stalled(state, quiet_ms)


def _conforms() -> TurnsRuleset:
    """Type-level proof (mypy) that ``UmhTurns`` implements ``TurnsRuleset``."""
    return UmhTurns()
