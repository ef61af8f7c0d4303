"""The seam between services/turns and a ruleset: one small interface per ruleset.

A ruleset keeps its combat state as a JSON-ready dict (the runtime stores it as is) and
answers every input with a :class:`shared.domain.Decision`. All methods are pure: no I/O,
time arrives as ``now_ms`` (Unix milliseconds). Rule violations raise
:class:`shared.errors.RuleViolation`.
"""

from __future__ import annotations

from typing import Any, Protocol

from shared.domain import Decision
from shared.payloads import ActOnCombat, StartCombat, TimerFired

State = dict[str, Any]


class TurnsRuleset(Protocol):
    name: str

    def start(self, cmd: StartCombat, *, tenant: str, room: str, now_ms: int) -> Decision[State]:
        """Open a combat (umh 1.1): the new state and ``combat.started`` and what follows."""
        ...

    def act(self, state: State, cmd: ActOnCombat, *, now_ms: int) -> Decision[State]:
        """One action of docs/api.md "Endpoints" by a participant (or a moderator)."""
        ...

    def on_timer(self, state: State, timer: TimerFired, *, now_ms: int) -> Decision[State]:
        """A timer this ruleset armed fired; a stale one returns ``Decision(None)``."""
        ...

    def on_event(
        self, state: State, event_type: str, payload: dict[str, Any], *, now_ms: int
    ) -> Decision[State]:
        """An event of another service about this combat (``action.resolved``, ...)."""
        ...

    def view(self, state: State) -> dict[str, Any]:
        """The read model of docs/api.md "Fields" that this service owns."""
        ...

    def is_active(self, state: State) -> bool:
        """False once the combat has ended."""
        ...

    def timers(self, state: State) -> dict[str, int]:
        """Every timer the state expects to be armed: id -> due (Unix ms). For the reconciler."""
        ...

    def stalled(self, state: State, quiet_ms: int) -> str | None:
        """Why the combat waits for nothing (``services/turns/stalls.py``), or None; ``quiet_ms``
        is how long its log has been quiet. For the reconciler; a ``resume`` action (moderator
        only) is accepted only while it answers a reason."""
        ...
