"""services/states for cypher: to be built; until then nothing outlives its combats."""

from __future__ import annotations

from typing import Any

from services.states.ruleset import Context, State
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.payloads import CharacterStatus, StatesCheck, StatesChecked


class CypherAftermath:
    name: str = "cypher"

    def on_event(
        self,
        state: State | None,
        character: str,
        event_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        return Decision(None)

    def on_command(
        self,
        state: State | None,
        character: str,
        command_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        raise RuleViolation("not_implemented", "cypher (RULES.md)", ruleset=self.name)

    def on_timer(
        self, state: State | None, character: str, timer_id: str, ctx: Context
    ) -> Decision[State]:
        return Decision(None)

    def check(
        self,
        states: dict[str, State | None],
        query: StatesCheck,
        *,
        room: str,
        ended_combats: set[str],
        now_ms: int,
    ) -> StatesChecked:
        return StatesChecked(allowed=True)

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        return {"status": CharacterStatus().model_dump(mode="json"), "history": []}

    def armed_timers(self, state: State) -> list[TimerRequest]:
        return []
