"""Combat requirements asked for after a combat (umh 4.4.1 - 4.4.5, 2.3.3.1.2)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import RuleViolation
from shared.messages import ACTION_DECLARED, CMD_REQUIREMENT, COMBAT_ENDED, COMBAT_STARTED
from tests.unit.states.umh.builders import MINUTE, T0, World, declared, ended, sheet, skill, started

END = T0 + 10 * MINUTE
NOW = END + MINUTE
SEAL = skill("Sello", requirement=True)


def fought(
    *,
    reason: str = "defeat",
    winner: str | None = "attackers",
    ana_rank: int = 2,
    bruno_rank: int = 2,
    used: tuple[str, ...] = ("Sello",),
) -> World:
    world = World()
    sheets = {
        "ana": sheet("ana", rank=ana_rank, skills=[SEAL, skill("Golpe")]),
        "bruno": sheet("bruno", rank=bruno_rank),
    }
    world.on(COMBAT_STARTED, started(sheets=sheets))
    for name in used:
        world.on(ACTION_DECLARED, declared("ana", name))
    people = {"ana": ("attackers", "active", False), "bruno": ("defenders", "down", True)}
    world.on(COMBAT_ENDED, ended(reason=reason, winner=winner, people=people, at=END))
    return world


def claim(world: World, kind: str, name: str | None = None, **extra: Any) -> Any:
    payload = {"combat_id": "c_1", "character": "ana", "kind": kind, "name": name, **extra}
    return world.command("ana", CMD_REQUIREMENT, payload, now=NOW)


def refusal(world: World, kind: str, name: str | None = None) -> tuple[str, str | None]:
    with pytest.raises(RuleViolation) as caught:
        claim(world, kind, name)
    return caught.value.code, caught.value.rule


def test_umh_4_4_2_one_requirement_per_profile_per_combat() -> None:
    world = fought()
    claim(world, "profile", "Espadachín")
    claim(world, "profile", "Hechicero")
    assert refusal(world, "profile", "espadachín") == ("requirement_already_earned", "umh 4.4.2")
    kinds = [(r["kind"], r["name"]) for r in world.status("ana", NOW)["requirements_earned"]]
    assert kinds == [("general", None), ("profile", "Espadachín"), ("profile", "Hechicero")]


def test_umh_4_4_3_one_per_skill_that_asks_for_it_and_was_used() -> None:
    world = fought()
    decision = claim(world, "skill", "Sello")
    (event,) = decision.events
    assert (event.payload["change"], event.payload["rule"]) == ("requirement", "umh 4.4.3")
    assert refusal(world, "skill", "Sello") == ("requirement_already_earned", "umh 4.4.3")


@pytest.mark.parametrize(
    ("name", "used"),
    [("Golpe", ("Golpe",)), ("Sello", ())],
    ids=["umh 4.4.3 a skill that asks for no requirement", "umh 4.4.3 a skill not used in it"],
)
def test_umh_4_4_3_skill_requirement_not_applicable(name: str, used: tuple[str, ...]) -> None:
    assert refusal(fought(used=used), "skill", name) == ("requirement_not_applicable", "umh 4.4.3")


def test_umh_4_4_1_the_general_requirement_was_earned_at_the_end() -> None:
    assert refusal(fought(), "general") == ("requirement_already_earned", "umh 4.4.1")


def test_umh_4_4_4_none_from_a_lower_rank() -> None:
    world = fought(ana_rank=5, bruno_rank=4)
    assert world.status("ana", NOW)["requirements_earned"] == []
    assert refusal(world, "profile", "Espadachín") == ("requirement_from_lower_rank", "umh 4.4.4")
    assert refusal(world, "general") == ("requirement_from_lower_rank", "umh 4.4.4")


def test_t000_26_no_requirement_after_a_stalemate() -> None:
    world = fought(reason="stalemate", winner=None)
    assert refusal(world, "profile", "X") == ("requirement_not_available", "umh 2.3.3.1.2")


def test_umh_4_4_5_sheets_sent_along_fill_what_the_snapshot_lacks() -> None:
    world = fought()
    state = world.states["ana"]
    assert state is not None
    combat = state["ended"][0]
    combat["roster"].pop("bruno")
    combat["participants"]["bruno"]["rank"] = None
    sheets = {"bruno": sheet("bruno", rank=2, alliance="clan"), "ana": sheet("ana")}
    claim(world, "profile", "A", sheets=sheets)
    # Without a sheet for him, bruno's rank is unknown: when in doubt, you can't (1.1.5).
    assert refusal(world, "profile", "B") == ("requirement_from_lower_rank", "umh 4.4.4")


@pytest.mark.parametrize(
    ("combat_id", "code"),
    [("c_2", "not_in_combat")],
    ids=["a combat he was not in"],
)
def test_only_in_his_ended_combats(combat_id: str, code: str) -> None:
    world = fought()
    with pytest.raises(RuleViolation) as caught:
        claim(world, "profile", "X", combat_id=combat_id)
    assert caught.value.code == code


def test_not_while_the_combat_runs() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    with pytest.raises(RuleViolation) as caught:
        claim(world, "profile", "X")
    assert caught.value.code == "wrong_phase"
