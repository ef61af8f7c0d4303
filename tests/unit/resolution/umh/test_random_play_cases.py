"""Cases the random player found in services/resolution, reduced to the handler a combat runs."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from services.resolution.handlers import on_combat_ended, on_combat_event, on_combat_started
from shared.keys import Keys
from shared.messages import COMBAT_ENDED, COMBAT_STARTED, RESOLUTION_REQUESTED, Envelope
from shared.runtime import Target
from tests.unit.resolution.umh.kit import attack, duel_started, sheet

NOW = 1_800_000_000_000
TARGET = Target(Keys("ns").combat("resolution", "c_1"), "c_1")


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


def test_umh_4_2_4_a_hit_requested_before_an_annulment_is_not_resolved_after_it() -> None:
    """umh 4.2.4 / 4.1.1: the combat was annulled while a hit's resolution was on its way:
    once resolution knows the combat ended, the late request changes nothing (no damage, no
    ``action.resolved`` after ``combat.ended``)."""
    started = duel_started(sheet("Ana", attack(damage=5000)))
    state = on_combat_started(envelope(COMBAT_STARTED, started), None, TARGET, NOW).state
    assert state is not None
    ended = {"combat_id": "c_1", "ruleset": "umh", "reason": "annulled", "winner": None}
    state = on_combat_ended(envelope(COMBAT_ENDED, ended), state, TARGET, NOW).state
    assert state is not None and state["ended"] is True
    request = {
        "action_id": "a_1",
        "attacker": "ana",
        "skill": "Golpe",
        "targets": ["bruno"],
        "round": 1,
    }
    late = on_combat_event(envelope(RESOLUTION_REQUESTED, request), state, TARGET, NOW)
    assert late.state is None and late.events == []
