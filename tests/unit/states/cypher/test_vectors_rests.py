"""docs/rules.md 5.2 T001-09 .. T001-11: rests through the day and the special-damage option
(seed 001 RECUPERAR, B-8 - B-10), in services/states and in a combat."""

from __future__ import annotations

from typing import Any

import pytest

from services.states.domain.cypher import rests
from services.states.domain.cypher.record import CypherRecord
from services.states.domain.cypher.ruleset import CypherAftermath
from services.states.interface import Context
from shared.dice.rolls import replay
from shared.dice.streams import commitment
from shared.domain import Decision
from shared.errors import RuleViolation
from tests.unit.turns.cypher.kit import T0, Referee, pc

STATES = CypherAftermath()
SEED = "11" * 32


def ctx(now_ms: int) -> Context:
    return Context(
        tenant="t", room="character:ana", combat_id=None, occurred_ms=now_ms, now_ms=now_ms
    )


def record(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "ruleset": "cypher",
        "character": "ana",
        "in_combat": None,
        "pools": {"might": 3, "speed": 5, "intellect": 5},
        "pools_max": {"might": 10, "speed": 10, "intellect": 10},
        "tier": 2,
        "special_steps": 0,
        "track": 0,
        "track_name": "unhurt",
        "day": rests.day_of(T0),
        "rests_today": 0,
        "resting": None,
        "history": [],
    }
    return {**base, **changes}


def next_rest(state: dict[str, Any]) -> dict[str, Any] | None:
    return rests.next_rest(CypherRecord.parse(state))


def rest(state: dict[str, Any], now_ms: int, **command: Any) -> Decision[dict[str, Any]]:
    payload = {
        "ruleset": "cypher",
        "character": "ana",
        "seed": SEED,
        "command": {"type": "cypher.rest", **command},
    }
    return STATES.on_command(state, "ana", "character.command", payload, ctx(now_ms))


def finish(state: dict[str, Any], now_ms: int) -> Decision[dict[str, Any]]:
    timer = STATES.armed_timers(state)[0]
    assert timer.due_ms == now_ms
    return STATES.on_timer(state, "ana", timer.timer_id, ctx(now_ms))


def test_t001_09_four_rests_a_day_then_e_no_rests_left() -> None:
    """001 RECUPERAR: seconds (no timer), 10 min, 1 h, 10 h; a 5th the same day is refused."""
    now = rests.day_of(T0) * rests.DAY_MS + 1000
    state = record()
    first = rest(state, now)
    assert first.arm == [] and [e.type for e in first.events] == ["rest.started", "rest.recovered"]
    state = first.state or {}
    for seconds in (600, 3600, 36000):
        started = rest(state, now)
        assert started.arm[0].due_ms - now == seconds * 1000
        with pytest.raises(RuleViolation) as busy:
            rest(started.state or {}, now)
        assert busy.value.code == "rest_in_progress"
        now += seconds * 1000
        state = finish(started.state or {}, now).state or {}
    assert rests.day_of(now) == rests.day_of(T0) and next_rest(state) is None
    with pytest.raises(RuleViolation) as none_left:
        rest(state, now)
    assert none_left.value.code == "no_rests_left"


def test_b9_the_day_boundary_starts_the_count_again() -> None:
    state = record(rests_today=4)
    with pytest.raises(RuleViolation):
        rest(state, T0)
    tomorrow = (rests.day_of(T0) + 1) * rests.DAY_MS + 1
    assert (rest(state, tomorrow).state or {})["rests_today"] == 1
    half_past_midnight = tomorrow + 30 * 60_000
    assert rests.day_of(half_past_midnight, boundary_minutes=60) == rests.day_of(T0)


def test_a_rest_roll_is_recomputable_from_its_committed_seed() -> None:
    done = rest(record(), T0)
    recovered = next(e.payload for e in done.events if e.type == "rest.recovered")
    assert recovered["commitment"] == commitment(SEED) and recovered["seed"] == SEED
    assert replay(SEED, recovered["roll"]).total == recovered["points"]
    assert (done.state or {})["pools"]["might"] == 3 + min(7, recovered["points"])


