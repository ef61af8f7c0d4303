"""Action points (umh 3, 1.2.6): costs, the 0-PA limit, the 3.4 surcharge, the lone
fighter's bucket, refunds of anticipated skills, the refill each round."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from services.turns.domain.umh.economy import cost_of, lone_fighter_bucket, spend
from services.turns.domain.umh.participant import Participant, SkillInfo
from services.turns.domain.umh.state import Readings, Settings

from .builders import (
    ATTACK,
    BLESSING,
    FLY,
    HEAVY,
    JAB,
    ORDER,
    QUICK,
    RALLY,
    READY_UP,
    SHIELD,
    T0,
    TURNS,
    WEEKLY,
    WINK,
    act,
    action_id,
    fighting,
    fire_kind,
    new_state,
    now_of,
    passes,
    payload,
    play_round,
    rejects,
    resolved,
    settle,
    start_cmd,
    types,
    use,
    where,
)

SETTINGS = Settings(turn_seconds=300, defense_seconds=300, preparation_seconds=120, pa_per_round=10)


def player(pa: int = 10, **counters: Any) -> Participant:
    return Participant(
        side="attackers", vel=5, pa=pa, movement_left=5, joined_seq=0, skills={}, **counters
    )


def info(pa: int, kind: str = "offensive") -> SkillInfo:
    return SkillInfo(name="X", pa=pa, type=kind)


@pytest.mark.parametrize(
    ("used", "skill", "expected"),
    [
        pytest.param(0, info(1), 1, id="umh-3.4-first-1pa-offensive-costs-1"),
        pytest.param(2, info(1), 1, id="umh-3.4-third-1pa-offensive-costs-1"),
        pytest.param(3, info(1), 2, id="umh-3.4-fourth-1pa-offensive-costs-2"),
        pytest.param(4, info(1), 2, id="umh-3.4-A-17-fifth-costs-2-not-cumulative"),
        pytest.param(3, info(2), 2, id="umh-3.4-only-1pa-skills"),
        pytest.param(3, info(1, "supplementary"), 1, id="umh-3.4-not-supplementary"),
        pytest.param(3, info(1, "defensive"), 1, id="umh-3.4-not-defensive"),
    ],
)
def test_cost_of(used: int, skill: SkillInfo, expected: int) -> None:
    assert cost_of(player(offensive_1pa=used), skill) == expected


@pytest.mark.parametrize(
    ("pa", "own_turns", "capped", "expected"),
    [
        pytest.param(3, 1, True, 0, id="umh-1.2.6.1-first-own-turn-no-recovery"),
        pytest.param(3, 2, True, 2, id="umh-1.2.6.2-T000-19-second-own-turn-2"),
        pytest.param(9, 2, True, 1, id="umh-1.2.6.2-A-15-capped-at-pa-max"),
        pytest.param(10, 3, True, 0, id="umh-1.2.6.2-A-15-full-pa-nothing"),
        pytest.param(10, 3, False, 2, id="umh-1.2.6.2-A-15-setting-uncapped"),
    ],
)
def test_lone_fighter_bucket(pa: int, own_turns: int, capped: bool, expected: int) -> None:
    settings = replace(SETTINGS, readings=Readings(lone_fighter_bucket_cap=capped))
    assert lone_fighter_bucket(player(pa, own_turns=own_turns), settings) == expected


def test_spend_takes_the_bucket_first() -> None:
    """umh 1.2.6.3 / A-15: the bucket is spent first; the round's PA only after it."""
    someone = player(3, bonus_pa=2)
    spend(someone, 1)
    assert (someone.pa, someone.bonus_pa) == (3, 1)
    spend(someone, 3)
    assert (someone.pa, someone.bonus_pa) == (1, 0)


def lone_fight() -> tuple[dict[str, Any], int]:
    """2 vs 1, the larger side first (T000-01): bruno and carla attack, ana alone."""
    state = fighting(defenders=("bruno", "carla"), vel={"ana": 3, "bruno": 7, "carla": 6})
    now = now_of(state)
    state = play_round(state, now)  # round 1 (the aggressor's own order)
    assert state["turn_order"] == ["bruno", "ana", "carla", "ana"]
    return state, now


def test_t000_19_lone_fighter_recovers_2_pa_and_loses_what_he_does_not_use() -> None:
    """T000-19: spends 7 in his 1st own turn (3 left); +2 in the 2nd; spends 1 of the bucket;
    the unused PA of the bucket is lost at the end of that turn; the round refills 10."""
    state, now = lone_fight()
    state = passes(state, "bruno", now)
    for n, name in enumerate([BLESSING, WEEKLY, RALLY, FLY, QUICK, READY_UP, ORDER]):
        state = use(state, "ana", name, now, n=f"t1-{n}")
    assert state["participants"]["ana"]["pa"] == 3
    state = passes(state, "ana", now)
    state = passes(state, "carla", now)
    assert payload_of_turn(state) == ("ana", 2)
    view = TURNS.view(state)["participants"]["ana"]
    assert (view["pa"], view["pa_bonus"]) == (5, 2)
    state = use(state, "ana", JAB, now, n="t2", targets=("bruno",))
    view = TURNS.view(state)["participants"]["ana"]
    assert (view["pa"], view["pa_bonus"]) == (4, 1)  # spent from the bucket first
    decision = act(state, {"type": "pass_turn", "actor": "ana"}, now, n="t2-pass")
    assert payload(decision, "round.ended")["round"] == 2
    state = new_state(decision)
    assert state["participants"]["ana"]["pa"] == 10  # ROUND_END: the bucket's last PA lost


