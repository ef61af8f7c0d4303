"""The end of a combat for each of its reasons: vigor (umh 4.1.4, 2.3.3.1, 4.3.4, never
stacked 4.1.2), immunities (4.2.1, 4.2.4, A-56), the general requirement (4.4.1) and the
recovery of vigor (4.1.6)."""

from __future__ import annotations

import pytest

from shared.messages import (
    ACTION_DECLARED,
    AFTERMATH_APPLIED,
    COMBAT_ENDED,
    COMBAT_STARTED,
    EFFECT_APPLIED,
)
from tests.unit.states.umh.builders import (
    MINUTE,
    SECOND,
    T0,
    World,
    declared,
    effect,
    ended,
    sheet,
    started,
)

END = T0 + 10 * MINUTE
DUO = {"attackers": ("ana",), "defenders": ("bruno",)}


def fought(
    reason: str,
    winner: str | None,
    people: dict[str, tuple[str, str, bool]],
    *,
    states_to: tuple[str, ...] = (),
    aftermath: dict[str, int] | None = None,
) -> World:
    world = World()
    attackers = tuple(c for c, p in people.items() if p[0] == "attackers")
    defenders = tuple(c for c, p in people.items() if p[0] == "defenders")
    world.on(COMBAT_STARTED, started(attackers=attackers, defenders=defenders, aftermath=aftermath))
    for character in states_to:
        world.on(EFFECT_APPLIED, effect(character))
    world.on(COMBAT_ENDED, ended(reason=reason, winner=winner, people=people, at=END))
    return world


def vigor_of(world: World, character: str) -> int:
    return int(world.status(character, END)["vigor_lost"])


STALEMATE = {
    "ana": ("attackers", "active", False),
    "bruno": ("defenders", "active", False),
    "carla": ("defenders", "down", True),
}


def test_t000_26_stalemate_every_player_loses_one_vigor_and_nothing_else() -> None:
    world = fought("stalemate", None, STALEMATE, states_to=("ana",))
    assert {c: vigor_of(world, c) for c in STALEMATE} == {"ana": 1, "bruno": 1, "carla": 1}
    reasons = {
        c: e.payload["reason"] for c, e in world.events if e.payload["change"] == "vigor_lost"
    }
    assert reasons == {"ana": "stalemate", "bruno": "stalemate", "carla": "reached_zero_vit"}
    # 2.3.3.1.2: no requirement nor other benefit (no 4.2.1 immunity for ana's state).
    assert world.changes() == [(AFTERMATH_APPLIED, "vigor_lost")] * 3
    assert all(world.status(c, END)["requirements_earned"] == [] for c in STALEMATE)
    assert world.status("ana", END)["immune_until"] is None


def test_umh_2_3_3_1_whoever_fled_before_the_stalemate_had_left() -> None:
    people = {"ana": ("attackers", "active", False), "bruno": ("defenders", "fled", False)}
    world = fought("stalemate", None, people)
    assert (vigor_of(world, "ana"), vigor_of(world, "bruno")) == (1, 0)


@pytest.mark.parametrize(
    ("people", "vigor"),
    [
        (
            {"ana": ("attackers", "disconnected", False), "bruno": ("defenders", "down", True)},
            {"ana": 1, "bruno": 1},
        ),
        (
            {"ana": ("attackers", "disconnected", True), "bruno": ("defenders", "down", True)},
            {"ana": 1, "bruno": 1},
        ),
        (
            {"ana": ("attackers", "active", False), "bruno": ("defenders", "disconnected", False)},
            {"ana": 0, "bruno": 0},
        ),
    ],
    ids=[
        "T000-34 disconnected on the winning side falls with -1 (umh 4.3.4)",
        "T000-34 unless a greater state: reached 0 VIT already, -1 once (umh 4.1.2)",
        "T000-34 disconnected on the losing side: defeated, no automatic vigor (umh 4.3.3)",
    ],
)
def test_t000_34_disconnection(
    people: dict[str, tuple[str, str, bool]], vigor: dict[str, int]
) -> None:
    world = fought("disconnected", "attackers", people)
    assert {c: vigor_of(world, c) for c in people} == vigor


def test_t000_34_vit_0_costs_one_vigor() -> None:
    world = fought(
        "defeat",
        "attackers",
        {"ana": ("attackers", "active", False), "bruno": ("defenders", "down", True)},
    )
    assert (vigor_of(world, "ana"), vigor_of(world, "bruno")) == (0, 1)


@pytest.mark.parametrize(
    ("reason", "winner", "zero"),
    [("pact", None, True), ("fled", "attackers", False), ("defeat", "attackers", True)],
    ids=[
        "umh 4.1.1.3 pact: the states received are kept (4.1.7)",
        "umh 4.1.1.1 flight: no VIT lost, no vigor",
        "umh 4.1.1.2 defeat",
    ],
)
def test_vigor_by_end_reason(reason: str, winner: str | None, zero: bool) -> None:
    status = "fled" if reason == "fled" else "down"
    people = {"ana": ("attackers", "active", False), "bruno": ("defenders", status, zero)}
    world = fought(reason, winner, people)
    assert vigor_of(world, "bruno") == (1 if zero else 0)


def test_umh_4_2_4_annulled_everyone_involved_is_immune_and_loses_nothing() -> None:
    people = {"ana": ("attackers", "active", False), "bruno": ("defenders", "down", True)}
    world = fought("annulled", None, people, aftermath={"immunity_seconds": 2})
    for character in people:
        status = world.status(character, END)
        assert status["vigor_lost"] == 0
        assert status["immune_until"] == "2025-05-14T18:10:02.000Z"
        assert status["requirements_earned"] == []
    rules = {e.payload["rule"] for _, e in world.events if e.payload["change"] == "immunity"}
    assert rules == {"umh 4.2.4"}


