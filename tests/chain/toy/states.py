"""services/states' part of the toy ruleset: who is in a combat, and each one's defeats."""

from __future__ import annotations

from typing import Any

from services.states.ruleset import Context
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, Event
from shared.payloads import CharacterStatus, Refusal, StatesCheck, StatesChecked
from tests.chain.toy import NAME

State = dict[str, Any]


class ToyAftermath:
    name: str = NAME

    def on_event(
        self,
        state: State | None,
        character: str,
        event_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        """toy 4: a fighter is in his combat until it ends; the loser counts a defeat."""
        record: State = dict(state or {"ruleset": NAME, "character": character, "defeats": 0})
        if event_type == COMBAT_STARTED:
            return Decision({**record, "in_combat": payload["combat_id"]})
        if event_type != COMBAT_ENDED:
            return Decision(None)
        record["in_combat"] = None
        side = payload["participants"][character]["side"]
        if side == payload["winner"]:
            return Decision(record)
        record["defeats"] = int(record["defeats"]) + 1
        change = {"character": character, "change": "defeat", "defeats": record["defeats"]}
        return Decision(record, [Event("aftermath.applied", {**change, "rule": "toy 4"})])

    def on_command(
        self,
        state: State | None,
        character: str,
        command_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        raise RuleViolation("not_implemented", "toy", ruleset=NAME)

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
        """toy 1: nobody fights two combats at once."""
        refusals = [
            Refusal(character=c, code="already_in_combat", rule="toy 1")
            for c in query.characters
            if (busy := (states.get(c) or {}).get("in_combat")) and busy not in ended_combats
        ]
        return StatesChecked(allowed=not refusals, refusals=refusals)

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        record = state or {}
        status = CharacterStatus(in_combat=record.get("in_combat"))
        body = status.model_dump(mode="json")
        body["ruleset_status"] = {NAME: {"defeats": int(record.get("defeats", 0))}}
        return {"status": body, "history": []}

    def armed_timers(self, state: State) -> list[TimerRequest]:
        return []
