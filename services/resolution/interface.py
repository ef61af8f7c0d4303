"""The seam between services/resolution and a ruleset.

Resolution keeps each combatant's condition (vitality, pools, effects) and computes every
hit. Pure methods; state is a JSON-ready dict; time is ``now_ms``.
"""

from __future__ import annotations

from typing import Any, Protocol

from shared.domain import Decision

State = dict[str, Any]


class ResolutionRuleset(Protocol):
    name: str

    def on_combat_started(self, payload: dict[str, Any], *, now_ms: int) -> Decision[State]:
        """Take the sheets' snapshot from ``combat.started``: the initial condition."""
        ...

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        """Any later input: ``resolution.requested``, ``combatant.joined``, ..."""
        ...

    def view(self, state: State) -> dict[str, Any]:
        """The per-participant part of the combat read model (vit, vit_max, effects)."""
        ...
