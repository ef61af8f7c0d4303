"""services/resolution for cypher: to be built; until then it keeps nothing."""

from __future__ import annotations

from typing import Any

from services.resolution.ruleset import State
from shared.domain import Decision


class CypherResolution:
    name: str = "cypher"

    def on_combat_started(self, payload: dict[str, Any], *, now_ms: int) -> Decision[State]:
        return Decision(None)

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        return Decision(None)

    def view(self, state: State) -> dict[str, Any]:
        return {"participants": {}}