def test_umh_4_2_4_the_moderator_s_reason_is_in_the_history() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(
        COMBAT_ENDED, {**ended(reason="annulled", winner=None, at=END), "annul_reason": "spam"}
    )
    (end,) = [e for e in world.history("ana") if e["change"] == "combat_ended"]
    assert (end["reason"], end["annul_reason"]) == ("annulled", "spam")


def test_umh_4_2_1_a_state_received_gives_five_minutes_from_the_end() -> None:
    people = {"ana": ("attackers", "active", False), "bruno": ("defenders", "down", True)}
    world = fought("defeat", "attackers", people, states_to=("bruno",))
    assert world.status("bruno", END)["immune_until"] == "2025-05-14T18:15:00.000Z"
    assert world.status("ana", END)["immune_until"] is None
    (timer,) = [t for t in world.armed.values() if t.kind == "immunity"]
    assert timer.due_ms == END + 5 * MINUTE


def test_umh_4_2_1_a_non_state_effect_gives_no_immunity() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(EFFECT_APPLIED, effect("bruno", is_state=False))
    world.on(COMBAT_ENDED, ended(at=END))
    assert world.status("bruno", END)["immune_until"] is None


def test_a_56_an_offensive_action_ends_the_immunity_at_once() -> None:
    people = {"ana": ("attackers", "active", False), "bruno": ("defenders", "down", True)}
    world = fought("defeat", "attackers", people, states_to=("bruno",))
    world.on(
        COMBAT_STARTED,
        started("c_2", attackers=("bruno",), defenders=("carla",), challenge=False),
        now=END + MINUTE,
    )
    assert world.status("bruno", END + MINUTE)["immune_until"] is None
    expired = [e for c, e in world.events if e.type == "immunity.expired"]
    assert [e.payload["reason"] for e in expired] == ["offensive_action"]
    assert world.cancelled  # the immunity timer is cancelled


def test_a_56_a_supplementary_skill_keeps_the_immunity() -> None:
    people = {"ana": ("attackers", "active", False), "bruno": ("defenders", "down", True)}
    world = fought("defeat", "attackers", people, states_to=("bruno",))
    world.on(
        COMBAT_STARTED,
        started("c_2", attackers=("carla",), defenders=("bruno",), challenge=False),
        now=END + MINUTE,
    )
    world.on(
        ACTION_DECLARED,
        declared("bruno", "Concentración", offensive=False),
        combat_id="c_2",
        now=END + 2 * MINUTE,
    )
    assert world.status("bruno", END + 2 * MINUTE)["immune_until"] is not None
    world.on(ACTION_DECLARED, declared("bruno", "Puño"), combat_id="c_2", now=END + 3 * MINUTE)
    assert world.status("bruno", END + 3 * MINUTE)["immune_until"] is None


def test_umh_4_4_1_one_general_requirement_each_at_the_end() -> None:
    people = {"ana": ("attackers", "active", False), "bruno": ("defenders", "down", True)}
    world = fought("defeat", "attackers", people)
    for character in people:
        (earned,) = world.status(character, END)["requirements_earned"]
        assert (earned["combat_id"], earned["kind"]) == ("c_1", "general")


@pytest.mark.parametrize(
    ("ranks", "alliances", "earned"),
    [
        ({"ana": 3, "bruno": 2}, {}, {"ana": False, "bruno": True}),
        ({"ana": 2, "bruno": 2}, {"ana": "clan", "bruno": "CLAN"}, {"ana": False, "bruno": False}),
        ({"ana": 2, "bruno": 2}, {"ana": "clan", "bruno": "otro"}, {"ana": True, "bruno": True}),
    ],
    ids=[
        "umh 4.4.4 none from a lower rank",
        "umh 4.4.5 none from the same alliance",
        "umh 4.4.1 different alliances of the same rank",
    ],
)
def test_general_requirement_rank_and_alliance(
    ranks: dict[str, int], alliances: dict[str, str], earned: dict[str, bool]
) -> None:
    world = World()
    sheets = {c: sheet(c, rank=r, alliance=alliances.get(c)) for c, r in ranks.items()}
    world.on(COMBAT_STARTED, started(sheets=sheets))
    world.on(COMBAT_ENDED, ended(at=END))
    got = {c: bool(world.status(c, END)["requirements_earned"]) for c in ranks}
    assert got == earned


def test_umh_4_1_6_all_lost_vigor_comes_back_together() -> None:
    world = World()
    for n in (1, 2):
        world.on(COMBAT_STARTED, started(f"c_{n}", aftermath={"vigor_recovery_seconds": 60}))
        world.on(COMBAT_ENDED, ended(f"c_{n}", at=END + n * SECOND))
    status = world.status("bruno", END + 2 * SECOND)
    assert status["vigor_lost"] == 2
    assert status["vigor_recovers_at"] == "2025-05-14T18:11:02.000Z"  # from the last loss
    recoveries = [t for t in world.armed.values() if t.kind == "vigor_recovery"]
    assert len(recoveries) == 1  # the first was cancelled by the second loss
    decision = world.fire_due("bruno", "vigor_recovery")
    (event,) = decision.events
    assert event.type == "vigor.recovered"
    assert (event.payload["recovered"], event.payload["rule"]) == (2, "umh 4.1.6")
    assert world.status("bruno", END + MINUTE * 2)["vigor_lost"] == 0
    assert world.status("bruno", END + MINUTE * 2)["vigor_recovers_at"] is None


def test_a_fired_timer_the_record_no_longer_has_is_ignored() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(COMBAT_ENDED, ended(at=END))
    assert world.fire("bruno", "t_1:bruno:vigor_recovery:999").state is None