def test_t001_10_a_rest_mid_fight_then_ten_minutes_after_it() -> None:
    """001 RECUPERAR (example), B-10: the fight's rest is the 1st of the day; after the fight
    the next is the 2nd (10 min), then the 3rd (1 h)."""
    ref = Referee.start({"ana": pc("Ana", might=10), "bruno": pc("Bruno")}, "ana", ["bruno"])
    ref.act(
        {"type": "cypher.inflict", "actor": "bruno", "target": "ana", "damage": 6}, moderator=True
    )
    while ref.actor != "ana":
        ref.act({"type": "cypher.pass", "actor": ref.actor})
    ref.act({"type": "cypher.recover", "actor": "ana"})
    assert ref.last("action.resolved")["recovery"]["option"] == "points"
    assert ref.part("ana")["rests_taken"] == 1
    ref.act({"type": "annul", "actor": "ana", "reason": "end"}, moderator=True)
    ended = ref.last("combat.ended")
    started = next(e.payload for e in ref.log if e.type == "combat.started")
    state = STATES.on_event(None, "ana", "combat.started", started, ctx(T0)).state
    state = STATES.on_event(state, "ana", "combat.ended", ended, ctx(T0)).state or {}
    assert state["rests_today"] == 1 and next_rest(state) == {"number": 2, "seconds": 600}
    second = rest(state, T0)
    assert second.arm[0].due_ms == T0 + 600_000
    state = finish(second.state or {}, T0 + 600_000).state or {}
    assert next_rest(state) == {"number": 3, "seconds": 3600}


def test_t001_11_special_damage_option() -> None:
    """001 RECUPERAR (special damage): every pool above 0 and impaired by poison: the roll
    heals the step instead of points; with a pool at 0: E_RECOVERY_OPTION_INVALID."""
    poisoned = record(special_steps=1, track=1, track_name="impaired")
    done = rest(poisoned, T0, special_damage=True).state or {}
    assert done["track_name"] == "unhurt" and done["pools"] == poisoned["pools"]
    zero = record(special_steps=1, pools={"might": 0, "speed": 5, "intellect": 5})
    with pytest.raises(RuleViolation) as refused:
        rest(zero, T0, special_damage=True)
    assert refused.value.code == "recovery_option_invalid"


def test_t001_11_in_combat_too() -> None:
    ref = Referee.start({"ana": pc("Ana"), "bruno": pc("Bruno")}, "ana", ["bruno"])
    ref.act(
        {"type": "cypher.inflict", "actor": "bruno", "target": "ana", "track_steps": 1},
        moderator=True,
    )
    while ref.actor != "ana":
        ref.act({"type": "cypher.pass", "actor": ref.actor})
    ref.act({"type": "cypher.recover", "actor": "ana", "special_damage": True})
    assert ref.part("ana")["track_name"] == "unhurt"


def test_a_rest_running_is_interrupted_by_a_combat_w14() -> None:
    state = rest(rest(record(), T0).state or {}, T0).state or {}
    started = {"combat_id": "c_x", "ruleset": "cypher", "sheets": {"ana": pc("Ana", tier=2)}}
    out = STATES.on_event(state, "ana", "combat.started", started, ctx(T0 + 1000))
    assert [e.type for e in out.events] == ["rest.interrupted"] and out.cancel
    assert (out.state or {})["rests_today"] == 1


def test_a_pc_never_in_combat_rests_from_his_sheet() -> None:
    sheet = pc("Ana", tier=3, current={"might": 2, "speed": 10, "intellect": 10})
    payload = {"ruleset": "cypher", "character": "ana", "seed": SEED, "sheet": sheet}
    payload["command"] = {"type": "cypher.rest"}
    done = STATES.on_command(None, "ana", "character.command", payload, ctx(T0)).state or {}
    assert done["pools_max"]["might"] == 10 and done["tier"] == 3
    assert done["pools"]["might"] > 2 and done["rests_today"] == 1


def test_b9_the_day_boundary_is_the_communitys_setting() -> None:
    """B-9 (config): with the day starting at 06:00, 05:00 still belongs to yesterday."""
    day = rests.day_of(T0) * rests.DAY_MS
    full = record(rests_today=4, day=rests.day_of(day - 1, 360))
    payload = {
        "ruleset": "cypher",
        "character": "ana",
        "seed": SEED,
        "settings": {"cypher": {"day_boundary_minutes": 360}},
        "command": {"type": "cypher.rest"},
    }
    with pytest.raises(RuleViolation) as refused:
        STATES.on_command(full, "ana", "character.command", payload, ctx(day + 5 * 3_600_000))
    assert refused.value.code == "no_rests_left"
    later = STATES.on_command(full, "ana", "character.command", payload, ctx(day + 7 * 3_600_000))
    assert (later.state or {})["rests_today"] == 1
