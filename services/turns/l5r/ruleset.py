"""services/turns for l5r: to be built; until then every input is ``not_implemented``."""

from __future__ import annotations

from typing import Any

from services.turns.ruleset import State
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.payloads import ActOnCombat, StartCombat, TimerFired

RULE = "l5r (RULES.md section 4)"


class L5rTurns:
    name: str = "l5r"

    def start(self, cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
        raise RuleViolation("not_implemented", RULE, ruleset=self.name)

    def act(self, state: State, cmd: ActOnCombat, *, now_ms: int) -> Decision[State]:
        raise RuleViolation("not_implemented", RULE, ruleset=self.name)

    def on_timer(self, state: State, timer: TimerFired, *, now_ms: int) -> Decision[State]:
        return Decision(None)

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        return Decision(None)

    def view(self, state: State) -> dict[str, Any]:
        return dict(state)

    def is_active(self, state: State) -> bool:
        return False

    def timers(self, state: State) -> dict[str, int]:
        return {}
