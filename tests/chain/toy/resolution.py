"""services/resolution's part of the toy ruleset: every attack deals the same damage."""

from __future__ import annotations

from typing import Any

from shared.domain import Decision
from shared.messages import ACTION_RESOLVED, RESOLUTION_REQUESTED, Event
from tests.chain.toy import DAMAGE, HP, NAME

State = dict[str, Any]


class ToyResolution:
    name: str = NAME

    def on_combat_started(self, payload: dict[str, Any], *, now_ms: int) -> Decision[State]:
        """toy 1: each fighter's HP from his sheet."""
        sheets: dict[str, dict[str, Any]] = payload["sheets"]
        hp = {c: int(sheet.get("hp", HP)) for c, sheet in sheets.items()}
        return Decision({"ruleset": NAME, "combat_id": payload["combat_id"], "hp": hp, "max": hp})

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        """toy 2: an attack deals :data:`DAMAGE`; at 0 HP the target is down (never below)."""
        if event_type != RESOLUTION_REQUESTED:
            return Decision(None)
        target = payload["target"]
        before = int(state["hp"][target])
        after = max(0, before - DAMAGE)
        result = {
            "target": target,
            "damage": before - after,
            "vit_before": before,
            "vit_after": after,
            "down": after == 0,
        }
        resolved = {
            "combat_id": payload["combat_id"],
            "action_id": payload["action_id"],
            "attacker": payload["attacker"],
            "results": [result],
            "downs": [target] if after == 0 else [],
        }
        new = {**state, "hp": {**state["hp"], target: after}}
        return Decision(new, [Event(ACTION_RESOLVED, resolved)])

    def view(self, state: State) -> dict[str, Any]:
        return {
            "participants": {
                c: {"vit": hp, "vit_max": state["max"][c], "effects": []}
                for c, hp in state["hp"].items()
            }
        }
