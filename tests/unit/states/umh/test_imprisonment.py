"""Imprisonment (umh 4.5.1 - 4.5.4): test vector T000-36 and the prisoner's limits."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import RuleViolation
from shared.messages import CMD_POST_COMBAT, COMBAT_ENDED, COMBAT_STARTED
from tests.unit.states.umh.builders import (
    HOUR,
    MINUTE,
    T0,
    World,
    ended,
    sheet,
    skill,
    started,
)

END = T0 + 10 * MINUTE
NOW = END + MINUTE
KIDNAP = skill("Secuestro", post_combat={"kind": "imprison", "seconds": 7200})
ENDLESS = skill("Mazmorra", post_combat={"kind": "imprison", "seconds": 100 * 3600})
BEATEN = {"ana": ("attackers", "active", False), "bruno": ("defenders", "down", True)}


def beaten(times: int, *, cell: bool = True, aftermath: dict[str, int] | None = None) -> World:
    """ana beats bruno ``times`` times (each costs him 1 vigor, umh 4.1.4)."""
    world = World()
    sheets = {"ana": sheet("ana", cell=cell, skills=[KIDNAP, ENDLESS]), "bruno": sheet("bruno")}
    for n in range(1, times + 1):
        world.on(COMBAT_STARTED, started(f"c_{n}", sheets=sheets, aftermath=aftermath))
        world.on(COMBAT_ENDED, ended(f"c_{n}", people=BEATEN, at=END))
    return world


def imprison(world: World, *, combat: str, **how: Any) -> Any:
    payload = {"combat_id": combat, "actor": "ana", "target": "bruno", **how}
    return world.command("bruno", CMD_POST_COMBAT, payload, now=NOW)


def test_t000_36_a_foe_who_lost_one_vigor_cannot_be_imprisoned() -> None:
    world = beaten(1)
    with pytest.raises(RuleViolation) as caught:
        imprison(world, combat="c_1", cell=True)
    assert (caught.value.code, caught.value.rule) == ("imprison_not_eligible", "umh 4.5.1")
    assert caught.value.details == {"reason": "vigor_lost_below_2", "vigor_lost": 1}


def test_t000_36_two_lost_and_a_cell_imprisons_at_most_72_hours() -> None:
    world = beaten(2)
    imprison(world, combat="c_2", cell=True)
    status = world.status("bruno", NOW)
    assert status["imprisoned_until"] == "2025-05-17T18:10:00.000Z"  # end + 72 h (4.5.2, 4.3.1)
    (timer,) = [t for t in world.armed.values() if t.kind == "imprisonment"]
    assert timer.due_ms == END + 72 * HOUR
    event = world.events[-1][1]
    assert event.payload["change"] == "imprisoned"
    assert (event.payload["by"], event.payload["captors"]) == ("ana", ["ana"])


@pytest.mark.parametrize(
    ("skill_name", "hours"),
    [("Secuestro", 2), ("Mazmorra", 72)],
    ids=["umh 4.5.2 the skill's own duration", "umh 4.5.2 never beyond 72 hours"],
)
def test_imprisonment_duration(skill_name: str, hours: int) -> None:
    world = beaten(2, cell=False)
    imprison(world, combat="c_2", skill=skill_name)
    (timer,) = [t for t in world.armed.values() if t.kind == "imprisonment"]
    assert timer.due_ms == END + hours * HOUR


def test_umh_4_5_1_no_cell_no_imprisonment() -> None:
    world = beaten(2, cell=False)
    with pytest.raises(RuleViolation) as caught:
        imprison(world, combat="c_2", cell=True)
    assert (caught.value.code, caught.value.details) == (
        "imprison_not_eligible",
        {"reason": "no_cell"},
    )


def test_the_imprisonment_max_is_a_setting() -> None:
    world = beaten(2, aftermath={"imprisonment_max_seconds": 2})
    imprison(world, combat="c_2", cell=True)
    decision = world.fire_due("bruno", "imprisonment")
    (event,) = decision.events
    assert (event.type, event.payload["reason"]) == ("imprisonment.expired", "elapsed")
    assert world.status("bruno", END + 3000)["imprisoned_until"] is None


def prisoner() -> World:
    world = beaten(2)
    imprison(world, combat="c_2", cell=True)
    return world


def start(attacker: str, *defenders: str, challenge: bool = True) -> dict[str, Any]:
    return {
        "purpose": "start",
        "characters": [attacker, *defenders],
        "attacker": attacker,
        "defenders": list(defenders),
        "challenge": challenge,
    }


@pytest.mark.parametrize(
    ("query", "code", "rule"),
    [
        (start("bruno", "ana", "x", "y", "z"), "too_many_opponents", "umh 4.5.4"),
        (start("bruno", "ana", challenge=False), "prisoner_action_forbidden", "umh 4.5.2"),
        (start("bruno", "dario"), "prisoner_action_forbidden", "umh 4.5.4"),
        (
            {"purpose": "join", "combat_id": "c_9", "characters": ["bruno"], "via": "irrumpir"},
            "prisoner_action_forbidden",
            "umh 4.5.2",
        ),
    ],
    ids=[
        "T000-36 the prisoner challenges 4 captors",
        "umh 4.5.2 the prisoner attacks nobody out of combat",
        "umh 4.5.4 only members of the capturing group",
        "umh 4.5.2 the prisoner joins no combat",
    ],
)
def test_the_prisoner_s_limits(query: dict[str, Any], code: str, rule: str) -> None:
    checked = prisoner().check(query, now=NOW)
    assert not checked.allowed
    assert (checked.refusals[0].code, checked.refusals[0].rule) == (code, rule)
    assert checked.refusals[0].character == "bruno"


def test_t000_36_the_prisoner_challenges_his_captor_and_wins_his_freedom() -> None:
    world = prisoner()
    checked = world.check(start("bruno", "ana"), now=NOW)
    assert checked.allowed and checked.prisoner_challenge
    world.on(COMBAT_STARTED, started("c_3", attackers=("bruno",), defenders=("ana",)), now=NOW)
    people = {"bruno": ("attackers", "active", False), "ana": ("defenders", "down", True)}
    world.clear()
    world.on(COMBAT_ENDED, ended("c_3", people=people, at=NOW + MINUTE))
    freed = [e for c, e in world.events if c == "bruno" and e.type == "imprisonment.expired"]
    assert [(e.payload["reason"], e.payload["rule"]) for e in freed] == [
        ("won_challenge", "umh 4.5.4")
    ]
    assert world.status("bruno", NOW + MINUTE)["imprisoned_until"] is None
    assert not any(t.kind == "imprisonment" for t in world.armed.values())


def test_the_prisoner_who_loses_his_challenge_stays_a_prisoner() -> None:
    world = prisoner()
    world.on(COMBAT_STARTED, started("c_3", attackers=("bruno",), defenders=("ana",)), now=NOW)
    people = {"bruno": ("attackers", "down", True), "ana": ("defenders", "active", False)}
    world.on(COMBAT_ENDED, ended("c_3", winner="defenders", people=people, at=NOW + MINUTE))
    assert world.status("bruno", NOW + MINUTE)["imprisoned_until"] is not None


def test_the_capturing_group_includes_the_captor_s_alliance() -> None:
    world = World()
    sheets = {"ana": sheet("ana", cell=True, alliance="clan"), "bruno": sheet("bruno")}
    for n in (1, 2):
        world.on(COMBAT_STARTED, started(f"c_{n}", sheets=sheets))
        world.on(COMBAT_ENDED, ended(f"c_{n}", people=BEATEN, at=END))
    imprison(world, combat="c_2", cell=True)
    # gil, of ana's alliance, is known to services/states from a combat of his own.
    world.on(
        COMBAT_STARTED,
        started(
            "c_7",
            attackers=("gil",),
            defenders=("hugo",),
            sheets={"gil": sheet("gil", alliance="Clan"), "hugo": sheet("hugo")},
        ),
    )
    world.on(
        COMBAT_ENDED,
        ended(
            "c_7",
            people={"gil": ("attackers", "active", False), "hugo": ("defenders", "down", True)},
        ),
    )
    assert world.check(start("bruno", "ana", "gil"), now=NOW).allowed
    assert not world.check(start("bruno", "ana", "hugo"), now=NOW).allowed
