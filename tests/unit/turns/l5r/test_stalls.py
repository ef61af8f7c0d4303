"""A stalled l5r combat (issue 18): the reconciler's question and a moderator's ``resume``,
on the states the handlers produce (an attack whose resolution never comes back: its turn's
clock is re-armed while it waits, so only the log's silence tells)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from services.turns.stalls import RESOLUTION_OVERDUE_MS
from shared.payloads import ActOnCombat
from tests.unit.turns.l5r.session import Combat, fighting, stance
from tests.unit.turns.stalls_kit import FOREVER, assert_refused, resume_cmd, stalled

State = dict[str, Any]


def lost_resolution() -> Combat:
    """The actor attacks; the resolution never comes back; his turn's clock runs out once
    and is re-armed while it waits."""
    c, actor, foe = fighting()
    stance(c, actor)
    cmd = ActOnCombat.model_validate(
        {
            "action_id": "a_" + "1" * 32,
            "action": {"type": "l5r.attack", "actor": actor, "target": foe},
        }
    )
    decision = c.turns.act(c.state, cmd, now_ms=c.now)
    assert decision.state is not None and decision.state["pending"]
    c.state = decision.state
    c.fire("turn")
    assert c.state["pending"] and c.state["timers"]
    return c


def without_clock(preparing: bool = False) -> State:
    state = copy.deepcopy(Combat().state if preparing else fighting()[0].state)
    state["timers"] = {}
    return state


def annulled() -> State:
    c = fighting()[0]
    c.act({"type": "annul", "actor": "moderadora", "reason": "fin"}, moderator=True)
    return c.state


CASES: list[Any] = [
    pytest.param(without_clock, 0, "no_clock", id="stalled-turn-without-clock"),
    pytest.param(
        lambda: without_clock(preparing=True), 0, "no_clock", id="stalled-preparation-no-clock"
    ),
    pytest.param(
        lambda: lost_resolution().state,
        RESOLUTION_OVERDUE_MS,
        "resolution_overdue",
        id="stalled-attack-never-resolved",
    ),
    pytest.param(
        lambda: lost_resolution().state,
        RESOLUTION_OVERDUE_MS - 1,
        None,
        id="waiting-a-resolution-on-its-way",
    ),
    pytest.param(lambda: fighting()[0].state, FOREVER, None, id="waiting-turn-clock-running"),
    pytest.param(lambda: Combat().state, FOREVER, None, id="waiting-preparation-round"),
    pytest.param(annulled, FOREVER, None, id="ended-no-timer-left"),
]


@pytest.mark.parametrize(("build", "quiet_ms", "expected"), CASES)
def test_a_combat_is_stalled_only_when_nothing_will_move_it(
    build: Callable[[], State], quiet_ms: int, expected: str | None
) -> None:
    assert stalled(build(), quiet_ms) == expected


def test_a_resume_abandons_the_lost_attack_and_restarts_the_turn_clock() -> None:
    c = lost_resolution()
    actor, pending = c.actor, c.state["pending"]["action_id"]
    now = c.now + 3_600_000
    decision = c.turns.act(c.state, resume_cmd(quiet_ms=RESOLUTION_OVERDUE_MS), now_ms=now)
    assert [e.type for e in decision.events] == ["combat.resumed", "turn.resumed"]
    assert decision.events[0].payload["abandoned_actions"] == [pending]
    after = decision.state
    assert after is not None and after["pending"] is None and after["turn"]["actor"] == actor
    assert after["turn"]["deadline_ms"] == now + after["settings"]["turn_seconds"] * 1000
    assert after["timers"][after["turn"]["timer_id"]]["kind"] == "turn"
    assert stalled(after, FOREVER) is None
    # The attack's late resolution changes nothing.
    late = {"ruleset": "l5r", "action_id": pending, "attacker": actor}
    assert c.turns.on_event(after, "action.resolved", late, now_ms=now).state is None


def test_a_resume_gives_a_preparation_round_its_clock_again() -> None:
    state = without_clock(preparing=True)
    now = int(state["created_at_ms"]) + 3_600_000
    decision = Combat().turns.act(state, resume_cmd(quiet_ms=0), now_ms=now)
    after = decision.state
    assert after is not None and after["phase"] == "preparation"
    (prep,) = after["timers"].values()
    assert prep["kind"] == "preparation"
    assert prep["due_ms"] == now + after["settings"]["preparation_seconds"] * 1000


@pytest.mark.parametrize(
    ("build", "cmd", "code"),
    [
        pytest.param(
            lambda: fighting()[0].state, resume_cmd(), "combat_not_stalled", id="clock-running"
        ),
        pytest.param(
            lambda: lost_resolution().state,
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
    assert_refused(
        lambda s, c: Combat().turns.act(s, c, now_ms=int(s["created_at_ms"])), build(), cmd, code
    )
