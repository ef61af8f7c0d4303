"""UmhAftermath: entering combats, vigor lost at 0 VIT (umh 4.1.4), the status body."""

from __future__ import annotations

from typing import Any

import pytest

from services.states.domain.umh.record import MAX_COMBATS_SEEN, MAX_HISTORY
from shared.messages import AFTERMATH_APPLIED, COMBAT_ENDED, COMBAT_STARTED, COMBATANT_JOINED
from tests.unit.states.umh.builders import MINUTE, RULESET, T0, World, ended, joined, started

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
    "post_combat_states": [],
    "vigor_recovers_at": None,
    "carried": None,
    "ruleset_status": {},
}


def test_never_seen_character_has_the_default_status() -> None:
    assert World().status("ana", T0) == DEFAULT_STATUS


@pytest.mark.parametrize(
    ("character", "side"),
    [("ana", "attackers"), ("bruno", "defenders")],
    ids=["umh 1.2.2 attacker enters", "umh 1.2.2 defender enters"],
)
def test_combat_started_marks_its_participants(character: str, side: str) -> None:
    world = World()
    decisions = world.on(COMBAT_STARTED, started())
    assert decisions[character].events == []
    state = world.states[character]
    assert state is not None
    assert (state["tenant"], state["character"], state["in_combat"]) == ("t_1", character, "c_1")
    assert state["own"]["rank"] == 2
    (entry,) = world.history(character)
    assert (entry["change"], entry["combat_id"], entry["side"]) == ("combat_started", "c_1", side)
    assert world.status(character, T0) == {**DEFAULT_STATUS, "in_combat": "c_1"}


def test_an_outsider_is_not_touched() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    assert "carla" not in world.states


def test_combat_started_twice_changes_nothing_the_second_time() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    again = world.on(COMBAT_STARTED, started())
    assert all(d.state is None for d in again.values())


def test_umh_1_2_4_joiner_enters_with_his_own_sheet() -> None:
    world = World()
    world.on(COMBATANT_JOINED, joined("carla"), now=T0 + MINUTE)
    state = world.states["carla"]
    assert state is not None and state["in_combat"] == "c_1"
    assert world.history("carla")[-1]["change"] == "combatant_joined"
    assert set(state["open_combats"][0]["roster"]) == {"carla"}


def test_combat_started_without_combat_id_is_a_broken_contract() -> None:
    payload = started()
    del payload["combat_id"]
    with pytest.raises(ValueError, match="combat_id"):
        World().on(COMBAT_STARTED, payload)


@pytest.mark.parametrize(
    ("character", "zero", "vigor_lost"),
    [("bruno", ("bruno",), 1), ("ana", ("bruno",), 0), ("ana", ("ana", "bruno"), 1)],
    ids=[
        "umh 4.1.4 reached 0 VIT loses 1 vigor",
        "umh 4.1.4 kept VIT loses none",
        "umh 4.1.4 the winner who reached 0 also loses 1",
    ],
)
def test_combat_ended_settles_vigor(character: str, zero: tuple[str, ...], vigor_lost: int) -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    people = {
        "ana": ("attackers", "active", "ana" in zero),
        "bruno": ("defenders", "down", "bruno" in zero),
    }
    world.on(COMBAT_ENDED, ended(people=people))
    state = world.states[character]
    assert state is not None
    assert state["in_combat"] is None
    assert state["vigor_lost"] == vigor_lost
    assert state["combats_seen"] == ["c_1"]
    lost = [e for c, e in world.events if c == character and e.payload["change"] == "vigor_lost"]
    assert len(lost) == vigor_lost
    assert world.status(character, T0)["vigor_lost"] == vigor_lost


def test_aftermath_applied_payload_of_vigor_lost() -> None:
    world = World()
    end = T0 + 10 * MINUTE
    for n in (1, 2):
        world.on(COMBAT_STARTED, started(f"c_{n}"))
        world.on(COMBAT_ENDED, ended(f"c_{n}", at=end))
    (event,) = [
        e for c, e in world.events[-3:] if c == "bruno" and e.payload["change"] == "vigor_lost"
    ]
    assert event.type == AFTERMATH_APPLIED
    assert event.payload == {
        "character": "bruno",
        "combat_id": "c_2",
        "change": "vigor_lost",
        "rule": "umh 4.1.4",
        "reason": "reached_zero_vit",
        "vigor_lost_delta": 1,
        "vigor_lost": 2,
        "recovers_at": "2025-05-21T18:10:00.000Z",
    }


def test_the_same_end_twice_loses_vigor_once() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(COMBAT_ENDED, ended())
    again = world.on(COMBAT_ENDED, ended())
    assert all(d.state is None and d.events == [] for d in again.values())
    assert world.status("bruno", T0)["vigor_lost"] == 1


def test_a_late_start_does_not_reopen_an_ended_combat() -> None:
    world = World()
    world.on(COMBAT_ENDED, ended())
    assert world.status("bruno", T0)["vigor_lost"] == 1
    assert world.on(COMBAT_STARTED, started())["bruno"].state is None


def test_end_of_another_combat_keeps_the_current_one() -> None:
    world = World()
    world.on(COMBAT_STARTED, started("c_2"))
    world.on(COMBAT_ENDED, ended("c_1"))
    state = world.states["bruno"]
    assert state is not None
    assert state["in_combat"] == "c_2"
    assert state["combats_seen"] == ["c_1"]


def test_end_of_a_combat_he_was_not_in_changes_nothing() -> None:
    world = World()
    world.on(COMBAT_STARTED, started("c_2", attackers=("carla",), defenders=("dario",)))
    decision = RULESET.on_event(
        world.states["carla"], "carla", COMBAT_ENDED, ended(), world.ctx(T0)
    )
    assert decision.state is None


def test_an_end_that_does_not_list_him_still_takes_him_out_of_it() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    payload = ended(people={"bruno": ("defenders", "down", True)})
    decision = RULESET.on_event(world.states["ana"], "ana", COMBAT_ENDED, payload, world.ctx(T0))
    assert decision.state is not None and decision.state["in_combat"] is None
    assert decision.events == []


def test_lists_stay_bounded() -> None:
    world = World()
    for n in range(MAX_COMBATS_SEEN + 10):
        world.on(COMBAT_STARTED, started(f"c_{n}"))
        world.on(COMBAT_ENDED, ended(f"c_{n}"))
    state = world.states["bruno"]
    assert state is not None
    assert state["vigor_lost"] == MAX_COMBATS_SEEN + 10
    assert len(state["combats_seen"]) == MAX_COMBATS_SEEN
    assert state["combats_seen"][-1] == f"c_{MAX_COMBATS_SEEN + 9}"
    assert len(state["history"]) == MAX_HISTORY
    assert len(state["ended"]) <= 20
    assert len(state["requirements"]) <= 100


def test_keys_the_runtime_adds_to_the_state_are_kept() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    state = world.states["bruno"]
    assert state is not None
    world.states["bruno"] = {**state, "ruleset": "umh"}
    world.on(COMBAT_ENDED, ended())
    assert world.states["bruno"] is not None and world.states["bruno"]["ruleset"] == "umh"


def test_other_events_change_nothing() -> None:
    assert RULESET.on_event(None, "ana", "turn.started", {}, World().ctx(T0)).state is None
