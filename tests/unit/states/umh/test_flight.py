"""Fleeing (umh 4.1.1.1 - 4.1.1.1.2, 4.2.2, 4.2.3, 4.2.3.1): test vector T000-35."""

from __future__ import annotations

import pytest

from services.states.domain.umh.facts import AftermathConfig
from services.states.domain.umh.flight import flight_cooldown_key, flight_cooldown_ms
from shared.messages import ACTION_DECLARED, COMBAT_ENDED, COMBAT_STARTED, COMBATANT_FLED
from tests.unit.states.umh.builders import (
    HOUR,
    MINUTE,
    T0,
    World,
    declared,
    ended,
    fled,
    started,
)

FLED_AT = T0  # 20:00 Madrid
STATUS_AT = "2025-05-14T18:{:02d}:00.000Z"  # 20:MM Madrid


def after_flight(**flight: object) -> World:
    world = World()
    world.on(COMBAT_STARTED, started(attackers=("ana",), defenders=("bruno", "carla")))
    world.on(COMBATANT_FLED, fled("bruno", **flight), now=FLED_AT)  # type: ignore[arg-type]
    return world


def test_t000_35_huir_at_2000() -> None:
    world = after_flight()
    status = world.status("bruno", FLED_AT)
    assert status["in_combat"] is None  # he is out of that combat
    assert status["immune_until"] == STATUS_AT.format(5)  # 4.2.2: until 20:05
    assert status["room_bans"] == [{"room": "plaza", "until": STATUS_AT.format(15)}]  # 4.2.3
    assert status["intrude_banned_until"] == STATUS_AT.format(15)  # 4.2.3.1
    assert status["cooldowns"] == {"flee": "2025-05-17T18:00:00.000Z"}  # 4.1.1.1.1: + 72 h
    kinds = sorted(t.kind for t in world.armed.values())
    assert kinds == ["flee_cooldown", "immunity", "irrumpir_ban", "room_ban"]
    changes = world.changes("bruno")
    assert [c for _, c in changes] == ["immunity", "room_ban", "irrumpir_ban", "flee_cooldown"]


def test_t000_35_the_immunity_ends_early_if_he_attacks() -> None:
    world = after_flight()
    world.on(
        COMBAT_STARTED,
        started("c_2", attackers=("bruno",), defenders=("dario",), room="otra"),
        now=FLED_AT + MINUTE,
    )
    status = world.status("bruno", FLED_AT + MINUTE)
    assert status["immune_until"] is None
    assert status["room_bans"] != []  # the bans are not offensive-action bound


@pytest.mark.parametrize(
    ("kind", "at_minute", "expired"),
    [
        ("immunity", 5, "immunity.expired"),
        ("room_ban", 15, "room_ban.expired"),
        ("irrumpir_ban", 15, "irrumpir_ban.expired"),
    ],
    ids=["umh 4.2.2 at 20:05", "umh 4.2.3 at 20:15", "umh 4.2.3.1 at 20:15"],
)
def test_t000_35_each_state_ends_with_its_own_event(
    kind: str, at_minute: int, expired: str
) -> None:
    world = after_flight()
    world.clear()
    decision = world.fire_due("bruno", kind)
    (event,) = decision.events
    assert event.type == expired
    assert event.payload["reason"] == "elapsed"
    assert event.payload["combat_id"] == "c_1"
    if kind == "room_ban":
        assert event.payload["room"] == "plaza"
    assert not any(t.kind == kind for t in world.armed.values())
    status = world.status("bruno", FLED_AT + at_minute * MINUTE)
    assert status["immune_until"] is None if kind == "immunity" else True


def test_t000_35_flight_usable_again_at_2000_plus_72_h() -> None:
    world = after_flight()
    decision = world.fire_due("bruno", "flee_cooldown")
    assert [e.type for e in decision.events] == ["flee_cooldown.expired"]
    assert decision.events[0].payload["cooldown"] == "flee"
    assert world.status("bruno", FLED_AT + 72 * HOUR)["cooldowns"] == {}


