"""services/resolution handles one combat's messages concurrently, so the dice seed may be
handled before ``combat.started``: it is kept, and the start completes the state (no retry)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from services.resolution.handlers import (
    CombatNotKnownYetError,
    on_combat_event,
    on_combat_started,
    on_dice_seeded,
    spec,
)
from shared.keys import Keys
from shared.messages import COMBAT_STARTED, DICE_SEEDED, RESOLUTION_REQUESTED, Envelope
from shared.runtime import Target
from tests.unit.resolution.umh.kit import attack, sheet

NOW = 1_800_000_000_000
TARGET = Target(Keys("ns").combat("resolution", "c_1"), "c_1")
STARTED: dict[str, Any] = {
    "combat_id": "c_1",
    "ruleset": "umh",
    "sides": {"attackers": ["ana"], "defenders": ["bruno"]},
    "sheets": {"ana": sheet("Ana", attack()), "bruno": sheet("Bruno")},
    "settings": {},
}


def envelope(kind: str, payload: dict[str, Any]) -> Envelope:
    return Envelope(
        message_id=f"m_{kind}",
        type=kind,
        correlation_id="r_1",
        combat_id="c_1",
        room="plaza",
        tenant="t",
        occurred_at=datetime.now(UTC),
        payload=payload,
    )


SEEDED = envelope(DICE_SEEDED, {"combat_id": "c_1", "seed": "ab" * 16})


def test_the_seed_first_then_the_start() -> None:
    seeded = on_dice_seeded(SEEDED, None, TARGET, NOW).state
    assert seeded is not None and set(seeded) == {"dice"}
    assert spec(Keys("ns")).view(seeded, NOW) == {"participants": {}}
    with pytest.raises(CombatNotKnownYetError):
        on_combat_event(envelope(RESOLUTION_REQUESTED, {}), seeded, TARGET, NOW)
    started = on_combat_started(envelope(COMBAT_STARTED, STARTED), seeded, TARGET, NOW).state
    assert started is not None
    assert started["dice"]["seed"] == "ab" * 16
    assert set(started["participants"]) == {"ana", "bruno"}


def test_the_start_first_then_the_seed() -> None:
    started = on_combat_started(envelope(COMBAT_STARTED, STARTED), None, TARGET, NOW).state
    assert started is not None and "dice" not in started
    seeded = on_dice_seeded(SEEDED, started, TARGET, NOW).state
    assert seeded is not None and seeded["dice"]["seed"] == "ab" * 16
    assert on_combat_started(envelope(COMBAT_STARTED, STARTED), seeded, TARGET, NOW).state is None
