"""UmhResolution end to end on payloads: condition, breakdowns, events (umh 9.1.1, 4.1.1.2)."""

from __future__ import annotations

from typing import Any

import pytest

from services.resolution.domain.umh.readings import RECOMMENDED
from services.resolution.domain.umh.ruleset import UmhResolution
from services.resolution.interface import ResolutionRuleset
from shared.messages import ACTION_RESOLVED, COMBATANT_DOWN, RESOLUTION_REQUESTED
from tests.unit.resolution.umh.builders import (
    BLESSING,
    DODGE,
    FIELD,
    SHIELD,
    requested,
    sheet,
    started,
)

RULESET: ResolutionRuleset = UmhResolution()
NOW = 5_000


def start(**sheets: dict[str, Any]) -> dict[str, Any]:
    defenders = [cid for cid in sheets if cid != "ana"]
    decision = RULESET.on_combat_started(started(sheets, defenders), now_ms=NOW)
    assert decision.state is not None
    assert decision.events == []
    return decision.state


def resolve(state: dict[str, Any], payload: dict[str, Any]) -> Any:
    return RULESET.on_event(state, RESOLUTION_REQUESTED, payload, now_ms=NOW)


def test_combat_started_takes_full_vit_the_sheets_and_the_readings() -> None:
    ana, bruno = sheet("Ana", vit=1200), sheet("Bruno", vit=800)
    state = start(ana=ana, bruno=bruno)
    assert state == {
        "combat_id": "c_1",
        "ruleset": "umh",
        "participants": {
            "ana": {"side": "attackers", "vit": 1200, "vit_max": 1200, "effects": [], "sheet": ana},
            "bruno": {
                "side": "defenders",
                "vit": 800,
                "vit_max": 800,
                "effects": [],
                "sheet": bruno,
            },
        },
        "resolved_actions": [],
        "readings": RECOMMENDED.to_dict(),  # the community's settings (none set: defaults)
    }
    assert RULESET.view(state) == {
        "participants": {
            "ana": {"vit": 1200, "vit_max": 1200, "effects": []},
            "bruno": {"vit": 800, "vit_max": 800, "effects": []},
        }
    }


def test_combat_started_without_a_sheet_is_a_broken_contract() -> None:
    payload = started({"ana": sheet("Ana")}, ["bruno"])
    with pytest.raises(ValueError, match="no sheet for bruno"):
        RULESET.on_combat_started(payload, now_ms=NOW)


# T000-52 on a target: 500 damage, defense 200, resistance 100, 20 % -> 160.
T000_52: dict[str, Any] = {"resistance": 100, "reductions": {"general": 20}, "defense": 200}


@pytest.mark.parametrize(
    ("reaction", "damage", "note"),
    [
        ({"skill": SHIELD}, 160, None),
        ({"skill": FIELD.upper()}, 160, None),
        ({"skill": SHIELD, "timed_out": True}, 320, "timed_out"),
        ({"skill": None}, 320, "no_reaction"),
        (None, 320, "no_reaction"),
        ({"resist": True}, 320, "resist_ignored"),
        ({"skill": DODGE}, 0, "evasion"),
        ({"skill": BLESSING}, 320, "not_a_defense"),
        ({"skill": "Nada"}, 320, "unknown_skill"),
    ],
    ids=[
        "T000-52 internal defense",
        "umh 9.2.1 external defense, name case-insensitive",
        "umh 2.4.2 timed-out window applies no defense",
        "umh 9.2.1 took the hit",
        "umh 9.2.1 no reaction recorded",
        "umh 7.1.1 RESISTIR does nothing against a physical skill",
        "umh 8.2.1 a met evasion avoids the hit",
        "umh 9.2.1 a supplementary skill is no defense",
        "umh 9.2.1 a skill the target lacks",
    ],
)
def test_reaction_decides_the_defense_step(
    reaction: dict[str, Any] | None, damage: int, note: str | None
) -> None:
    state = start(ana=sheet("Ana", damage=500), bruno=sheet("Bruno", **T000_52))
    reactions = {"bruno": reaction} if reaction is not None else {}
    decision = resolve(state, requested(["bruno"], reactions))
    (event,) = decision.events
    (result,) = event.payload["results"]
    assert result["damage"] == damage
    assert result["vit_after"] == 1000 - damage
    defense_step = next(step for step in result["steps"] if step["step"] == "defense")
    assert defense_step.get("note") == note
    assert decision.state["participants"]["bruno"]["vit"] == 1000 - damage


