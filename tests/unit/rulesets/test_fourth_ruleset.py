"""Issue 11: a fourth ruleset is its folders plus one line per registry. ``fourth/`` holds a
tiny ruleset written in test code; ``fourth/play.py`` adds it to the four registries (their
real source, one import and one entry each) in a fresh interpreter, since the unions are
composed at import, and plays a combat through the real handlers of the three services."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, "-m", "tests.unit.rulesets.fourth.play"],
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
    assert played["start_body"] == "toy"
    assert played["action"] == "ToyPoke"
    assert played["sheet"] == "ToySheet"
    assert played["settings"] == {"points": 2}


def test_its_error_codes_join_the_catalogue(played: dict[str, Any]) -> None:
    assert played["refusal"] == "No te toca."


def test_a_combat_is_played_through_the_three_services(played: dict[str, Any]) -> None:
    assert played["events"] == [
        "turns:combat.started",
        "turns:combat.dice_seeded",
        *["turns:resolution.requested", "resolution:action.resolved"] * 3,
        "turns:combat.ended",
    ]
    assert played["turns"]["phase"] == "ended"
    assert played["turns"]["points"] == {"ana": 1, "bruno": 0}
    assert played["defeats"] == {"ana": 0, "bruno": 1}