def payload_of_turn(state: dict[str, Any]) -> tuple[str, int]:
    return state["turn"]["actor"], state["participants"][state["turn"]["actor"]]["own_turns"]


@pytest.mark.parametrize(
    ("vel", "order", "bonuses"),
    [
        pytest.param(
            {"ana": 3, "bruno": 7, "carla": 6},
            ["bruno", "ana", "carla", "ana"],
            [0, 0, 0, 2],
            id="umh-1.2.6.5-T000-01-larger-side-first",
        ),
        pytest.param(
            {"ana": 9, "bruno": 7, "carla": 6},
            ["ana", "bruno", "ana", "carla"],
            [0, 0, 2, 0],
            id="umh-1.2.6.5-T000-02-lone-fighter-first",
        ),
    ],
)
def test_lone_fighter_turns_and_buckets_two_vs_one(
    vel: dict[str, float], order: list[str], bonuses: list[int]
) -> None:
    """T000-01 / T000-02: one own turn after each opponent; +2 PA from his 2nd own turn."""
    state = fighting(defenders=("bruno", "carla"), vel=vel)
    now = now_of(state)
    state = play_round(state, now)
    spend_some(state)
    assert state["turn_order"] == order
    assert bonuses_of_round(state, now) == bonuses


def spend_some(state: dict[str, Any]) -> None:
    """The lone fighter starts the round with 5 PA spent, so a bucket can show (A-15)."""
    state["participants"]["ana"]["pa"] = 5


def bonuses_of_round(state: dict[str, Any], now: int) -> list[int]:
    bonuses = [TURNS.view(state)["participants"][state["turn"]["actor"]]["pa_bonus"]]
    start = state["round"]
    i = 0
    while True:
        i += 1
        state = passes(state, state["turn"]["actor"], now, f"b{i}")
        if state["round"] != start:
            return bonuses
        bonuses.append(state["participants"][state["turn"]["actor"]]["bonus_pa"])


@pytest.mark.parametrize(
    ("lone_vel", "order"),
    [
        pytest.param(3, ["bruno", "ana", "carla", "ana", "dani", "ana"], id="umh-1.2.6.5-T000-03"),
        pytest.param(9, ["ana", "bruno", "ana", "carla", "ana", "dani"], id="umh-1.2.6.5-T000-04"),
    ],
)
def test_lone_fighter_three_vs_one(lone_vel: int, order: list[str]) -> None:
    """T000-03 / T000-04 (a prisoner's challenge of three captors, umh 4.5.4): three own
    turns, +2 PA in the 2nd and 3rd (each lost at the end of its turn)."""
    vel = {"ana": lone_vel, "bruno": 7, "carla": 6, "dani": 5}
    cmd = start_cmd(defenders=("bruno", "carla", "dani"), vel=vel, prisoner=True)
    state = new_state(fire_kind(new_state(TURNS.start(cmd, **where(T0))), "preparation"))
    assert state["turn_order"] == ["ana", "bruno", "ana", "carla", "ana", "dani"]
    now = now_of(state)
    state = play_round(state, now)
    assert state["turn_order"] == order
    spend_some(state)
    bonuses = bonuses_of_round(state, now)
    lone = [b for who, b in zip(order, bonuses, strict=True) if who == "ana"]
    assert lone == [0, 2, 2]
    assert [b for who, b in zip(order, bonuses, strict=True) if who != "ana"] == [0, 0, 0]


def test_turn_ended_once_per_own_turn_of_the_lone_fighter() -> None:
    """umh 2.3.6 / 1.2.6.4: each of his own turns ends once (regenerations at each end)."""
    state, now = lone_fight()
    ended: list[str] = []
    start = state["round"]
    i = 0
    while state["round"] == start:
        i += 1
        decision = act(
            state, {"type": "pass_turn", "actor": state["turn"]["actor"]}, now, n=200 + i
        )
        ended += [e.payload["actor"] for e in decision.events if e.type == "turn.ended"]
        state = new_state(decision)
    assert ended == ["bruno", "ana", "carla", "ana"]


def test_t000_32_third_zero_pa_action_in_an_own_turn() -> None:
    """umh 3.3 / T000-32: at most two 0-PA actions per own turn; a new turn resets it."""
    state = fighting()
    now = now_of(state)
    for n in (1, 2):
        state = new_state(act(state, {"type": "skill", "actor": "ana", "skill": WINK}, now, n=n))
        state = settle(state, now)  # bruno lets it be (umh 8.2.3.1: he could annul it)
        state["participants"]["ana"]["used_round"] = {}  # the per-round limit is not tested here
    violation = rejects(state, {"type": "skill", "actor": "ana", "skill": WINK}, now)
    assert (violation.code, violation.rule) == ("zero_pa_limit", "umh 3.3")
    state = play_round(state, now)
    state = passes(state, state["turn"]["actor"], now) if state["turn"]["actor"] != "ana" else state
    assert state["participants"]["ana"]["zero_pa_actions"] == 0


