"""Opening a combat (umh 1.1, 1.2): validations in order, then the first events."""

from __future__ import annotations

import re
from typing import Any

import pytest

from shared.errors import CATALOGUE, RuleViolation
from shared.messages import derived_id
from shared.payloads import StartCombat

from .builders import (
    ATTACK,
    BLESSING,
    COMBAT_ID,
    COMBO,
    SHIELD,
    T0,
    TURNS,
    attack_opening,
    new_state,
    payload,
    sheet,
    start_cmd,
    timer_of,
    types,
    where,
)


def cypher_sheet() -> dict[str, Any]:
    return sheet("Bruno", ruleset="cypher")


@pytest.mark.parametrize(
    ("cmd", "code", "rule"),
    [
        pytest.param(start_cmd(ruleset="cypher"), "ruleset_mismatch", None, id="ruleset-command"),
        pytest.param(
            start_cmd(sheets={"ana": sheet("Ana"), "bruno": cypher_sheet()}),
            "ruleset_mismatch",
            None,
            id="ruleset-sheet",
        ),
        pytest.param(
            start_cmd(defenders=("ana",)),
            "duplicate_participant",
            "umh 1.2.1",
            id="umh-1.2.1-attacker-among-defenders",
        ),
        pytest.param(
            start_cmd(defenders=("bruno", "bruno")),
            "duplicate_participant",
            "umh 1.2.1",
            id="umh-1.2.1-defender-twice",
        ),
        pytest.param(
            start_cmd(defenders=()), "targets_not_declared", "umh 1.1.2", id="umh-1.1.2-no-target"
        ),
        pytest.param(
            start_cmd(defenders=("bruno", "carla", "dani"), opening=attack_opening("bruno")),
            "too_many_initial_targets",
            "umh 1.1.2",
            id="umh-1.1.2-T000-15-three-targets",
        ),
        pytest.param(
            start_cmd(sheets={"ana": sheet("Ana")}),
            "unknown_character",
            None,
            id="sheet-missing",
        ),
        pytest.param(
            start_cmd(defenders=("bruno", "carla")),
            "invalid_target",
            "umh 1.1.1.2",
            id="umh-1.1.1.2-A-60-challenge-names-one",
        ),
        pytest.param(
            start_cmd(positions={"ana": (0, 0), "bruno": (6, 2)}),
            "challenge_out_of_range",
            "umh 1.1.1.2",
            id="umh-1.1.1.2-T000-14-six-squares",
        ),
        pytest.param(
            start_cmd(opening=attack_opening("bruno", skill_name="Nada")),
            "unknown_skill",
            "umh 1.1.1.1",
            id="umh-1.1.1.1-unknown-skill",
        ),
        pytest.param(
            start_cmd(opening={"kind": "skill", "targets": ["bruno"]}),
            "unknown_skill",
            "umh 1.1.1.1",
            id="umh-1.1.1.1-no-skill",
        ),
        pytest.param(
            start_cmd(opening=attack_opening("bruno", skill_name=SHIELD)),
            "not_offensive",
            "umh 1.1.1.1",
            id="umh-1.1.1.1-defensive-skill",
        ),
        pytest.param(
            start_cmd(opening=attack_opening("bruno", skill_name=BLESSING)),
            "not_offensive",
            "umh 1.1.1.1",
            id="umh-1.1.1.1-supplementary-skill",
        ),
        pytest.param(
            start_cmd(opening=attack_opening()),
            "targets_not_declared",
            "umh 1.1.2",
            id="umh-1.1.2-skill-without-targets",
        ),
        pytest.param(
            start_cmd(defenders=("bruno", "carla"), opening=attack_opening("bruno")),
            "invalid_target",
            "umh 1.2.2",
            id="umh-1.2.2-targets-differ-from-defenders",
        ),
        pytest.param(
            start_cmd(opening=attack_opening("bruno", "bruno")),
            "invalid_target",
            "umh 1.2.2",
            id="umh-1.2.2-target-twice",
        ),
        pytest.param(
            start_cmd(defenders=("bruno", "carla", "dani", "eva"), prisoner=True),
            "too_many_opponents",
            "umh 4.5.4",
            id="umh-4.5.4-T000-36-prisoner-challenges-four-captors",
        ),
    ],
)
def test_start_rejects(cmd: StartCombat, code: str, rule: str | None) -> None:
    with pytest.raises(RuleViolation) as caught:
        TURNS.start(cmd, **where(T0))
    assert (caught.value.code, caught.value.rule) == (code, rule)
    assert code in CATALOGUE


