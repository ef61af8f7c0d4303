"""The seam between services/states and a ruleset: what outlives a combat.

The aggregate is one character of one community. Pure methods; the state is a JSON-ready
dict or ``None`` for a character never seen; time is ``now_ms``.
"""

from __future__ import annotations

from typing import Any, Protocol

from shared.domain import Decision
from shared.payloads import StatesCheck, StatesChecked

State = dict[str, Any]


class AftermathRuleset(Protocol):
    name: str

    def on_event(
        self,
        state: State | None,
        character: str,
        event_type: str,
        payload: dict[str, Any],
        *,
        now_ms: int,
    ) -> Decision[State]:
        """``combat.started``, ``combatant.joined``, ``combat.ended`` for this character."""
        ...

    def check(
        self,
        states: dict[str, State | None],
        query: StatesCheck,
        *,
        ended_combats: set[str],
        now_ms: int,
    ) -> StatesChecked:
        """``states.check``: may these characters start, join or flee now (read-only)?"""
        ...

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        """The body of ``GET /v1/characters/{id}/status`` (API.md)."""
        ...
