"""Post-combat effects (umh 4.1.2, 4.1.3 with A-55, A-71, A-90, 4.3.1, 2.3.3.1.1)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import RuleViolation
from shared.messages import CMD_POST_COMBAT, COMBAT_ENDED, COMBAT_STARTED
from tests.unit.states.umh.builders import (
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

WOUND = skill("Herida", post_combat={"kind": "state", "state": "herida_grave", "seconds": 3600})
MAIM = skill("Mutilar", post_combat={"kind": "state", "state": "herida_grave"})
DRAIN = skill("Drenar", post_combat={"kind": "vigor", "vigor": 2})
DRAIN_MORE = skill("Drenar Más", post_combat={"kind": "vigor", "vigor": 1, "stacks": True})
DRAIN_AGAIN = skill("Drenar Otra", post_combat={"kind": "vigor", "vigor": 1})
SKILLS = (WOUND, MAIM, DRAIN, DRAIN_MORE, DRAIN_AGAIN)

PEOPLE = {
    "ana": ("attackers", "active", False),
    "dani": ("attackers", "active", True),
    "flor": ("attackers", "fled", False),
    "bruno": ("defenders", "down", True),
    "carla": ("defenders", "disconnected", False),
}


def world_after(reason: str = "defeat", winner: str | None = "attackers") -> World:
    world = World()
    sheets = {c: sheet(c, skills=SKILLS) for c in PEOPLE}
    payload = started(
        attackers=("ana", "dani", "flor"), defenders=("bruno", "carla"), sheets=sheets
    )
    world.on(COMBAT_STARTED, payload)
    world.on(COMBAT_ENDED, ended(reason=reason, winner=winner, people=PEOPLE, at=END))
    return world


def post(world: World, actor: str, target: str, skill_name: str | None = None, **extra: Any) -> Any:
    payload = {"combat_id": "c_1", "actor": actor, "target": target, "skill": skill_name, **extra}
    return world.command(target, CMD_POST_COMBAT, payload, now=NOW)


def refused(world: World, *args: Any, **extra: Any) -> tuple[str, str | None, dict[str, Any]]:
    with pytest.raises(RuleViolation) as caught:
        post(world, *args, **extra)
    return caught.value.code, caught.value.rule, caught.value.details


@pytest.mark.parametrize(
    ("actor", "target", "code", "reason"),
    [
        ("dani", "bruno", "not_eligible_for_postcombat", "reached_zero_vit"),
        ("flor", "bruno", "not_eligible_for_postcombat", "fled"),
        ("bruno", "carla", "not_eligible_for_postcombat", "not_a_winner"),
        ("ana", "dani", "not_eligible_for_postcombat", "target_not_defeated"),
    ],
    ids=[
        "umh 4.1.3 A-55 a winner who reached 0 VIT",
        "umh 4.1.3 A-55 a winner who fled",
        "umh 4.1.3 only the winners",
        "umh 4.1.3 only on the defeated",
    ],
)
def test_only_eligible_winners_on_the_defeated(
    actor: str, target: str, code: str, reason: str
) -> None:
    got_code, rule, details = refused(world_after(), actor, target, "Herida")
    assert (got_code, rule, details["reason"]) == (code, "umh 4.1.3", reason)


@pytest.mark.parametrize(
    ("reason", "winner"),
    [("pact", None), ("annulled", None)],
    ids=["umh 4.1.1.3 a pact has no winner", "umh 4.2.4 an annulled combat has no winner"],
)
def test_no_winner_no_post_combat_effects(reason: str, winner: str | None) -> None:
    code, rule, details = refused(world_after(reason, winner), "ana", "bruno", "Herida")
    assert (code, rule, details["reason"]) == (
        "not_eligible_for_postcombat",
        "umh 4.1.3",
        "no_winner",
    )


def test_t000_26_no_effects_after_a_stalemate() -> None:
    code, rule, _ = refused(world_after("stalemate", None), "ana", "bruno", "Herida")
    assert (code, rule) == ("no_effects_on_stalemate", "umh 2.3.3.1.1")


def test_umh_4_3_4_the_disconnected_loser_is_open_to_post_combat_states() -> None:
    world = world_after()
    post(world, "ana", "carla", "Herida")
    (held,) = world.status("carla", NOW)["post_combat_states"]
    assert held["state"] == "herida_grave"
    # umh 4.3.1: counted from the end, not from when it was posted.
    assert held["until"] == "2025-05-14T19:10:00.000Z"


def test_a_state_without_duration_lasts_until_lifted() -> None:
    world = world_after()
    decision = post(world, "ana", "bruno", "Mutilar")
    assert decision.arm == []
    (held,) = world.status("bruno", NOW + 1000 * MINUTE)["post_combat_states"]
    assert held["until"] is None


def test_a_post_combat_state_ends_with_its_event() -> None:
    world = world_after()
    post(world, "ana", "bruno", "Herida")
    decision = world.fire_due("bruno", "post_combat_state")
    assert [e.type for e in decision.events] == ["post_combat_state.expired"]
    assert decision.events[0].payload["state"] == "herida_grave"
    assert world.status("bruno", END + 61 * MINUTE)["post_combat_states"] == []


@pytest.mark.parametrize(
    ("first", "second", "allowed"),
    [
        ("Drenar", "Drenar Otra", False),
        ("Drenar", "Drenar Más", True),
        ("Herida", "Mutilar", False),
        ("Drenar", "Herida", True),
    ],
    ids=[
        "umh 4.1.2 A-71 a second vigor effect does not stack",
        "umh 4.1.2 unless the skill allows stacking",
        "umh 4.1.2 the same state twice overlaps",
        "umh 4.1.2 effects of another kind do not overlap",
    ],
)
def test_umh_4_1_2_post_combat_effects_do_not_stack(first: str, second: str, allowed: bool) -> None:
    world = world_after()
    post(world, "ana", "bruno", first)
    if allowed:
        post(world, "ana", "bruno", second)
        return
    code, rule, _ = refused(world, "ana", "bruno", second)
    assert (code, rule) == ("postcombat_effect_stack", "umh 4.1.2")


def test_a_vigor_effect_adds_to_the_vigor_lost() -> None:
    world = world_after()
    post(world, "ana", "bruno", "Drenar")
    assert world.status("bruno", NOW)["vigor_lost"] == 3  # 1 at 0 VIT + 2
    event = world.events[-1][1]
    assert (event.payload["change"], event.payload["reason"]) == (
        "vigor_lost",
        "post_combat:Drenar",
    )


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"skill": "Puño"}, "not_eligible_for_postcombat"),
        ({"skill": "Nada"}, "not_eligible_for_postcombat"),
        ({"combat_id": "c_2", "skill": "Herida"}, "not_in_combat"),
    ],
    ids=[
        "umh 4.1.2 a skill without post-combat effect",
        "an unknown skill",
        "a combat he was not in",
    ],
)
def test_the_effect_must_exist(payload: dict[str, Any], code: str) -> None:
    world = world_after()
    body = {"combat_id": "c_1", "actor": "ana", "target": "bruno", **payload}
    with pytest.raises(RuleViolation) as caught:
        world.command("bruno", CMD_POST_COMBAT, body, now=NOW)
    assert caught.value.code == code


def test_a_running_combat_has_no_post_combat_yet() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    body = {"combat_id": "c_1", "actor": "ana", "target": "bruno", "skill": "Herida"}
    with pytest.raises(RuleViolation) as caught:
        world.command("bruno", CMD_POST_COMBAT, body, now=NOW)
    assert (caught.value.code, caught.value.rule) == ("wrong_phase", "umh 4.1.3")


def test_a_joiner_unknown_to_the_snapshot_is_read_from_the_sheet_sent_along() -> None:
    world = world_after()
    payload = {
        "combat_id": "c_1",
        "actor": "ana",
        "target": "bruno",
        "skill": "Zarpazo",
        "actor_sheet": sheet(
            "ana", skills=[skill("Zarpazo", post_combat={"kind": "vigor", "vigor": 1})]
        ),
    }
    with pytest.raises(RuleViolation):  # the snapshot knows ana: her sheet then wins
        world.command("bruno", CMD_POST_COMBAT, payload, now=NOW)
    state = world.states["bruno"]
    assert state is not None
    state["ended"][0]["roster"].pop("ana")
    world.command("bruno", CMD_POST_COMBAT, payload, now=NOW)
    assert world.status("bruno", NOW)["vigor_lost"] == 2
