"""The seam between services/states and a ruleset: what outlives a combat.

The aggregate is one character of one community. Pure methods; the state is a JSON-ready
dict or ``None`` for a character never seen; time arrives in the :class:`Context`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from shared.domain import Decision, TimerRequest
from shared.payloads import StatesCheck, StatesChecked

State = dict[str, Any]


@dataclass(frozen=True)
class Context:
    """Where and when a message happened: its envelope's tenant, room (routing key) and
    combat, when it occurred and when it is handled (Unix ms)."""

    tenant: str
    room: str
    combat_id: str | None
    occurred_ms: int
    now_ms: int


class AftermathRuleset(Protocol):
    name: str

    def on_event(
        self,
        state: State | None,
        character: str,
        event_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        """A combat's events as they concern this character (``combat.started``,
        ``combatant.joined``, ``combatant.fled``, ``action.declared``, ``effect.applied``,
        ``combat.ended``)."""
        ...

    def on_command(
        self,
        state: State | None,
        character: str,
        command_type: str,
        payload: dict[str, Any],
        ctx: Context,
    ) -> Decision[State]:
        """A gateway command on this character (post-combat effect, requirement, moderation);
        a rule violation raises :class:`shared.errors.RuleViolation`."""
        ...

    def on_timer(
        self, state: State | None, character: str, timer_id: str, ctx: Context
    ) -> Decision[State]:
        """One of his wall-clock states is over (docs/rules.md 7.1)."""
        ...

    def check(
        self,
        states: dict[str, State | None],
        query: StatesCheck,
        *,
        room: str,
        ended_combats: set[str],
        now_ms: int,
    ) -> StatesChecked:
        """``states.check``: may these characters start, join or flee now (read-only)?"""
        ...

    def view(self, state: State | None, *, now_ms: int) -> dict[str, Any]:
        """The read model: ``{"status": docs/api.md status, "history": [...]}``."""
        ...

    def armed_timers(self, state: State) -> list[TimerRequest]:
        """Every timer the state expects to be armed (for the reconciler)."""
        ...
