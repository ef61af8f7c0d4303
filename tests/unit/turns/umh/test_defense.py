"""Defense windows (umh 2.4.2, 8.1.1.3, A-24): the attacker's clock pauses and resumes."""

from __future__ import annotations

from typing import Any

import pytest

from shared.messages import derived_id
from shared.payloads import ReactionChoice, ResolutionRequested

from .builders import (
    ATTACK,
    BLESSING,
    COMBAT_ID,
    DEFENSE_KINDS,
    FIELD,
    HEAVY,
    SECOND,
    SHIELD,
    T0,
    TURNS,
    act,
    action_id,
    attack_opening,
    fighting,
    fire,
    fire_kind,
    new_state,
    now_of,
    payload,
    rejects,
    resolved,
    start_cmd,
    timer_of,
    types,
    where,
    without_stoppers,
)

MINUTE = 60 * SECOND


def attacked(
    defenders: tuple[str, ...] = ("bruno",), after_ms: int = 3 * MINUTE
) -> tuple[dict[str, Any], int]:
    """Round 1, ``ana`` attacks every defender ``after_ms`` into her turn."""
    state = fighting(defenders=defenders)
    now = now_of(state) + after_ms
    attack = {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": list(defenders)}
    return new_state(act(state, attack, now)), now


def test_offensive_skill_pauses_the_clock_and_opens_windows() -> None:
    """umh 2.4.2 / 3.1.2: PA spent, one window per target, the turn clock stopped."""
    state = fighting()
    now = now_of(state) + 3 * MINUTE
    turn_timer = timer_of(state, "turn")
    attack = {"type": "skill", "actor": "ana", "skill": "puño", "targets": ["bruno"]}
    decision = act(state, attack, now)
    assert types(decision) == ["action.declared", "reaction.requested", "turn.paused"]
    assert payload(decision, "action.declared") == {
        "action_id": action_id(1),
        "attacker": "ana",
        "skill": ATTACK,
        "targets": ["bruno"],
        "pa_spent": 2,
        "opening": False,
        "round": 1,
        "offensive": True,
        "general_action": True,
        "interference": False,
        "weekly_limit": None,
    }
    assert payload(decision, "reaction.requested") == {
        "action_id": action_id(1),
        "reactor": "bruno",
        "attacker": "ana",
        "skill": ATTACK,
        "deadline_ms": now + 5 * MINUTE,
        "hit": 1,
        "hits": 1,
        "anticipation_by": None,
    }
    assert payload(decision, "turn.paused") == {"actor": "ana", "remaining_ms": 2 * MINUTE}
    assert decision.cancel == [turn_timer]
    assert [(r.kind, r.data) for r in decision.arm] == [
        ("defense", {"action_id": action_id(1), "reactor": "bruno"})
    ]
    view = TURNS.view(new_state(decision))
    assert view["participants"]["ana"]["pa"] == 8
    assert view["turn"]["deadline"] is None
    assert view["turn"]["paused_remaining"] == 120.0
    assert view["pending_reactions"] == [
        {
            "action_id": action_id(1),
            "reactor": "bruno",
            "attacker": "ana",
            "skill": ATTACK,
            "deadline": "2023-11-14T22:23:20.000Z",
            "hit": 1,
            "hits": 1,
            "anticipation_by": None,
        }
    ]


def test_t000_25_clock_resumes_with_what_was_left() -> None:
    """T000-25: paused at 3:00, the defender answers after 2:00, 2:00 are left after it."""
    state, paused_at = attacked()
    answered_at = paused_at + 2 * MINUTE
    shield = {"type": "react", "actor": "bruno", "action_id": action_id(1), "skill": SHIELD}
    decision = act(state, shield, answered_at, n=2)
    assert types(decision) == ["reaction.answered", "resolution.requested"]
    assert payload(decision, "reaction.answered") == {
        "action_id": action_id(1),
        "reactor": "bruno",
        "skill": SHIELD,
        "resist": False,
        "hit": 1,
        "kind": "internal",
        "anticipation_by": None,
        "pa_spent": 1,
    }
    request = ResolutionRequested.model_validate(payload(decision, "resolution.requested"))
    assert request.reactions["bruno"].skill == SHIELD
    assert not request.reactions["bruno"].timed_out
    assert decision.cancel == [timer_of(state, "defense")]
    state = new_state(decision)
    assert state["participants"]["bruno"]["pa"] == 9
    assert TURNS.timers(state) == {}
    resumed = TURNS.on_event(state, "action.resolved", resolved(action_id(1)), now_ms=answered_at)
    assert types(resumed) == ["action.completed", "turn.resumed"]
    assert payload(resumed, "turn.resumed") == {
        "actor": "ana",
        "deadline_ms": answered_at + 2 * MINUTE,
    }
    assert [(r.kind, r.due_ms) for r in resumed.arm] == [("turn", answered_at + 2 * MINUTE)]
    view = TURNS.view(new_state(resumed))
    assert view["turn"]["paused_remaining"] is None
    assert view["pending_reactions"] == []


def test_t000_25_silent_defender_window_closes_and_the_attack_resolves() -> None:
    """A-24: after 5:00 with no defense the window closes; resolution is requested."""
    state, paused_at = attacked()
    assert TURNS.timers(state) == {timer_of(state, "defense"): paused_at + 5 * MINUTE}
    decision = fire_kind(state, "defense")
    assert types(decision) == ["reaction.timed_out", "resolution.requested"]
    assert payload(decision, "reaction.timed_out") == {
        "action_id": action_id(1),
        "reactor": "bruno",
    }
    request = ResolutionRequested.model_validate(payload(decision, "resolution.requested"))
    assert (request.action_id, request.attacker, request.skill, request.round) == (
        action_id(1),
        "ana",
        ATTACK,
        1,
    )
    assert request.targets == ["bruno"]
    assert request.reactions == {"bruno": ReactionChoice(timed_out=True)}
    assert decision.cancel == []
    assert TURNS.timers(new_state(decision)) == {}


def test_resolution_waits_for_every_target() -> None:
    """umh 2.1.3 / A-100: one resolution once both windows are in."""
    state, now = attacked(("bruno", "carla"))
    take = {"type": "react", "actor": "carla", "action_id": action_id(1), "skill": None}
    decision = act(state, take, now, n=2)
    assert types(decision) == ["reaction.answered"]
    state = new_state(decision)
    assert state["participants"]["carla"]["pa"] == 10
    decision = fire_kind(state, "defense")
    assert types(decision) == ["reaction.timed_out", "resolution.requested"]
    request = ResolutionRequested.model_validate(payload(decision, "resolution.requested"))
    assert request.reactions == {
        "bruno": ReactionChoice(timed_out=True),
        "carla": ReactionChoice(timed_out=False),
    }


def test_nothing_else_while_the_defense_is_pending() -> None:
    """umh 2.4.2: the attacker waits for the defense (and its resolution)."""
    state, now = attacked()
    attack = {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno"]}
    for action in (attack, {"type": "pass_turn", "actor": "ana"}):
        violation = rejects(state, action, now)
        assert (violation.code, violation.rule) == ("reaction_pending", "umh 2.4.2")
    state = new_state(fire_kind(state, "defense"))
    assert rejects(state, attack, now).code == "reaction_pending"


def test_supplementary_skill_resolves_at_once_without_pausing() -> None:
    """umh 8.1.1.2: with no opponent able to stop it, no window, the clock keeps running."""
    state = without_stoppers(fighting())
    decision = act(state, {"type": "skill", "actor": "ana", "skill": BLESSING}, now_of(state))
    assert types(decision) == ["action.declared", "resolution.requested"]
    assert payload(decision, "resolution.requested")["reactions"] == {}
    assert decision.arm == [] and decision.cancel == []
    after = new_state(decision)
    assert TURNS.view(after)["turn"]["paused_remaining"] is None
    done = TURNS.on_event(after, "action.resolved", resolved(action_id(1)), now_ms=T0)
    assert types(done) == ["action.completed"]
    passed = act(new_state(done), {"type": "pass_turn", "actor": "ana"}, now_of(state), n=2)
    assert payload(passed, "turn.started")["actor"] == "bruno"


def test_8_2_3_1_a_supplementary_skill_opens_windows_for_who_can_stop_it() -> None:
    """umh 8.2.2.2 / 8.2.3.1 / 2.4.2: bruno holds an annulment: he gets a window and the
    clock pauses; letting it be resolves it."""
    state = fighting()
    now = now_of(state)
    decision = act(state, {"type": "skill", "actor": "ana", "skill": BLESSING}, now)
    assert types(decision) == ["action.declared", "reaction.requested", "turn.paused"]
    assert payload(decision, "reaction.requested")["reactor"] == "bruno"
    let_be = {"type": "react", "actor": "bruno", "action_id": action_id(1), "skill": None}
    answered = act(new_state(decision), let_be, now, n=2)
    assert payload(answered, "resolution.requested")["reactions"]["bruno"]["skill"] is None


@pytest.mark.parametrize(
    ("react", "code", "rule"),
    [
        pytest.param(
            {"actor": "bruno", "action_id": action_id(99), "skill": SHIELD},
            "no_pending_reaction",
            "umh 8.1.1.3",
            id="umh-8.1.1.3-unknown-action",
        ),
        pytest.param(
            {"actor": "ana", "action_id": action_id(1), "skill": SHIELD},
            "no_pending_reaction",
            "umh 8.1.1.3.1",
            id="umh-8.1.1.3-not-targeted",
        ),
        pytest.param(
            {"actor": "bruno", "action_id": action_id(1), "resist": True, "skill": SHIELD},
            "invalid_request",
            "umh 8.1.1.3",
            id="umh-8.1.1.3-resistir-and-a-skill",
        ),
        pytest.param(
            {"actor": "bruno", "action_id": action_id(1), "resist": True},
            "resist_not_allowed",
            "umh 7.1.2.3",
            id="umh-7.1.2.3-resistir-a-physical-skill-check-reaction",
        ),
        pytest.param(
            {"actor": "bruno", "action_id": action_id(1), "skill": "Nada"},
            "unknown_skill",
            "umh 8.1.1.3",
            id="umh-8.1.1.3-unknown-skill",
        ),
        pytest.param(
            {"actor": "bruno", "action_id": action_id(1), "skill": ATTACK},
            "not_a_defense",
            "umh 8.1.1.3",
            id="umh-8.1.1.3-offensive-as-defense",
        ),
        pytest.param(
            {"actor": "bruno", "action_id": action_id(1), "skill": FIELD},
            "insufficient_pa",
            "umh 3.1.2",
            id="umh-3.1.2-defense-without-pa",
        ),
        *(
            pytest.param(
                {"actor": "bruno", "action_id": action_id(1), "skill": name},
                code,
                rule,
                id=f"{rule.replace(' ', '-')}-{kind}-{code.replace('_', '-')}",
            )
            for (name, kind), (code, rule) in zip(
                DEFENSE_KINDS.items(),
                [
                    ("insufficient_pa", "umh 3.1.2"),
                    ("use_number_missing", "umh 2.3.1.2"),
                    ("use_number_missing", "umh 2.3.1.2"),
                    ("insufficient_pa", "umh 3.1.2"),
                    ("use_number_missing", "umh 2.3.1.2"),
                ],
                strict=True,
            )
        ),
    ],
)
def test_react_rejections(react: dict[str, Any], code: str, rule: str) -> None:
    state, now = attacked()
    state["participants"]["bruno"]["pa"] = 0
    violation = rejects(state, {"type": "react", **react}, now)
    assert violation.code == code
    assert violation.rule == ("umh 8.1.1.3" if rule == "umh 8.1.1.3.1" else rule)


def test_an_answered_window_cannot_be_answered_twice() -> None:
    state, now = attacked(("bruno", "carla"))
    take = {"type": "react", "actor": "bruno", "action_id": action_id(1), "skill": None}
    state = new_state(act(state, take, now, n=2))
    assert rejects(state, take, now).code == "no_pending_reaction"


def test_opening_attack_is_defended_before_preparation() -> None:
    """umh 1.1.1.1 / 1.3.1: the opening resolves, then the shared preparation window."""
    cmd = start_cmd(opening=attack_opening("bruno"))
    state = new_state(TURNS.start(cmd, **where(T0)))
    opening_id = derived_id("a", COMBAT_ID, "opening")
    shield = {"type": "react", "actor": "bruno", "action_id": opening_id, "skill": SHIELD}
    decision = act(state, shield, T0 + MINUTE)
    assert types(decision) == ["reaction.answered", "resolution.requested"]
    assert payload(decision, "resolution.requested")["round"] == 0
    state = new_state(decision)
    assert rejects(state, {"type": "pass_turn", "actor": "ana"}).code == "wrong_phase"
    attack = {"type": "skill", "actor": "ana", "skill": HEAVY, "targets": ["bruno"]}
    assert rejects(state, attack).code == "wrong_phase"
    done = TURNS.on_event(state, "action.resolved", resolved(opening_id), now_ms=T0 + MINUTE)
    assert types(done) == ["action.completed", "combat.phase_changed"]
    assert payload(done, "combat.phase_changed") == {
        "from": "opening",
        "to": "preparation",
        "deadline_ms": T0 + 3 * MINUTE,
    }
    state = new_state(done)
    fought = new_state(fire_kind(state, "preparation"))
    assert fought["participants"]["bruno"]["pa"] == 10  # umh 3.1.3: a full round to fight
    assert fire(fought, timer_of(state, "preparation")).state is None
