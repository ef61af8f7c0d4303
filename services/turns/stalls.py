"""A combat that waits for nothing (issue 18): what every ruleset answers the reconciler.

A combat that has not ended moves on by a timer (a turn's clock, a defense window, the
preparation round...), by a player's action while a clock runs, or by the resolution it asked
for. It is *stalled* when:

- ``no_clock``: no timer is armed and no resolution is on its way: nothing will ever move it
  (a paused turn with no window left, the issue's symptom);
- ``resolution_overdue``: a resolution was asked for and nothing has been logged for
  :data:`RESOLUTION_OVERDUE_MS` (the request was lost or dropped: the issue's cause). A
  resolution takes milliseconds; a restart of services/resolution a few seconds.

The answer is pure: the state and how long the combat's log has been quiet. A moderator's
``resume`` is accepted only for a stalled combat, by the same answer.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final

from shared.actions_base import ResumeAction
from shared.domain import ms
from shared.errors import RuleViolation
from shared.messages import COMBAT_RESUMED, TURN_RESUMED
from shared.outcome import KeepsTimers, Outcome, arm_timer, cancel_timer
from shared.payloads import ActOnCombat

RESOLUTION_OVERDUE_MS: Final = 60_000
"""How long a resolution may be awaited with nothing logged before the combat counts as
stalled (a restart of services/resolution or of the broker stays well below it)."""


class Stall(StrEnum):
    NO_CLOCK = "no_clock"
    RESOLUTION_OVERDUE = "resolution_overdue"


def stall_of(*, ended: bool, timers: int, resolution_pending: bool, quiet_ms: int) -> Stall | None:
    """Why a combat is stalled (see the module docstring), or None while something will move
    it on. A pending resolution counts before the timers: cypher and l5r re-arm the turn's
    clock while they wait for one, so their timers never run out."""
    if ended:
        return None
    if resolution_pending:
        return Stall.RESOLUTION_OVERDUE if quiet_ms >= RESOLUTION_OVERDUE_MS else None
    return Stall.NO_CLOCK if timers == 0 else None


def check_resume(stall: Stall | None, cmd: ActOnCombat, *, phase: str) -> Stall:
    """A ``resume`` needs a moderator (``forbidden``) and a stalled combat
    (``combat_not_stalled``, with the phase in its details)."""
    if not cmd.moderator:
        raise RuleViolation("forbidden", None, needs="moderator")
    if stall is None:
        raise RuleViolation("combat_not_stalled", None, phase=phase)
    return stall


def announce_resumed(
    out: Outcome, stall: Stall, action: ResumeAction, cmd: ActOnCombat, abandoned: list[str]
) -> None:
    """``combat.resumed``: who (the actor he named and his key), why, what the stall was, and
    the actions whose resolution will no longer be awaited."""
    out.emit(
        COMBAT_RESUMED,
        {
            "by": action.actor,
            "moderator_key": cmd.moderator_key,
            "reason": action.reason,
            "stall": stall.value,
            "abandoned_actions": abandoned,
        },
    )


def restart_turn_clock(
    state: KeepsTimers,
    out: Outcome,
    now_ms: int,
    *,
    actor: str,
    timer_id: str | None,
    seconds: float,
    data: dict[str, Any],
) -> tuple[str, int]:
    """The current turn's clock starts again in full (``seconds``: the community's
    ``turn_seconds``): its timer ``timer_id`` is cancelled, a new one armed, and
    ``turn.resumed`` announced. Returns the new timer's id and due time, for the turn."""
    cancel_timer(state, out, timer_id)
    deadline = now_ms + ms(seconds)
    armed = arm_timer(state, out, "turn", deadline, data)
    out.emit(TURN_RESUMED, {"actor": actor, "deadline_ms": deadline})
    return armed, deadline