def test_action_resolved_payload_shape() -> None:
    state = start(ana=sheet("Ana", damage=500), bruno=sheet("Bruno", **T000_52))
    decision = resolve(state, requested(["bruno"], {"bruno": {"skill": SHIELD}}))
    (event,) = decision.events
    assert event.type == ACTION_RESOLVED
    reaction = {"skill": SHIELD, "resist": False, "timed_out": False}
    assert event.payload == {
        "action_id": "a_1",
        "attacker": "ana",
        "skill": "Puño",
        "round": 1,
        "hit": 1,
        "hits": 1,
        "results": [
            {
                "target": "bruno",
                "reaction": reaction,
                "steps": [
                    {
                        "step": "base",
                        "rule": "umh 9.1.1",
                        "before": 500,
                        "after": 500,
                        "skill": "Puño",
                        "natures": ["fisica"],
                    },
                    {
                        "step": "defense",
                        "rule": "umh 9.2.1",
                        "before": 500,
                        "after": 300,
                        "skill": SHIELD,
                        "kind": "internal",
                        "defense": 200,
                    },
                    {
                        "step": "resistance",
                        "rule": "umh 9.3.2",
                        "before": 300,
                        "after": 200,
                        "value": 100,
                        "hardness": None,
                        "direct": True,
                    },
                    {
                        "step": "reduction",
                        "rule": "umh 9.4.3",
                        "before": 200,
                        "after": 160,
                        "percent": 20,
                        "uncapped": 20,
                    },
                    {"step": "floor", "rule": "umh 2.7.1", "before": 160, "after": 160},
                    {
                        "step": "vitality",
                        "rule": "umh 9.1.1",
                        "before": 1000,
                        "after": 840,
                        "damage": 160,
                    },
                ],
                "damage": 160,
                "vit_before": 1000,
                "vit_after": 840,
                "down": False,
                "already_down": False,
                "effects": [],
            }
        ],
        "downs": [],
        "cancelled": False,
        "combo_continues": False,
        "refunds": {},
        "speed_spent": {},
        "moved": {},
        "ignored_targets": [],
        "error": None,
    }
    assert decision.state["resolved_actions"] == ["a_1#1"]


def test_t000_54_fire_reductions_capped_at_25() -> None:
    ana = sheet("Ana", damage=400, natures=["fuego"])
    bruno = sheet("Bruno", reductions={"general": 15, "fuego": 15}, hardness="acero")
    decision = resolve(start(ana=ana, bruno=bruno), requested(["bruno"]))
    (result,) = decision.events[0].payload["results"]
    reduction = result["steps"][3]
    assert (reduction["percent"], reduction["uncapped"]) == (25, 30)
    assert result["damage"] == 300
    assert result["steps"][2]["hardness"] == "acero"


def test_defense_larger_than_damage_deals_nothing() -> None:
    state = start(ana=sheet("Ana", damage=150), bruno=sheet("Bruno", defense=400))
    decision = resolve(state, requested(["bruno"], {"bruno": {"skill": SHIELD}}))
    (result,) = decision.events[0].payload["results"]
    assert (result["damage"], result["vit_after"], result["down"]) == (0, 1000, False)


def test_vit_never_below_zero_and_down_reported_once() -> None:
    state = start(ana=sheet("Ana", damage=700), bruno=sheet("Bruno", vit=1000))
    first = resolve(state, requested(["bruno"], action_id="a_1"))
    assert [e.type for e in first.events] == [ACTION_RESOLVED]

    second = resolve(first.state, requested(["bruno"], action_id="a_2"))
    resolved, down = second.events
    (result,) = resolved.payload["results"]
    assert (result["vit_before"], result["damage"], result["vit_after"]) == (300, 700, 0)
    assert result["down"] is True
    assert resolved.payload["downs"] == ["bruno"]
    assert down.type == COMBATANT_DOWN
    assert down.payload == {
        "character": "bruno",
        "action_id": "a_2",
        "by": "ana",
        "cause": "damage",
    }

    third = resolve(second.state, requested(["bruno"], action_id="a_3"))
    (resolved,) = third.events
    (result,) = resolved.payload["results"]
    assert result["steps"] == [] and result["damage"] == 0
    assert (result["vit_before"], result["vit_after"]) == (0, 0)
    assert (result["down"], result["already_down"]) == (False, True)
    assert resolved.payload["downs"] == []
    assert third.state["participants"]["bruno"]["vit"] == 0