def test_t000_33_fourth_1pa_offensive_costs_2() -> None:
    """umh 3.4 / T000-33 / A-17: 1, 1, 1, 2, 2; a 1-PA supplementary in between does not count."""
    state = fighting()
    now = now_of(state)
    costs: list[int] = []
    for n in range(1, 7):
        if n == 3:
            state = use(state, "ana", BLESSING, now, n=n)
            assert state["participants"]["ana"]["offensive_1pa"] == 2
            continue
        state["participants"]["ana"]["used_round"] = {}  # 2.3.1.3 is not what is tested here
        aim = {"type": "skill", "actor": "ana", "skill": JAB, "targets": ["bruno"]}
        decision = act(state, aim, now, n=n)
        costs.append(payload(decision, "action.declared")["pa_spent"])
        state = settle(new_state(decision), now)
    assert costs == [1, 1, 1, 2, 2]


@pytest.mark.parametrize(
    ("cost", "refund"),
    [
        pytest.param(1, 1, id="umh-3.2-T000-30-cost-1-refund-1"),
        pytest.param(2, 1, id="umh-3.2-T000-30-cost-2-refund-1"),
        pytest.param(3, 1, id="umh-3.2-T000-30-cost-3-refund-1"),
        pytest.param(4, 2, id="umh-3.2-T000-30-cost-4-refund-2"),
        pytest.param(5, 2, id="umh-3.2-T000-30-cost-5-refund-2"),
    ],
)
def test_t000_30_refund_of_an_anticipated_skill(cost: int, refund: int) -> None:
    """umh 3.2 / T000-30: resolution computes the refund (50 %, floor, min 1); turns gives
    it back in the same round."""
    state = fighting()
    now = now_of(state)
    state["participants"]["ana"]["skills"]["puño"]["pa"] = cost
    attack = {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno"]}
    state = new_state(act(state, attack, now))
    anticipate = {
        "type": "react",
        "actor": "bruno",
        "action_id": action_id(1),
        "skill": "Previsión",
        "use_number": 1,
    }
    state = new_state(act(state, anticipate, now, n=2))
    take = {"type": "react", "actor": "ana", "action_id": action_id(1), "skill": None}
    state = new_state(act(state, take, now, n=3))
    answer = {**resolved(action_id(1)), "cancelled": True, "refunds": {"ana": refund}}
    decision = TURNS.on_event(state, "action.resolved", answer, now_ms=now)
    assert payload(decision, "pa.refunded") == {"character": "ana", "pa": refund, "rule": "umh 3.2"}
    assert new_state(decision)["participants"]["ana"]["pa"] == 10 - cost + refund


def test_t000_31_no_refund_after_answering_the_anticipation() -> None:
    """umh 3.2.1 / 8.2.2.4 / T000-31: he answered the anticipation: his 3 PA are lost, the
    action does not happen, the skill counts as used this round."""
    state = fighting()
    now = now_of(state)
    state["participants"]["ana"]["skills"]["puño"]["pa"] = 3
    attack = {"type": "skill", "actor": "ana", "skill": ATTACK, "targets": ["bruno"]}
    state = new_state(act(state, attack, now))
    anticipate = {
        "type": "react",
        "actor": "bruno",
        "action_id": action_id(1),
        "skill": "Previsión",
        "use_number": 1,
    }
    state = new_state(act(state, anticipate, now, n=2))
    shield = {"type": "react", "actor": "ana", "action_id": action_id(1), "skill": SHIELD}
    decision = act(state, shield, now, n=3)
    request = payload(decision, "resolution.requested")
    assert request["anticipation_answers"]["bruno"]["skill"] == SHIELD
    state = new_state(decision)
    answer = {**resolved(action_id(1)), "cancelled": True, "refunds": {"ana": 1}}
    decision = TURNS.on_event(state, "action.resolved", answer, now_ms=now)
    assert "pa.refunded" not in types(decision)
    state = new_state(decision)
    assert state["participants"]["ana"]["pa"] == 10 - 3 - 1
    again = rejects(state, attack, now)
    assert again.code == "ability_already_used_this_round"


def test_refill_every_round() -> None:
    """umh 3.1.3 / 2.3.2.1: PA and speed back at each round, the per-round counters reset."""
    state = fighting()
    now = now_of(state)
    state = use(state, "ana", HEAVY, now, n=1, targets=("bruno",))
    assert state["participants"]["ana"]["pa"] == 1
    state = play_round(state, now)
    ana = state["participants"]["ana"]
    assert (ana["pa"], ana["used_round"], ana["offensive_1pa"]) == (10, {}, 0)
