"""The read model (docs/api.md "Fields") and the state's JSON form."""

from __future__ import annotations

import json

import pytest

from services.turns.domain.umh.ruleset import UmhTurns
from services.turns.domain.umh.state import CombatState
from services.turns.interface import TurnsRuleset
from shared.domain import rfc3339

from .builders import (
    ATTACK,
    T0,
    TURNS,
    act,
    attack_opening,
    fighting,
    new_state,
    now_of,
    start_cmd,
    where,
)


def test_umh_turns_is_a_turns_ruleset() -> None:
    ruleset: TurnsRuleset = UmhTurns()
    assert ruleset.name == "umh"


@pytest.mark.parametrize(
    ("at_ms", "expected"),
    [
        pytest.param(0, "1970-01-01T00:00:00.000Z", id="epoch"),
        pytest.param(T0 + 1, "2023-11-14T22:13:20.001Z", id="milliseconds-kept"),
        pytest.param(None, None, id="none"),
    ],
)
def test_rfc3339(at_ms: int | None, expected: str | None) -> None:
    assert rfc3339(at_ms) == expected


@pytest.mark.parametrize(
    ("defenders", "slots"),
    [
        pytest.param(("bruno",), {"attackers": 2, "defenders": 2}, id="umh-1.2.3-one-vs-one"),
        pytest.param(
            ("bruno", "carla"), {"attackers": 2, "defenders": 1}, id="umh-1.2.3-one-vs-two"
        ),
    ],
)
def test_slots_left(defenders: tuple[str, ...], slots: dict[str, int]) -> None:
    assert TURNS.view(fighting(defenders=defenders))["slots_left"] == slots


def test_view_has_exactly_the_turns_fields() -> None:
    view = TURNS.view(fighting())
    assert set(view) == {
        "id",
        "tenant",
        "room",
        "ruleset",
        "phase",
        "round",
        "sides",
        "slots_left",
        "turn_order",
        "turn",
        "pending_reactions",
        "participants",
        "result",
        "created_at",
        "ended_at",
        "phase_deadline",
        "pending_joins",
        "pact_offers",
        "interference",
        "stalemate_rounds",
        "terrain",
        "terrain_effects",
        "slot_boosts",
        "timers",
    }
    assert (view["tenant"], view["room"], view["ruleset"]) == ("t_1", "plaza", "umh")
    assert view["created_at"] == "2023-11-14T22:13:20.000Z"
    assert view["result"] is None and view["ended_at"] is None
    assert TURNS.is_active(fighting())


def test_state_round_trips_and_shares_nothing_with_its_copy() -> None:
    """The dict form is the state: parsing and dumping it is the identity, with no aliasing."""
    cmd = start_cmd(defenders=("bruno", "carla"), opening=attack_opening("bruno", "carla"))
    states = [new_state(TURNS.start(cmd, **where(T0))), fighting()]
    attack = {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno"]}
    states.append(new_state(act(states[1], attack, now_of(states[1]))))
    for state in states:
        again = CombatState.from_dict(state).to_dict()
        assert again == state == json.loads(json.dumps(state))
        again["participants"]["ana"]["skills"]["puño"]["pa"] = 99
        again["sides"]["attackers"].append("x")
        for timer in again["timers"].values():
            timer["data"]["x"] = 1
        for action in again["actions"].values():
            for reaction in action["reactions"].values():
                reaction["status"] = "x"
        assert CombatState.from_dict(state).to_dict() == state
        assert state["participants"]["ana"]["skills"]["puño"]["pa"] == 2
        assert state["sides"]["attackers"] == ["ana"]
