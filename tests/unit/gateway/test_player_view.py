"""The player view's filtering (docs/views.md), field by field and setting by setting."""

from __future__ import annotations

from typing import Any

import pytest

from gateway.player_view import bar, player_combat, player_event
from shared.frontend_settings import EffectVisibility, VisibilitySettings, VitVisibility

JSON = dict[str, Any]
BURN = {
    "effect_id": "e1",
    "kind": "indirect",
    "type": "quemadura",
    "amount": 20.0,
    "actions_left": 3,
}


def seen(vit: str = "bar", effects: str = "type", step: int = 10) -> VisibilitySettings:
    return VisibilitySettings(
        vit=VitVisibility(vit), effects=EffectVisibility(effects), bar_step=step
    )


@pytest.mark.parametrize(
    ("left", "top", "step", "shown"),
    [
        (700, 1000, 10, 70),
        (701, 1000, 10, 80),  # rounded up: what is left is at least what the bar shows
        (1, 1000, 10, 10),  # anything left shows a step, only nothing shows 0
        (0, 1000, 10, 0),
        (-50, 1000, 10, 0),
        (1000, 1000, 25, 100),
        (1200, 1000, 10, 100),  # above the maximum (a boost) is a full bar
        (10, 0, 10, 0),
    ],
    ids=["even", "up", "sliver", "empty", "below-zero", "full", "over", "no-maximum"],
)
def test_a_bar_shows_what_is_left_rounded_up_to_its_step(
    left: float, top: float, step: int, shown: int
) -> None:
    assert bar(left, top, step) == shown


UMH: JSON = {"side": "defenders", "status": "active", "vit": 430, "vit_max": 1000, "pa": 7}
CYPHER_PC: JSON = {
    "side": "defenders",
    "track": "impaired",
    "pools": {"might": 3, "speed": 4, "intellect": 5},
    "pools_max": {"might": 10, "speed": 10, "intellect": 10},
    "armor": 1,
}
CYPHER_NPC: JSON = {"side": "defenders", "track": "hale", "health": 9, "health_max": 12}
L5R: JSON = {
    "side": "defenders",
    "wounds": 19,
    "wound_rank": "Lastimado",
    "wound_penalty": 3,
    "wound_table": [{"name": "Sano", "penalty": 0, "up_to": 10}, {"name": "Fuera", "up_to": 40}],
    "tn_to_be_hit": 20,
}


@pytest.mark.parametrize(
    ("participant", "vit", "expected"),
    [
        (UMH, "bar", {"side": "defenders", "status": "active", "pa": 7, "vit_pct": 50}),
        (UMH, "none", {"side": "defenders", "status": "active", "pa": 7}),
        (UMH, "exact", UMH),
        (CYPHER_PC, "bar", {"side": "defenders", "track": "impaired", "vit_pct": 40}),
        (CYPHER_PC, "none", {"side": "defenders"}),
        (CYPHER_NPC, "bar", {"side": "defenders", "track": "hale", "vit_pct": 80}),
        (L5R, "bar", {"side": "defenders", "wound_rank": "Lastimado", "vit_pct": 60}),
        (L5R, "none", {"side": "defenders"}),
        (L5R, "exact", L5R),
    ],
    ids=[
        "umh-bar",
        "umh-none",
        "umh-exact",
        "cypher-pc-bar",
        "cypher-none",
        "cypher-npc-bar",
        "l5r-bar",
        "l5r-none",
        "l5r-exact",
    ],
)
def test_a_participant_shows_its_condition_as_the_setting_says(
    participant: JSON, vit: str, expected: JSON
) -> None:
    combat = {"id": "c_1", "participants": {"bruno": participant}}
    shown = player_combat(combat, seen(vit))
    assert shown == {"id": "c_1", "participants": {"bruno": expected}}


@pytest.mark.parametrize(
    ("effects", "expected"),
    [
        ("exact", [BURN]),
        ("type", [{"effect_id": "e1", "kind": "indirect", "type": "quemadura"}]),
        ("none", None),
    ],
    ids=["exact", "type", "none"],
)
def test_effects_show_whole_without_details_or_not_at_all(effects: str, expected: Any) -> None:
    shown = player_combat({"participants": {"bruno": {"effects": [BURN]}}}, seen("exact", effects))
    assert shown["participants"]["bruno"].get("effects") == expected
    event = {"type": "effect.applied", "data": {"character": "bruno", "effect": BURN}}
    told = player_event(event, seen("exact", effects), {})["data"]
    assert told.get("effect") == (expected[0] if expected else None)


RESOLVED: JSON = {
    "id": "m_1",
    "type": "action.resolved",
    "combat_id": "c_1",
    "room": "plaza",
    "text": "Ana golpea a Bruno: 300 de daño; le quedan 700 VIT.",
    "data": {
        "action_id": "a_1",
        "attacker": "ana",
        "results": [
            {
                "target": "bruno",
                "reaction": {"skill": None, "resist": False, "timed_out": False},
                "steps": [{"step": "base", "rule": "umh 9.1.1", "before": 300, "after": 300}],
                "damage": 300,
                "vit_before": 1000,
                "vit_after": 700,
                "down": False,
                "effects": [BURN],
            }
        ],
        "downs": [],
        "refunds": {"ana": 1},
        "a_field_added_later": 700,
    },
}


def test_an_action_resolved_row_keeps_the_outcome_and_shows_bars() -> None:
    shown = player_event(RESOLVED, seen("bar", "type"), {"bruno": 1000})
    assert shown == {
        "id": "m_1",
        "type": "action.resolved",
        "combat_id": "c_1",
        "room": "plaza",
        "data": {
            "action_id": "a_1",
            "attacker": "ana",
            "results": [
                {
                    "target": "bruno",
                    "reaction": {"skill": None, "resist": False, "timed_out": False},
                    "down": False,
                    "effects": [{"effect_id": "e1", "kind": "indirect", "type": "quemadura"}],
                    "hurt": True,
                    "vit_pct_before": 100,
                    "vit_pct_after": 70,
                }
            ],
            "downs": [],
            "refunds": {"ana": 1},
        },
    }


def test_without_the_target_maximum_a_row_shows_no_bar() -> None:
    (row,) = player_event(RESOLVED, seen("bar"), {})["data"]["results"]
    assert not {"vit_pct_before", "vit_pct_after", "vit_after", "damage"} & set(row)


def test_sheets_settings_and_unknown_fields_never_show() -> None:
    started = {
        "type": "combat.started",
        "data": {
            "combat_id": "c_1",
            "tenant": "cm_1",
            "sheets": {"ana": {"stats": {"vit": 1000}}},
            "settings": {"timers": {}},
            "sides": {"attackers": ["ana"], "defenders": ["bruno"]},
            "secret_plan": "left flank",
        },
    }
    shown = player_event(started, seen("exact", "exact"), {})["data"]
    assert shown == {"combat_id": "c_1", "sides": {"attackers": ["ana"], "defenders": ["bruno"]}}
