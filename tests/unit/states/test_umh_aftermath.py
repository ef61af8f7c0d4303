"""UmhAftermath: entering combats, vigor lost at 0 VIT (umh 4.1.4), the status body."""

from __future__ import annotations

from typing import Any

import pytest

from services.states.domain.record import MAX_COMBATS_SEEN, MAX_HISTORY
from services.states.ruleset import AftermathRuleset
from services.states.umh import UmhAftermath
from shared.domain import Decision
from shared.messages import AFTERMATH_APPLIED, COMBAT_ENDED, COMBAT_STARTED, COMBATANT_JOINED

RULESET: AftermathRuleset = UmhAftermath()
NOW = 9_000

DEFAULT_STATUS: dict[str, Any] = {
    "in_combat": None,
    "vigor_lost": 0,
    "immune_until": None,
    "room_bans": [],
    "intrude_banned_until": None,
    "cooldowns": {},
    "imprisoned_until": None,
    "weekly_uses": {},
    "requirements_earned": [],
}


def combat_started(combat_id: str = "c_1") -> dict[str, Any]:
    return {
        "combat_id": combat_id,
        "ruleset": "umh",
        "room": "plaza",
        "tenant": "t_1",
        "initiator": "ana",
        "sides": {"attackers": ["ana"], "defenders": ["bruno"]},
        "opening": {"kind": "challenge"},
        "positions": None,
        "sheets": {},
        "settings": {},
        "started_at_ms": 1_000,
    }


def combat_ended(combat_id: str = "c_1", *, zero: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "combat_id": combat_id,
        "ruleset": "umh",
        "winner": "attackers",
        "reason": "defeat",
        "participants": {
            "ana": {"side": "attackers", "status": "active", "reached_zero_vit": "ana" in zero},
            "bruno": {"side": "defenders", "status": "down", "reached_zero_vit": "bruno" in zero},
        },
        "ended_at_ms": 2_000,
    }


def apply(
    state: dict[str, Any] | None, character: str, event_type: str, payload: dict[str, Any]
) -> Decision[dict[str, Any]]:
    return RULESET.on_event(state, character, event_type, payload, now_ms=NOW)


def status(state: dict[str, Any] | None) -> dict[str, Any]:
    return RULESET.view(state, now_ms=NOW)


def test_never_seen_character_has_the_default_status() -> None:
    assert status(None) == DEFAULT_STATUS


@pytest.mark.parametrize(
    ("character", "in_combat"),
    [("ana", "c_1"), ("bruno", "c_1"), ("carla", None)],
    ids=["attacker enters", "defender enters", "outsider unchanged"],
)
def test_combat_started_marks_its_participants(character: str, in_combat: str | None) -> None:
    decision = apply(None, character, COMBAT_STARTED, combat_started())
    assert decision.events == []
    if in_combat is None:
        assert decision.state is None
        return
    assert decision.state == {
        "tenant": "t_1",
        "character": character,
        "vigor_lost": 0,
        "in_combat": "c_1",
        "combats_seen": [],
        "history": [
            {
                "at_ms": 1_000,
                "kind": "combat_started",
                "combat_id": "c_1",
                "detail": {"side": "attackers" if character == "ana" else "defenders"},
            }
        ],
    }
    assert status(decision.state) == {**DEFAULT_STATUS, "in_combat": "c_1"}


def test_combat_started_twice_changes_nothing_the_second_time() -> None:
    first = apply(None, "ana", COMBAT_STARTED, combat_started())
    assert apply(first.state, "ana", COMBAT_STARTED, combat_started()).state is None


@pytest.mark.parametrize(
    ("payload", "in_combat"),
    [
        ({"combat_id": "c_1", "character": "carla", "side": "defenders", "via": "irrumpir"}, "c_1"),
        ({"combat_id": "c_1", "character": "dario", "side": "defenders"}, None),
    ],
    ids=["umh 1.2.4 joiner enters", "someone else joined"],
)
def test_combatant_joined(payload: dict[str, Any], in_combat: str | None) -> None:
    decision = apply(None, "carla", COMBATANT_JOINED, payload)
    if in_combat is None:
        assert decision.state is None
        return
    assert decision.state is not None
    assert decision.state["in_combat"] == in_combat
    assert decision.state["history"][-1]["kind"] == "combatant_joined"
    assert decision.state["history"][-1]["at_ms"] == NOW


def test_combatant_joined_without_combat_id_is_a_broken_contract() -> None:
    with pytest.raises(ValueError, match="combat_id"):
        apply(None, "carla", COMBATANT_JOINED, {"character": "carla", "side": "defenders"})


