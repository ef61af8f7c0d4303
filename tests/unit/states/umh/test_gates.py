"""``states.check``: the gates before a start, a join or a flight (umh 1.1.1.2, 4.1.1.1.1,
4.2.1 - 4.2.4, 4.5.2, 4.5.4), rule by rule and in their documented order."""

from __future__ import annotations

from typing import Any

import pytest

from shared.messages import COMBAT_ENDED, COMBAT_STARTED, COMBATANT_FLED, EFFECT_APPLIED
from shared.payloads import StatesCheck, StatesChecked
from tests.unit.states.umh.builders import (
    MINUTE,
    RULESET,
    T0,
    World,
    effect,
    ended,
    fled,
    started,
)

SOON = T0 + MINUTE
LATER = T0 + 20 * MINUTE


def fled_world() -> World:
    """bruno fled c_1 in room plaza at T0 (immune 5 min, banned 15 min, cooldown 72 h)."""
    world = World()
    world.on(COMBAT_STARTED, started(attackers=("ana",), defenders=("bruno", "carla")))
    world.on(COMBATANT_FLED, fled("bruno"), now=T0)
    return world


def immune_world() -> World:
    """bruno received a state in c_1, which ended at T0: immune until T0 + 5 min (4.2.1)."""
    world = World()
    world.on(COMBAT_STARTED, started())
    world.on(EFFECT_APPLIED, effect("bruno"))
    world.on(COMBAT_ENDED, ended(at=T0))
    return world


def start(attacker: str, *defenders: str, challenge: bool = True) -> dict[str, Any]:
    return {
        "purpose": "start",
        "combat_id": "c_new",
        "characters": [attacker, *defenders],
        "attacker": attacker,
        "defenders": list(defenders),
        "challenge": challenge,
    }


def join(character: str, *, combat_id: str = "c_9", via: str = "irrumpir") -> dict[str, Any]:
    return {"purpose": "join", "combat_id": combat_id, "characters": [character], "via": via}


def codes(checked: StatesChecked) -> list[tuple[str, str, str | None]]:
    return [(r.character, r.code, r.rule) for r in checked.refusals]


@pytest.mark.parametrize(
    ("query", "room", "now", "refused"),
    [
        (
            start("dario", "bruno"),
            "otra",
            SOON,
            [("bruno", "target_challenge_immune", "umh 1.1.1.2")],
        ),
        (start("dario", "bruno", challenge=False), "otra", SOON, []),
        (start("dario", "bruno"), "otra", LATER, []),
        (start("bruno", "dario"), "plaza", SOON, [("bruno", "room_locked", "umh 4.2.3")]),
        (
            start("dario", "bruno", challenge=False),
            "plaza",
            SOON,
            [("bruno", "room_locked", "umh 4.2.3")],
        ),
        (start("bruno", "dario"), "plaza", LATER, []),
        (
            join("bruno"),
            "plaza",
            SOON,
            [("bruno", "room_locked", "umh 4.2.3"), ("bruno", "irrumpir_locked", "umh 4.2.3.1")],
        ),
        (join("bruno"), "otra", SOON, [("bruno", "irrumpir_locked", "umh 4.2.3.1")]),
        (join("bruno", via="llamada_de_auxilio"), "otra", SOON, []),
        (join("bruno"), "otra", LATER, []),
        (
            join("bruno", combat_id="c_1"),
            "plaza",
            LATER,
            [("bruno", "cannot_rejoin_fled_combat", "umh 4.2.3")],
        ),
        (
            {"purpose": "flee", "combat_id": "c_9", "characters": ["bruno"]},
            "otra",
            LATER,
            [("bruno", "flee_on_cooldown", "umh 4.1.1.1.1")],
        ),
        (
            {"purpose": "flee", "combat_id": "c_9", "characters": ["bruno"]},
            "otra",
            T0 + 72 * 60 * MINUTE,
            [],
        ),
    ],
    ids=[
        "umh 1.1.1.2 + 4.2.2 a fleer cannot be challenged for 5 minutes",
        "umh 4.2.2 the immunity is from challenges only: an attack is not a challenge",
        "umh 4.2.2 after 5 minutes he can be challenged",
        "umh 4.2.3 he cannot start a combat in the fled room",
        "umh 4.2.3 nor be put in one there",
        "umh 4.2.3 after 15 minutes the room is open again",
        "umh 4.2.3 + 4.2.3.1 IRRUMPIR into the fled room: both refusals, room first",
        "umh 4.2.3.1 IRRUMPIR into any other combat",
        "umh 4.2.3.1 LLAMADA DE AUXILIO is not IRRUMPIR",
        "umh 4.2.3.1 after 15 minutes IRRUMPIR again",
        "umh 4.2.3 never the combat he fled",
        "umh 4.1.1.1.1 the flight cooldown refuses a flight",
        "umh 4.1.1.1.1 the flight is usable again after 72 h",
    ],
)
def test_gates_after_a_flight(
    query: dict[str, Any], room: str, now: int, refused: list[tuple[str, str, str]]
) -> None:
    checked = fled_world().check(query, now=now, room=room)
    assert codes(checked) == refused
    assert checked.allowed == (not refused)


def test_refusals_name_until_when() -> None:
    checked = fled_world().check(join("bruno"), now=SOON, room="plaza")
    assert [r.until for r in checked.refusals] == ["2025-05-14T18:15:00.000Z"] * 2


@pytest.mark.parametrize(
    ("query", "refused"),
    [
        (start("dario", "bruno"), [("bruno", "target_challenge_immune", "umh 1.1.1.2")]),
        (start("dario", "ana"), []),
        (start("bruno", "dario"), []),
    ],
    ids=[
        "umh 4.2.1 who received a state cannot be challenged",
        "umh 4.2.1 who received none can",
        "umh 4.2.1 the immune one may challenge (and loses his immunity)",
    ],
)
def test_gates_after_a_state_received(query: dict[str, Any], refused: list[Any]) -> None:
    assert codes(immune_world().check(query, now=SOON)) == refused


def test_already_in_combat_comes_first() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    checked = world.check(start("carla", "bruno"), now=SOON)
    assert codes(checked) == [("bruno", "already_in_combat", None)]
    checked = world.check({**join("ana"), "combat_id": "c_1"}, now=SOON)
    assert codes(checked) == []  # the combat he is in


def test_a_combat_known_to_have_ended_does_not_hold_him() -> None:
    world = World()
    world.on(COMBAT_STARTED, started())
    query = StatesCheck.model_validate(start("carla", "bruno"))
    checked = RULESET.check(
        {c: world.states.get(c) for c in query.characters},
        query,
        room="plaza",
        ended_combats={"c_1"},
        now_ms=SOON,
    )
    assert checked.allowed


def test_never_seen_characters_pass_every_gate() -> None:
    checked = World().check(start("x", "y"), now=T0)
    assert checked.allowed and checked.weekly_uses == {} and not checked.prisoner_challenge
