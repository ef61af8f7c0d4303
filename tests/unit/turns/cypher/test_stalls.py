"""A stalled cypher combat (issue 18): the reconciler's question and a moderator's ``resume``,
on the states the handlers produce (an attack whose resolution never comes back: its turn's
clock is re-armed while it waits, so only the log's silence tells)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from services.turns.stalls import RESOLUTION_OVERDUE_MS
from shared.payloads import ActOnCombat
from tests.unit.turns.stalls_kit import FOREVER, assert_refused, resume_cmd, stalled

from .kit import TURNS, Referee, pc

State = dict[str, Any]


def duel() -> Referee:
    return Referee.start({"ana": pc("Ana"), "bruno": pc("Bruno")}, "ana", ["bruno"])


def lost_resolution() -> Referee:
    """The actor attacks; the resolution never comes back (the bus is cut); the turn's clock
    runs out once and is re-armed while it waits."""
    ref = duel()
    ref.pump = lambda events: ref.log.extend(events)  # type: ignore[method-assign]
    target = "bruno" if ref.actor == "ana" else "ana"
    ref.act({"type": "cypher.attack", "actor": ref.actor, "target": target, "attack": "Espada"})
    ref.fire_turn_timer()
    assert ref.turns["turn"]["pending"] and ref.turns["timers"]
    return ref


def without_clock() -> State:
    state = copy.deepcopy(duel().turns)
    state["timers"] = {}
    return state


def annulled() -> State:
    ref = duel()
    ref.act({"type": "annul", "actor": "moderadora", "reason": "fin"}, moderator=True)
    return ref.turns


CASES: list[Any] = [
    pytest.param(without_clock, 0, "no_clock", id="stalled-turn-without-clock"),
    pytest.param(
        lambda: lost_resolution().turns,
        RESOLUTION_OVERDUE_MS,
        "resolution_overdue",
        id="stalled-attack-never-resolved",
    ),
    pytest.param(
        lambda: lost_resolution().turns,
        RESOLUTION_OVERDUE_MS - 1,
        None,
        id="waiting-a-resolution-on-its-way",
    ),
    pytest.param(lambda: duel().turns, FOREVER, None, id="waiting-turn-clock-running"),
    pytest.param(annulled, FOREVER, None, id="ended-no-timer-left"),
]


@pytest.mark.parametrize(("build", "quiet_ms", "expected"), CASES)
def test_a_combat_is_stalled_only_when_nothing_will_move_it(
    build: Callable[[], State], quiet_ms: int, expected: str | None
) -> None:
    assert stalled(build(), quiet_ms) == expected


def test_a_resume_abandons_the_lost_attack_and_ends_the_turn_it_spent() -> None:
    """001 ACCIÓN: the attack was the turn's one action; the next turn starts."""
    ref = lost_resolution()
    actor, pending = ref.actor, ref.turns["turn"]["pending"]["action_id"]
    decision = TURNS.act(ref.turns, resume_cmd(quiet_ms=RESOLUTION_OVERDUE_MS), now_ms=ref.now)
    kinds = [e.type for e in decision.events]
    assert kinds[:3] == ["combat.resumed", "turn.ended", "turn.started"]
    assert decision.events[0].payload["abandoned_actions"] == [pending]
    assert decision.events[0].payload["stall"] == "resolution_overdue"
    after = decision.state
    assert after is not None and after["turn"]["actor"] != actor
    assert stalled(after, FOREVER) is None


def test_a_resume_restarts_a_turn_without_clock_in_full() -> None:
    state = without_clock()
    now = int(state["created_at_ms"]) + 3_600_000
    decision = TURNS.act(state, resume_cmd(quiet_ms=0), now_ms=now)
    assert [e.type for e in decision.events] == ["combat.resumed", "turn.resumed"]
    after = decision.state
    assert after is not None
    assert after["turn"]["deadline_ms"] == now + after["settings"]["turn_seconds"] * 1000
    assert after["timers"][after["turn"]["timer_id"]]["kind"] == "turn"
    assert stalled(after, FOREVER) is None


@pytest.mark.parametrize(
    ("build", "cmd", "code"),
    [
        pytest.param(
            lambda: duel().turns, resume_cmd(), "combat_not_stalled", id="turn-clock-running"
        ),
        pytest.param(
            lambda: lost_resolution().turns,
            resume_cmd(quiet_ms=5_000),
            "combat_not_stalled",
            id="resolution-on-its-way",
        ),
        pytest.param(without_clock, resume_cmd(moderator=False), "forbidden", id="not-moderator"),
        pytest.param(annulled, resume_cmd(), "combat_ended", id="ended"),
    ],
)
def test_a_resume_is_refused_unless_a_moderator_resumes_a_stalled_combat(
    build: Callable[[], State], cmd: ActOnCombat, code: str
) -> None:
    assert_refused(lambda s, c: TURNS.act(s, c, now_ms=int(s["created_at_ms"])), build(), cmd, code)
