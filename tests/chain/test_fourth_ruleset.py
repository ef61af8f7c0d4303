"""Issue 11: adding a ruleset is adding its folders and one line per registry.

``fourth/`` holds a tiny ruleset written in test code (its shared part, ``definition.py``,
and its part in each service, ``adapters.py``): two fighters poke each other in turn, a poke
costs the target one point (resolution computes it), the first at 0 loses, services/states
counts each one's defeats. ``fourth/play.py`` registers it with the public ``register()`` of
the shared registry and of each service's registry, in a fresh interpreter (the shared
registry is fixed once the unions are composed from it, on first import), and plays it end
to end through the in-memory chain: the gateway's validation, gates and error bodies, then
turns, resolution and states."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from shared.rulesets import registry
from shared.rulesets.interface import SharedRuleset
from shared.rulesets.umh.definition import UMH

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, "-m", "tests.chain.fourth.play"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    summary: dict[str, Any] = json.loads(run.stdout)
    return summary


def test_the_gateway_accepts_what_the_registry_lists(played: dict[str, Any]) -> None:
    assert played["enum"] == ["umh", "cypher", "l5r", "toy"]
    assert played["settings"] == {"points": 2}
    assert played["started"] == {
        "ruleset": "toy",
        "phase": "fighting",
        "turn": {"actor": "ana"},
        "points": {"ana": 2, "bruno": 2},
    }


def test_turns_alternate_and_a_poke_out_of_turn_is_refused_in_its_words(
    played: dict[str, Any],
) -> None:
    for poke in played["pokes"]:
        status, error = poke["refused"]
        assert status == 422
        assert (error["code"], error["rule"], error["message"]) == (
            "toy_not_your_poke",
            "toy 1",
            "No te toca.",
        )
    assert [p["points"] for p in played["pokes"]] == [
        {"ana": 2, "bruno": 1},
        {"ana": 1, "bruno": 1},
        {"ana": 1, "bruno": 0},
    ]
    assert [p["events"] for p in played["pokes"]] == [
        ["action.resolved", "turn.ended", "turn.started"],
        ["action.resolved", "turn.ended", "turn.started"],
        ["action.resolved", "combat.ended"],
    ]


def test_the_combat_ends_at_0_and_services_states_counts_the_defeat(
    played: dict[str, Any],
) -> None:
    combat = played["combat"]
    assert (combat["phase"], combat["turn"], combat["points"]) == (
        "ended",
        None,
        {"ana": 1, "bruno": 0},
    )
    assert played["after_the_end"] == "combat_ended"
    assert played["log"] == [
        "combat.started",
        *["turn.started", "action.resolved", "turn.ended"] * 2,
        "turn.started",
        "action.resolved",
        "combat.ended",
    ]
    assert played["status"]["bruno"]["ruleset_status"] == {"toy": {"defeats": 1}}
    assert played["status"]["ana"]["in_combat"] is None


def test_the_shared_registry_refuses_a_ruleset_once_the_unions_are_composed() -> None:
    assert [r.name for r in registry.RULESETS] == ["umh", "cypher", "l5r"]  # composed now
    late = SharedRuleset(
        name="late",
        sheet=UMH.sheet,
        actions=(),
        moderator_only=frozenset(),
        errors={},
        settings=UMH.settings,
    )
    with pytest.raises(RuntimeError, match="register rulesets before importing"):
        registry.register(late)
    assert [r.name for r in registry.RULESETS] == ["umh", "cypher", "l5r"]