@pytest.mark.parametrize(
    ("character", "zero", "vigor_lost", "events"),
    [
        ("bruno", ("bruno",), 1, 1),
        ("ana", ("bruno",), 0, 0),
        ("ana", ("ana", "bruno"), 1, 1),
    ],
    ids=[
        "umh 4.1.4 reached 0 VIT loses 1 vigor",
        "umh 4.1.4 kept VIT loses none",
        "umh 4.1.4 the winner who reached 0 also loses 1",
    ],
)
def test_combat_ended_settles_vigor(
    character: str, zero: tuple[str, ...], vigor_lost: int, events: int
) -> None:
    entered = apply(None, character, COMBAT_STARTED, combat_started()).state
    decision = apply(entered, character, COMBAT_ENDED, combat_ended(zero=zero))
    assert decision.state is not None
    assert decision.state["in_combat"] is None
    assert decision.state["vigor_lost"] == vigor_lost
    assert decision.state["combats_seen"] == ["c_1"]
    assert len(decision.events) == events
    kinds = [entry["kind"] for entry in decision.state["history"]]
    assert kinds == ["combat_started", "combat_ended"] + ["vigor_lost"] * events
    assert status(decision.state) == {**DEFAULT_STATUS, "vigor_lost": vigor_lost}


def test_aftermath_applied_payload() -> None:
    entered = apply(None, "bruno", COMBAT_STARTED, combat_started("c_1")).state
    first = apply(entered, "bruno", COMBAT_ENDED, combat_ended("c_1", zero=("bruno",))).state
    second = apply(first, "bruno", COMBAT_STARTED, combat_started("c_2")).state
    decision = apply(second, "bruno", COMBAT_ENDED, combat_ended("c_2", zero=("bruno",)))
    (event,) = decision.events
    assert event.type == AFTERMATH_APPLIED
    assert event.payload == {
        "character": "bruno",
        "combat_id": "c_2",
        "vigor_lost_delta": 1,
        "vigor_lost": 2,
        "reason": "reached_zero_vit",
        "rule": "umh 4.1.4",
    }


def test_the_same_end_twice_loses_vigor_once() -> None:
    entered = apply(None, "bruno", COMBAT_STARTED, combat_started()).state
    first = apply(entered, "bruno", COMBAT_ENDED, combat_ended(zero=("bruno",)))
    again = apply(first.state, "bruno", COMBAT_ENDED, combat_ended(zero=("bruno",)))
    assert again.state is None and again.events == []
    assert status(first.state)["vigor_lost"] == 1


def test_a_late_start_does_not_reopen_an_ended_combat() -> None:
    ended = apply(None, "bruno", COMBAT_ENDED, combat_ended(zero=("bruno",)))
    assert ended.state is not None and ended.state["vigor_lost"] == 1
    assert apply(ended.state, "bruno", COMBAT_STARTED, combat_started()).state is None


def test_end_of_another_combat_keeps_the_current_one() -> None:
    in_c2 = apply(None, "bruno", COMBAT_STARTED, combat_started("c_2")).state
    decision = apply(in_c2, "bruno", COMBAT_ENDED, combat_ended("c_1"))
    assert decision.state is not None
    assert decision.state["in_combat"] == "c_2"
    assert decision.state["combats_seen"] == ["c_1"]


def test_end_of_a_combat_he_was_not_in_changes_nothing() -> None:
    assert apply(None, "carla", COMBAT_ENDED, combat_ended()).state is None
    other = {**combat_started("c_2"), "sides": {"attackers": ["carla"], "defenders": ["dario"]}}
    in_c2 = apply(None, "carla", COMBAT_STARTED, other).state
    assert apply(in_c2, "carla", COMBAT_ENDED, combat_ended("c_1")).state is None


def test_other_events_change_nothing() -> None:
    assert apply(None, "ana", "turn.started", {}).state is None


def test_lists_stay_bounded() -> None:
    state: dict[str, Any] | None = None
    for n in range(MAX_COMBATS_SEEN + 10):
        state = apply(state, "bruno", COMBAT_STARTED, combat_started(f"c_{n}")).state
        state = apply(state, "bruno", COMBAT_ENDED, combat_ended(f"c_{n}", zero=("bruno",))).state
    assert state is not None
    assert state["vigor_lost"] == MAX_COMBATS_SEEN + 10
    assert len(state["combats_seen"]) == MAX_COMBATS_SEEN
    assert state["combats_seen"][-1] == f"c_{MAX_COMBATS_SEEN + 9}"
    assert len(state["history"]) == MAX_HISTORY


def test_keys_the_runtime_adds_to_the_state_are_kept() -> None:
    entered = apply(None, "bruno", COMBAT_STARTED, combat_started()).state
    assert entered is not None
    decision = apply({**entered, "ruleset": "umh"}, "bruno", COMBAT_ENDED, combat_ended())
    assert decision.state is not None and decision.state["ruleset"] == "umh"
