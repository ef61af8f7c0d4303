"""A cypher combat in flight during an upgrade keeps working: the states the untyped code
stored (``stored_form.json``: turns, resolution and a character's record, captured from the
code before its state was typed, mid-combat) load, and the same inputs give the same events,
byte for byte, as that code gave."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from services.resolution.domain.cypher.ruleset import CypherResolution
from services.states.domain.cypher.record import CypherRecord
from services.states.domain.cypher.ruleset import CypherAftermath
from services.states.interface import Context
from services.turns.domain.cypher.state import CypherCombat
from shared.dice.combat import carried
from shared.messages import ACTION_RESOLVED, RESOLUTION_REQUESTED
from tests.unit.turns.cypher.kit import RESOLUTION, T0, TURNS

STORED: dict[str, Any] = json.loads((Path(__file__).parent / "stored_form.json").read_text())


def dumped(events: list[Any]) -> list[tuple[str, str]]:
    return [(e.type, json.dumps(e.payload, separators=(",", ":"))) for e in events]


def expected(key: str) -> list[tuple[str, str]]:
    return [(t, json.dumps(p, separators=(",", ":"))) for t, p in STORED[key]]


def older(state: dict[str, Any]) -> dict[str, Any]:
    """The same state as an older version wrote it: no B-10 count in the conditions, no
    re-roll flag, no low-light reading."""
    old = copy.deepcopy(state)
    for cond in old["participants"].values():
        del cond["rested_today"]
    del old["reroll_next_round"]
    del old["settings"]["literal_low_light"]
    return old


@pytest.mark.parametrize(
    "form", [pytest.param(lambda s: s, id="stored"), pytest.param(older, id="older")]
)
def test_turns_answers_action_resolved_on_a_stored_state(form: Any) -> None:
    state = form(STORED["turns"])
    decision = TURNS.on_event(state, ACTION_RESOLVED, STORED["resolved"], now_ms=T0)
    assert dumped(decision.events) == expected("expected_turns")
    assert TURNS.view(state)["turn"]["pending_action"] == STORED["resolved"]["action_id"]


def test_a_stored_turns_state_reads_back_as_it_was() -> None:
    assert CypherCombat.parse(STORED["turns"]).to_dict() == STORED["turns"]


def test_resolution_resolves_on_a_stored_state() -> None:
    state = STORED["resolution"]
    decision = carried(
        state, RESOLUTION.on_event(state, RESOLUTION_REQUESTED, STORED["requested"], now_ms=T0)
    )
    assert dumped(decision.events) == expected("resolution_events")
    assert isinstance(RESOLUTION, CypherResolution)


def test_states_finishes_a_rest_on_a_stored_record() -> None:
    record = STORED["states_record"]
    assert CypherRecord.parse(record).to_dict() == record
    states = CypherAftermath()
    timer = states.armed_timers(record)[0]
    now = T0 + 600_000
    ctx = Context(tenant="t", room="character:ana", combat_id=None, occurred_ms=now, now_ms=now)
    decision = states.on_timer(record, "ana", timer.timer_id, ctx)
    assert dumped(decision.events) == expected("states_timer_events")
