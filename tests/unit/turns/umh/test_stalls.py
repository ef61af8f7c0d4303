"""A stalled umh combat (issue 18): what the reconciler asks services/turns, and a moderator's
``resume``. The states are the ones the handlers produce; the question is the service spec's
``stalled`` hook, the one the reconciler calls."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from services.turns.stalls import RESOLUTION_OVERDUE_MS
from shared.payloads import ActOnCombat
from tests.unit.turns.stalls_kit import FOREVER, assert_refused, resume_cmd, stalled

from .builders import (
    ATTACK,
    COMBO,
    SECOND,
    T0,
    TURNS,
    act,
    action_id,
    attack_opening,
    fighting,
    fire_kind,
    new_state,
    now_of,
    start_cmd,
    timer_of,
    types,
    where,
)

State = dict[str, Any]


def hit_resolved(action: str, hit: int, hits: int) -> dict[str, Any]:
    return {
        "action_id": action,
        "attacker": "ana",
        "skill": COMBO,
        "hit": hit,
        "hits": hits,
        "results": [],
        "downs": [],
        "combo_continues": hit < hits,
    }


def attacked(skill: str = ATTACK) -> tuple[State, int]:
    """ana's turn in round 1: she uses ``skill`` on bruno; his window is open."""
    state = fighting()
    now = now_of(state) + 10 * SECOND
    body = {"type": "skill", "actor": "ana", "skill": skill, "targets": ["bruno"]}
    return new_state(act(state, body, now, "attack")), now


def the_issues_combat() -> tuple[State, int]:
    """Issue 18: a 3-hit combo, hit 1 taken and resolved, hit 2 taken; its resolution never
    comes back. The turn is paused, no window is open, no timer is armed."""
    state, now = attacked(COMBO)
    react = {"type": "react", "actor": "bruno", "action_id": action_id("attack"), "skill": None}
    state = new_state(act(state, react, now, "hit-1"))
    state = new_state(
        TURNS.on_event(
            state, "action.resolved", hit_resolved(action_id("attack"), 1, 3), now_ms=now
        )
    )
    state = new_state(act(state, react, now, "hit-2"))
    assert state["actions"][action_id("attack")]["resolution_requested"]
    return state, now


def without_clock() -> State:
    """A paused turn with nothing left to wait for: no window, no resolution, no timer."""
    state, _ = attacked()
    state = copy.deepcopy(state)
    state["actions"], state["timers"] = {}, {}
    return state


def opening_windows() -> State:
    cmd = start_cmd(opening=attack_opening("bruno"))
    return new_state(TURNS.start(cmd, **where(T0)))


def preparation() -> State:
    return new_state(TURNS.start(start_cmd(), **where(T0)))


def annulled() -> State:
    state = fighting()
    annul = {"type": "annul", "actor": "moderadora", "reason": "fin"}
    cmd = ActOnCombat.model_validate(
        {"action_id": action_id("annul"), "action": annul, "moderator": True}
    )
    return new_state(TURNS.act(state, cmd, now_ms=now_of(state)))


@pytest.mark.parametrize(
    ("build", "quiet_ms", "expected"),
    [
        pytest.param(without_clock, 0, "no_clock", id="stalled-paused-turn-without-clock"),
        pytest.param(
            lambda: the_issues_combat()[0],
            RESOLUTION_OVERDUE_MS,
            "resolution_overdue",
            id="stalled-issue-18-hit-2-never-resolved",
        ),
        pytest.param(
            lambda: the_issues_combat()[0],
            RESOLUTION_OVERDUE_MS - 1,
            None,
            id="waiting-a-resolution-on-its-way",
        ),
        pytest.param(fighting, FOREVER, None, id="waiting-turn-clock-running"),
        pytest.param(lambda: attacked()[0], FOREVER, None, id="waiting-defense-window-open"),
        pytest.param(lambda: attacked(COMBO)[0], FOREVER, None, id="waiting-combo-hit-1-window"),
        pytest.param(opening_windows, FOREVER, None, id="waiting-opening-attack-window"),
        pytest.param(preparation, FOREVER, None, id="waiting-preparation-round"),
        pytest.param(annulled, FOREVER, None, id="ended-no-timer-left"),
    ],
)
def test_a_combat_is_stalled_only_when_nothing_will_move_it(
    build: Any, quiet_ms: int, expected: str | None
) -> None:
    assert stalled(build(), quiet_ms) == expected


