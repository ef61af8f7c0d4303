"""A moderator lifts or shortens a timed state; the reason stays in the history."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import RuleViolation
from shared.messages import CMD_MODERATE, COMBAT_ENDED, COMBAT_STARTED, COMBATANT_FLED
from tests.unit.states.umh.builders import MINUTE, SECOND, T0, World, ended, fled, started

SOON = T0 + MINUTE


def fled_world() -> World:
    world = World()
    world.on(COMBAT_STARTED, started(attackers=("ana",), defenders=("bruno", "carla")))
    world.on(COMBATANT_FLED, fled("bruno"), now=T0)
    people = {
        "ana": ("attackers", "active", False),
        "bruno": ("defenders", "fled", False),
        "carla": ("defenders", "down", True),
    }
    world.on(COMBAT_ENDED, ended(people=people, at=T0 + SECOND))
    world.clear()
    return world


def adjust(world: World, kind: str, **body: Any) -> Any:
    payload = {"character": "bruno", "kind": kind, "reason": "error del árbitro", **body}
    return world.command("bruno", CMD_MODERATE, {"moderator": "k_1", **payload}, now=SOON)


@pytest.mark.parametrize(
    ("kind", "key", "expired", "field"),
    [
        ("immunity", None, "immunity.expired", "immune_until"),
        ("room_ban", "plaza", "room_ban.expired", "room_bans"),
        ("irrumpir_ban", None, "irrumpir_ban.expired", "intrude_banned_until"),
        ("flee_cooldown", "flee", "flee_cooldown.expired", "cooldowns"),
    ],
    ids=["lift umh 4.2.2", "lift umh 4.2.3", "lift umh 4.2.3.1", "lift umh 4.1.1.1.1"],
)
def test_lift(kind: str, key: str | None, expired: str, field: str) -> None:
    world = fled_world()
    decision = adjust(world, kind, key=key, lift=True)
    assert [e.type for e in decision.events] == [expired, "status.adjusted"]
    assert decision.events[0].payload["reason"] == "lifted_by_moderator"
    assert len(decision.cancel) == 1
    assert world.status("bruno", SOON)[field] in (None, [], {})
    entry = world.history("bruno")[-1]
    assert (entry["change"], entry["reason"], entry["moderator"]) == (
        "moderated",
        "error del árbitro",
        "k_1",
    )
    assert (entry["action"], entry["after"]) == ("lift", None)


def test_shorten_replaces_the_timer() -> None:
    world = fled_world()
    until = T0 + 2 * MINUTE
    decision = adjust(world, "room_ban", key="plaza", until_ms=until)
    assert [e.type for e in decision.events] == ["status.adjusted"]
    (armed,) = decision.arm
    assert (armed.kind, armed.due_ms) == ("room_ban", until)
    assert decision.cancel and decision.cancel[0] != armed.timer_id
    assert world.status("bruno", SOON)["room_bans"] == [
        {"room": "plaza", "until": "2025-05-14T18:02:00.000Z"}
    ]
    assert world.history("bruno")[-1]["before"] == "2025-05-14T18:15:00.000Z"


@pytest.mark.parametrize(
    ("kind", "body", "code"),
    [
        ("room_ban", {"key": "plaza", "until_ms": T0 + 60 * MINUTE}, "invalid_adjustment"),
        ("imprisonment", {"lift": True}, "no_such_state"),
        ("room_ban", {"key": "otra", "lift": True}, "no_such_state"),
        ("vigor", {"lift": True}, "no_such_state"),
    ],
    ids=[
        "moderators shorten, never lengthen",
        "nothing to lift",
        "no ban in that room",
        "no vigor lost",
    ],
)
def test_refused_adjustments(kind: str, body: dict[str, Any], code: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        adjust(fled_world(), kind, **body)
    assert caught.value.code == code


def test_an_until_already_past_lifts() -> None:
    decision = adjust(fled_world(), "immunity", until_ms=T0)
    assert [e.type for e in decision.events] == ["immunity.expired", "status.adjusted"]


def test_lifting_lost_vigor_recovers_it_all() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(COMBAT_ENDED, ended())
    decision = adjust(world, "vigor", lift=True)
    assert [e.type for e in decision.events] == ["vigor.recovered", "status.adjusted"]
    assert world.status("bruno", SOON)["vigor_lost"] == 0


def test_a_moderator_may_adjust_a_character_never_seen_only_to_be_told_there_is_nothing() -> None:
    with pytest.raises(RuleViolation) as caught:
        World().command(
            "nadie",
            CMD_MODERATE,
            {"character": "nadie", "kind": "immunity", "lift": True, "reason": "x"},
            now=T0,
        )
    assert caught.value.code == "no_such_state"


def test_a_lifted_state_s_timer_firing_later_is_ignored() -> None:
    world = fled_world()
    (timer,) = [t for t in world.armed.values() if t.kind == "immunity"]
    adjust(world, "immunity", lift=True)
    assert world.fire("bruno", timer.timer_id).state is None
