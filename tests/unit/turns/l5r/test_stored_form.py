"""An l5r combat in flight during an upgrade keeps working: the states the untyped code
stored (``stored_form.json``: turns mid-attack, resolution, a character's record, captured
from the code before its state was typed) load, and the same inputs give the same events,
byte for byte, as that code gave."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from services.resolution.domain.l5r import L5rResolution
from services.states.domain.l5r import L5rAftermath
from services.states.domain.l5r.record import L5rRecord
from services.states.interface import Context
from services.turns.domain.l5r import L5rTurns
from services.turns.domain.l5r.state import L5rCombat
from shared.dice.combat import known
from shared.messages import ACTION_RESOLVED, RESOLUTION_REQUESTED
from shared.payloads import ActOnCombat
from tests.unit.turns.l5r.session import SEED, T0

STORED: dict[str, Any] = json.loads((Path(__file__).parent / "stored_form.json").read_text())
TURNS = L5rTurns()


def dumped(events: list[Any]) -> list[tuple[str, str]]:
    return [(e.type, json.dumps(e.payload, separators=(",", ":"))) for e in events]


def expected(key: str) -> list[tuple[str, str]]:
    return [(t, json.dumps(p, separators=(",", ":"))) for t, p in STORED[key]]


def older(state: dict[str, Any]) -> dict[str, Any]:
    """The same state as an older version wrote it: no ``resolved`` list, no pact word, no
    horse nor disarm choice."""
    old = copy.deepcopy(state)
    old.pop("resolved", None)
    for p in old["participants"].values():
        for key in ("stop", "horse_movement", "disarm_roll", "void_from_dice"):
            p.pop(key, None)
    for key in ("persistencia_more_points", "void_for_two_tens"):
        old["settings"].pop(key, None)
    return old


@pytest.mark.parametrize(
    "form", [pytest.param(lambda s: s, id="stored"), pytest.param(older, id="older")]
)
def test_turns_applies_the_hit_then_reduces_it_on_a_stored_state(form: Any) -> None:
    state = form(STORED["turns"])
    decision = TURNS.on_event(state, ACTION_RESOLVED, STORED["resolved"], now_ms=T0)
    assert decision.state is not None
    assert dumped(decision.events) == expected("expected_turns")
    foe = STORED["resolved"]["target"]
    action = {"type": "l5r.void", "actor": foe, "use": "reduccion_heridas"}
    cmd = ActOnCombat.model_validate({"action_id": "a_" + "1" * 32, "action": action})
    reduced = TURNS.act(decision.state, cmd, now_ms=T0)
    assert dumped(reduced.events) == expected("expected_reduction")


def test_a_stored_turns_state_reads_back_as_it_was() -> None:
    assert L5rCombat.parse(STORED["turns"]).to_dict() == STORED["turns"]


def test_resolution_strikes_on_a_stored_state() -> None:
    state = {**STORED["resolution"], "dice": known(SEED)}
    decision = L5rResolution().on_event(state, RESOLUTION_REQUESTED, STORED["requested"], now_ms=T0)
    assert dumped(decision.events) == expected("resolution_events")


def test_states_regains_a_point_on_a_stored_record() -> None:
    record = STORED["states_record"]
    assert L5rRecord.parse(record).to_dict() == record
    now = T0 + 86_400_000
    ctx = Context(tenant="t", room="r", combat_id="c_1", occurred_ms=now, now_ms=now)
    decision = L5rAftermath().on_timer(record, "ana", "x", ctx)
    assert dumped(decision.events) == expected("states_timer_events")