@pytest.mark.parametrize(
    ("build", "quiet_ms"),
    [
        pytest.param(lambda: the_issues_combat()[0], RESOLUTION_OVERDUE_MS, id="issue-18-combo"),
        pytest.param(without_clock, 0, id="paused-turn-without-clock"),
    ],
)
def test_a_resume_restarts_the_turn_clock_in_full(build: Any, quiet_ms: int) -> None:
    """The action in flight is abandoned, ``combat.resumed`` says who, why and what; ana's
    clock starts again with a whole turn (umh 2.3.5); the combat is no longer stalled."""
    state = build()
    now = T0 + 3600 * SECOND
    decision = TURNS.act(state, resume_cmd(quiet_ms=quiet_ms), now_ms=now)
    assert types(decision) == ["combat.resumed", "turn.resumed"]
    resumed = decision.events[0].payload
    assert resumed == {
        "by": "moderadora",
        "moderator_key": "k_mod",
        "reason": "se quedó parado",
        "stall": stalled(state, quiet_ms),
        "abandoned_actions": list(state["actions"]),
    }
    after = new_state(decision)
    turn_seconds = after["settings"]["turn_seconds"]
    assert after["turn"]["actor"] == "ana" and after["turn"]["paused_remaining_ms"] is None
    assert after["turn"]["deadline_ms"] == now + turn_seconds * SECOND
    assert after["actions"] == {} and timer_of(after, "turn") == after["turn"]["timer_id"]
    assert stalled(after, FOREVER) is None
    # A resolution that comes back late changes nothing; the clock runs out as any turn's.
    late = hit_resolved(action_id("attack"), 2, 3)
    assert TURNS.on_event(after, "action.resolved", late, now_ms=now).state is None
    timed_out = new_state(fire_kind(after, "turn"))
    assert timed_out["turn"]["actor"] == "bruno"


def test_a_resume_gives_a_preparation_round_its_clock_again() -> None:
    state = preparation()
    state["timers"] = {}
    now = T0 + 600 * SECOND
    after = new_state(TURNS.act(state, resume_cmd(quiet_ms=0), now_ms=now))
    assert after["phase"] == "preparation"
    prep = after["timers"][timer_of(after, "preparation")]
    seconds = after["settings"]["preparation_seconds"]
    assert prep["due_ms"] == after["phase_deadline_ms"] == now + seconds * SECOND
    assert new_state(fire_kind(after, "preparation"))["phase"] == "fighting"


def test_a_resume_of_a_stalled_opening_goes_to_the_preparation_round() -> None:
    """umh 1.3.1: the opening attack whose resolution never came back is abandoned."""
    state = opening_windows()
    opening = next(iter(state["actions"]))
    react = {"type": "react", "actor": "bruno", "action_id": opening, "skill": None}
    state = new_state(act(state, react, T0, "opening"))
    assert stalled(state, RESOLUTION_OVERDUE_MS) == "resolution_overdue"
    decision = TURNS.act(state, resume_cmd(quiet_ms=RESOLUTION_OVERDUE_MS), now_ms=T0)
    assert types(decision)[:2] == ["combat.resumed", "combat.phase_changed"]
    after = new_state(decision)
    assert after["phase"] == "preparation" and after["actions"] == {}
    assert timer_of(after, "preparation")


@pytest.mark.parametrize(
    ("build", "cmd", "code"),
    [
        pytest.param(fighting, resume_cmd(), "combat_not_stalled", id="turn-clock-running"),
        pytest.param(
            lambda: the_issues_combat()[0],
            resume_cmd(quiet_ms=5 * SECOND),
            "combat_not_stalled",
            id="resolution-on-its-way",
        ),
        pytest.param(
            without_clock, resume_cmd(quiet_ms=0, moderator=False), "forbidden", id="not-moderator"
        ),
        pytest.param(annulled, resume_cmd(), "combat_ended", id="ended"),
    ],
)
def test_a_resume_is_refused_unless_a_moderator_resumes_a_stalled_combat(
    build: Any, cmd: ActOnCombat, code: str
) -> None:
    assert_refused(lambda s, c: TURNS.act(s, c, now_ms=T0), build(), cmd, code)