def test_several_targets_each_get_a_breakdown_and_their_own_down() -> None:
    state = start(
        ana=sheet("Ana", damage=500),
        bruno=sheet("Bruno", vit=400),
        carla=sheet("Carla", vit=900, resistance=100),
    )
    decision = resolve(state, requested(["bruno", "carla", "bruno", "nadie"]))
    resolved, down = decision.events
    assert [r["target"] for r in resolved.payload["results"]] == ["bruno", "carla"]
    assert [r["damage"] for r in resolved.payload["results"]] == [500, 400]
    assert resolved.payload["downs"] == ["bruno"]
    assert resolved.payload["ignored_targets"] == ["nadie"]
    assert down.payload["character"] == "bruno"
    assert RULESET.view(decision.state)["participants"]["carla"]["vit"] == 500


def test_the_same_action_is_resolved_once() -> None:
    state = start(ana=sheet("Ana"), bruno=sheet("Bruno"))
    first = resolve(state, requested(["bruno"]))
    again = resolve(first.state, requested(["bruno"]))
    assert again.state is None and again.events == []


@pytest.mark.parametrize("hits", [2, 3], ids=["umh 8.1.1.1.1 combo of 2", "combo of 3"])
def test_every_hit_of_a_combo_is_resolved_once(hits: int) -> None:
    """umh 8.1.1.1.1: each impact of a combo comes in a request of its own with the same action
    id; each is resolved once, and a repeated request for a hit already resolved is dropped."""
    state = start(ana=sheet("Ana", damage=100), bruno=sheet("Bruno"))
    for hit in range(1, hits + 1):
        payload = {**requested(["bruno"]), "hit": hit, "hits": hits}
        decision = resolve(state, payload)
        (event,) = [e for e in decision.events if e.type == ACTION_RESOLVED]
        assert event.payload["hit"] == hit
        assert decision.state["participants"]["bruno"]["vit"] == 1000 - 100 * hit
        state = decision.state
        repeated = resolve(state, payload)
        assert repeated.state is None and repeated.events == []
    assert state["resolved_actions"] == [f"a_1#{hit}" for hit in range(1, hits + 1)]


def test_supplementary_skill_resolves_with_no_results() -> None:
    state = start(ana=sheet("Ana"), bruno=sheet("Bruno"))
    decision = resolve(state, requested(["bruno"], skill_name=BLESSING.lower()))
    (event,) = decision.events
    assert event.payload["skill"] == BLESSING
    assert [r["damage"] for r in event.payload["results"]] == [0]
    assert event.payload["results"][0]["effects"] == []
    assert event.payload["downs"] == []
    assert decision.state["participants"] == state["participants"]
    assert decision.state["resolved_actions"] == ["a_1#1"]


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (requested(["bruno"], skill_name="Patada"), "unknown_skill"),
        (requested(["bruno"], attacker="nadie"), "unknown_character"),
    ],
    ids=["unknown skill", "unknown attacker"],
)
def test_broken_request_still_answers_so_the_chain_ends(payload: dict[str, Any], code: str) -> None:
    state = start(ana=sheet("Ana"), bruno=sheet("Bruno"))
    (event,) = resolve(state, payload).events
    assert event.type == ACTION_RESOLVED
    assert event.payload["results"] == []
    assert event.payload["error"]["code"] == code


@pytest.mark.parametrize("event_type", ["combat.ended", "round.started"])
def test_other_events_change_nothing(event_type: str) -> None:
    state = start(ana=sheet("Ana"), bruno=sheet("Bruno"))
    decision = RULESET.on_event(state, event_type, {"character": "x"}, now_ms=NOW)
    assert decision.state is None and decision.events == []


def test_state_is_not_mutated_in_place() -> None:
    state = start(ana=sheet("Ana"), bruno=sheet("Bruno"))
    before = repr(state)
    resolve(state, requested(["bruno"]))
    assert repr(state) == before


def test_each_target_is_defended_by_his_own_reaction() -> None:
    state = start(ana=sheet("Ana", damage=500), bruno=sheet("Bruno"), carla=sheet("Carla"))
    reactions: dict[str, dict[str, Any]] = {
        "bruno": {"skill": SHIELD},
        "carla": {"skill": FIELD, "timed_out": True},
    }
    decision = resolve(state, requested(["bruno", "carla"], reactions))
    results = decision.events[0].payload["results"]
    assert [r["damage"] for r in results] == [300, 500]


def test_keys_the_runtime_adds_to_the_state_are_kept() -> None:
    state = {**start(ana=sheet("Ana"), bruno=sheet("Bruno")), "ended": True}
    decision = resolve(state, requested(["bruno"]))
    assert decision.state is not None and decision.state["ended"] is True
