"""services/states for l5r: the Void pool between combats (T004-03, W15) and Alentar's
daily count (C-5), shown in the status' ``counters`` and handed to the next combat."""

from __future__ import annotations

from services.states.domain.l5r import L5rAftermath
from services.states.domain.l5r.void import DAY_MS
from services.states.interface import Context
from shared.payloads import StatesCheck

T0 = 1_750_000_000_000
RULESET = L5rAftermath()


def ctx(now: int) -> Context:
    return Context(tenant="t", room="r", combat_id="c_1", occurred_ms=now, now_ms=now)


def started() -> dict[str, object]:
    return {
        "combat_id": "c_1",
        "ruleset": "l5r",
        "sheets": {"ana": {"ruleset": "l5r", "rings": {"void": 3}}},
    }


def ended(void: int) -> dict[str, object]:
    return {
        "combat_id": "c_1",
        "ruleset": "l5r",
        "participants": {},
        "l5r": {
            "ana": {
                "void_points": void,
                "void_max": 3,
                "alentar_received": 1,
                "wound_rank": "hurt",
                "wounds": 12,
            }
        },
    }


def test_t004_03_the_pool_comes_back_one_a_day_after_a_combat() -> None:
    state = RULESET.on_event(None, "ana", "combat.started", started(), ctx(T0)).state
    assert state is not None and state["void_points"] == 3 and state["in_combat"] == "c_1"
    decision = RULESET.on_event(state, "ana", "combat.ended", ended(1), ctx(T0))
    state = decision.state
    assert state is not None and state["in_combat"] is None
    assert [t.due_ms for t in decision.arm] == [T0 + DAY_MS]
    counters = RULESET.view(state, now_ms=T0)["status"]["ruleset_status"]["l5r"]
    assert counters["void_points"] == 1 and counters["alentar_received_today"] == 1
    later = RULESET.on_timer(state, "ana", "x", ctx(T0 + DAY_MS))
    assert later.state is not None and later.state["void_points"] == 2
    assert later.events[0].type == "void.regained"
    assert (
        RULESET.view(state, now_ms=T0 + 5 * DAY_MS)["status"]["ruleset_status"]["l5r"][
            "void_points"
        ]
        == 3
    )


def test_the_next_combat_starts_with_what_is_left() -> None:
    state = RULESET.on_event(None, "ana", "combat.started", started(), ctx(T0)).state
    state = RULESET.on_event(state, "ana", "combat.ended", ended(0), ctx(T0)).state
    query = StatesCheck(purpose="start", ruleset="l5r", characters=["ana"], combat_id="c_2")
    answer = RULESET.check({"ana": state}, query, room="r", ended_combats=set(), now_ms=T0 + 1)
    assert answer.allowed and answer.weekly_uses == {
        "ana": {"void_points": 0, "alentar_received": 1}
    }
    tomorrow = RULESET.check(
        {"ana": state}, query, room="r", ended_combats=set(), now_ms=T0 + DAY_MS + 1
    )
    assert tomorrow.weekly_uses["ana"] == {"void_points": 1, "alentar_received": 0}


def test_a_character_in_another_combat_cannot_start_one() -> None:
    state = RULESET.on_event(None, "ana", "combat.started", started(), ctx(T0)).state
    query = StatesCheck(purpose="start", ruleset="l5r", characters=["ana"], combat_id="c_2")
    answer = RULESET.check({"ana": state}, query, room="r", ended_combats=set(), now_ms=T0)
    assert not answer.allowed and answer.refusals[0].code == "already_in_combat"