def test_t000_35_rejoining_the_same_combat_is_always_rejected() -> None:
    world = after_flight()
    for when in (FLED_AT + MINUTE, FLED_AT + 100 * HOUR):
        checked = world.check(
            {
                "purpose": "join",
                "combat_id": "c_1",
                "characters": ["bruno"],
                "via": "llamada_de_auxilio",
            },
            now=when,
            room="plaza",
        )
        assert checked.refusals[0].code == "cannot_rejoin_fled_combat"
        assert checked.refusals[0].rule == "umh 4.2.3"
    # A late combatant.joined of the fled combat does not put him back in it.
    assert world.on(COMBAT_STARTED, started())["bruno"].state is None


@pytest.mark.parametrize(
    ("profile", "skill", "key"),
    [
        ("basic", None, "flee"),
        ("basic", "Teleport", "flee"),
        ("special", "Teleport", "flee:Teleport"),
        ("special", None, "flee"),
    ],
    ids=[
        "umh 4.1.1.1.2 HUIR of a basic profile: the shared cooldown",
        "umh 4.1.1.1.2 every flight of a basic profile shares it",
        "umh 4.1.1.1.2 a special profile's flight skill has its own",
        "umh 4.1.1.1 HUIR is basic for anyone",
    ],
)
def test_flight_cooldown_key(profile: str, skill: str | None, key: str) -> None:
    assert flight_cooldown_key(profile, skill) == key


@pytest.mark.parametrize(
    ("own_hours", "expected"),
    [(None, 72 * HOUR), (24, 24 * HOUR), (0.5, 30 * MINUTE)],
    ids=[
        "umh 4.1.1.1.1 no cooldown of its own: 72 h",
        "umh 4.1.1.1.1 its own cooldown: 24 h",
        "umh 4.1.1.1.1 its own cooldown: half an hour",
    ],
)
def test_flight_cooldown_duration(own_hours: float | None, expected: int) -> None:
    assert flight_cooldown_ms(own_hours, AftermathConfig()) == expected


def test_a_special_profile_skill_cooldown_is_its_own() -> None:
    world = after_flight(skill_name="Teleport", hours=24, profile="special")
    assert world.status("bruno", FLED_AT)["cooldowns"] == {
        "flee:Teleport": "2025-05-15T18:00:00.000Z"
    }


def test_a_57_the_fleer_keeps_the_longer_of_his_immunities() -> None:
    world = after_flight()
    world.on(
        COMBAT_ENDED,
        ended(
            people={
                "ana": ("attackers", "active", False),
                "bruno": ("defenders", "fled", False),
                "carla": ("defenders", "down", True),
            },
            at=FLED_AT + 2 * MINUTE,
        ),
    )
    # No state received: the flight immunity stays as it was (20:05).
    assert world.status("bruno", FLED_AT + 2 * MINUTE)["immune_until"] == STATUS_AT.format(5)


def test_settings_shorten_the_durations() -> None:
    world = World()
    aftermath = {"immunity_seconds": 1, "flee_room_ban_seconds": 2, "flee_cooldown_seconds": 3}
    world.on(COMBAT_STARTED, started(aftermath=aftermath))
    world.on(COMBATANT_FLED, fled("bruno"), now=FLED_AT)
    due = {t.kind: t.due_ms - FLED_AT for t in world.armed.values()}
    assert due == {"immunity": 1000, "room_ban": 2000, "irrumpir_ban": 2000, "flee_cooldown": 3000}


def test_the_same_flight_twice_changes_nothing() -> None:
    world = after_flight()
    again = world.on(COMBATANT_FLED, fled("bruno"), now=FLED_AT)
    assert again["bruno"].state is None and again["bruno"].events == []


def test_an_offensive_action_after_fleeing_ends_only_the_immunity() -> None:
    world = after_flight()
    world.on(ACTION_DECLARED, declared("bruno"), combat_id="c_9", now=FLED_AT + MINUTE)
    status = world.status("bruno", FLED_AT + MINUTE)
    assert status["immune_until"] is None
    assert status["intrude_banned_until"] is not None
