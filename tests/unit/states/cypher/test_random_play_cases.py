"""Cases the random player found in cypher's part of services/states, reduced to its smallest
form and driven through the ruleset's handlers as a combat runs them."""

from __future__ import annotations

from services.states.domain.cypher.ruleset import CypherAftermath
from services.states.interface import Context
from shared.payloads import StatesCheck
from tests.unit.turns.cypher.kit import T0

STATES = CypherAftermath()


def ctx(now_ms: int) -> Context:
    return Context(tenant="t", room="plaza", combat_id="c_1", occurred_ms=now_ms, now_ms=now_ms)


def test_a_fighter_in_a_running_combat_cannot_start_another() -> None:
    """docs/api.md ``already_in_combat``: Ana fights c_1; a challenge of hers in another room is
    refused until c_1 ends (was allowed: cypher's start check read only the pools)."""
    started = {"combat_id": "c_1", "ruleset": "cypher", "sheets": {"ana": {"tier": 1}}}
    state = STATES.on_event(None, "ana", "combat.started", started, ctx(T0)).state
    query = StatesCheck(
        purpose="start", ruleset="cypher", characters=["ana", "bruno"], combat_id="c_2"
    )
    answer = STATES.check(
        {"ana": state, "bruno": None}, query, room="r", ended_combats=set(), now_ms=T0
    )
    assert not answer.allowed
    assert [(r.character, r.code) for r in answer.refusals] == [("ana", "already_in_combat")]
    ended = STATES.check(
        {"ana": state, "bruno": None}, query, room="r", ended_combats={"c_1"}, now_ms=T0
    )
    assert ended.allowed