@pytest.mark.parametrize(
    "cmd",
    [
        pytest.param(
            start_cmd(positions={"ana": (0, 0), "bruno": (5, -5)}),
            id="umh-1.1.1.2-T000-14-five-squares-diagonal-A-61",
        ),
        pytest.param(start_cmd(positions={"ana": (0, 0)}), id="umh-1.1.1.2-one-position-only"),
        pytest.param(
            start_cmd(defenders=("bruno", "carla"), opening=attack_opening("carla", "bruno")),
            id="umh-1.2.2-T000-15-two-targets",
        ),
        pytest.param(
            start_cmd(opening=attack_opening("bruno", skill_name="puño")),
            id="umh-1.1.1.1-skill-name-casefold",
        ),
        pytest.param(
            start_cmd(defenders=("bruno", "carla", "dani"), prisoner=True),
            id="umh-4.5.4-T000-36-prisoner-challenges-three-captors",
        ),
        pytest.param(
            start_cmd(opening=attack_opening("bruno", skill_name=COMBO)),
            id="umh-8.1.1.1.1-combo-opening-hit-by-hit",
        ),
    ],
)
def test_start_accepts(cmd: StartCombat) -> None:
    assert TURNS.start(cmd, **where(T0)).state is not None


def test_challenge_goes_straight_to_preparation() -> None:
    """umh 1.1.1.2 / 1.3.1 / A-65: one shared 2-minute window."""
    decision = TURNS.start(start_cmd(vel={"ana": 6, "bruno": 4}), **where(T0))
    state = new_state(decision)
    assert types(decision) == ["combat.started", "combat.phase_changed"]
    deadline = T0 + 120_000
    assert payload(decision, "combat.phase_changed") == {
        "from": "opening",
        "to": "preparation",
        "deadline_ms": deadline,
    }
    assert [(r.kind, r.due_ms) for r in decision.arm] == [("preparation", deadline)]
    assert TURNS.timers(state) == {timer_of(state, "preparation"): deadline}
    view = TURNS.view(state)
    assert view["phase"] == "preparation"
    assert view["phase_deadline"] == "2023-11-14T22:15:20.000Z"
    assert view["turn"] is None
    assert view["slots_left"] == {"attackers": 2, "defenders": 2}
    assert view["participants"]["ana"] == {
        "side": "attackers",
        "status": "active",
        "pa": 10,
        "pa_bonus": 0,
        "movement_left": 6,
        "stats": {"vel": 6, "ref": 3, "vol": 2, "fue": 100},
        "cooldowns": {},
        "uses": {"annul_anticipate": 0},
        "uses_this_combat": {},
        "uses_this_round": {},
        "weekly_uses": {},
        "offensive_1pa_this_round": 0,
        "zero_pa_actions_this_turn": 0,
        "position": {"square": None, "height": "suelo"},
        "effects": [],
        "blocks": [],
        "joined": None,
        "ready": False,
        "disconnected": None,
    }


def test_combat_started_payload() -> None:
    cmd = start_cmd(positions={"ana": (0, 0), "bruno": (1, 0)})
    started = payload(TURNS.start(cmd, **where(T0)), "combat.started")
    assert started == {
        "combat_id": COMBAT_ID,
        "ruleset": "umh",
        "room": "plaza",
        "tenant": "t_1",
        "initiator": "ana",
        "sides": {"attackers": ["ana"], "defenders": ["bruno"]},
        "opening": {"kind": "challenge", "skill": None, "targets": []},
        "positions": {"ana": [0, 0], "bruno": [1, 0]},
        "sheets": cmd.sheets,
        "settings": cmd.settings.model_dump(mode="json"),
        "started_at_ms": T0,
    }


def test_skill_opening_opens_one_defense_window_per_target() -> None:
    """umh 1.1.1.1 / 2.4.2: the opening attack spends no PA; each target may defend."""
    cmd = start_cmd(defenders=("bruno", "carla"), opening=attack_opening("bruno", "carla"))
    decision = TURNS.start(cmd, **where(T0))
    state = new_state(decision)
    assert types(decision) == [
        "combat.started",
        "action.declared",
        "reaction.requested",
        "reaction.requested",
    ]
    opening_id = derived_id("a", COMBAT_ID, "opening")
    assert re.fullmatch(r"a_[0-9a-f]{32}", opening_id)
    assert payload(decision, "action.declared") == {
        "action_id": opening_id,
        "attacker": "ana",
        "skill": ATTACK,
        "targets": ["bruno", "carla"],
        "pa_spent": 0,
        "opening": True,
        "round": 0,
        "offensive": True,
        "general_action": True,
        "interference": False,
        "weekly_limit": None,
    }
    requested = [e.payload for e in decision.events if e.type == "reaction.requested"]
    assert [r["reactor"] for r in requested] == ["bruno", "carla"]
    assert {r["deadline_ms"] for r in requested} == {T0 + 300_000}
    assert sorted(r.kind for r in decision.arm) == ["defense", "defense"]
    assert [r.data for r in decision.arm] == [
        {"action_id": opening_id, "reactor": "bruno"},
        {"action_id": opening_id, "reactor": "carla"},
    ]
    assert len({r.timer_id for r in decision.arm}) == 2
    view = TURNS.view(state)
    assert view["phase"] == "opening"
    assert view["round"] == 0
    assert [p["reactor"] for p in view["pending_reactions"]] == ["bruno", "carla"]
    assert view["participants"]["ana"]["pa"] == 10
