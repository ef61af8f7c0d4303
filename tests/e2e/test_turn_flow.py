"""Turns, rounds and clocks of a running combat (umh 2.1-2.4, 3.1), over HTTP.

Timers are the community settings at their smallest useful values (1-3 s), so a test waits
for each timeout to arrive through the audit log, never by sleeping.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from math import floor

import pytest

from tests.e2e.referee import Referee
from tests.support.play import error_of, of_type, types_of
from tests.support.sheets import defensive, offensive, supplementary

pytestmark = [pytest.mark.e2e]


def instant(rfc3339: str) -> float:
    """An RFC 3339 time as Unix seconds."""
    return datetime.fromisoformat(rfc3339.replace("Z", "+00:00")).timestamp()


async def test_challenge_turns_alternate_pa_refills_and_a_silent_turn_times_out(
    referee: Referee,
) -> None:
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 2, "defense_seconds": 2}
    )
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    combat = await community.start_challenge("ana", "bruno")
    cid = combat["id"]

    # umh 2.2.1: round 1 opens with the challenger's turn, after the preparation round.
    fighting = await community.wait_turn(cid, "ana", 1)
    assert fighting["turn_order"] == ["ana", "bruno"]
    assert fighting["participants"]["ana"]["pa"] == 10

    # Spend PA (umh 3.1.2), then PASO TURNO (2.3.3): bruno's turn, same round.
    spent = await community.use_skill(cid, "ana", "Concentración")
    left = spent["combat"]["participants"]["ana"]["pa"]
    assert left == 10 - 4
    passed = await community.pass_turn(cid, "ana")
    started = of_type(passed["events"], "turn.started")
    assert [(e["data"]["actor"], e["data"]["round"]) for e in started] == [("bruno", 1)]
    assert passed["combat"]["turn"]["actor"] == "bruno"
    assert passed["combat"]["participants"]["ana"]["pa"] == left  # no refill inside a round

    # bruno does nothing: after turn_seconds his turn times out (umh 2.3.5) and round 2 starts.
    await community.wait_event(cid, "turn.timed_out", lambda d: d["actor"] == "bruno")
    round_two = await community.wait_turn(cid, "ana", 2)
    assert round_two["participants"]["ana"]["pa"] == 10  # umh 3.1.3: PA back each round
    assert round_two["participants"]["bruno"]["pa"] == 10

    await community.pass_turn(cid, "ana")
    await community.pass_turn(cid, "bruno")
    await community.wait_turn(cid, "ana", 3)

    events = await community.events_of(cid)
    turns = of_type(events, "turn.started")[:5]
    assert [(e["data"]["actor"], e["data"]["round"]) for e in turns] == [
        ("ana", 1),
        ("bruno", 1),
        ("ana", 2),
        ("bruno", 2),
        ("ana", 3),
    ]
    assert [e["data"]["turn_seq"] for e in turns] == [1, 2, 3, 4, 5]
    assert [e["data"]["round"] for e in of_type(events, "round.started")][:3] == [1, 2, 3]

    # Exactly one timeout so far: bruno's turn of round 1, then ana's turn of round 2.
    timed_out = of_type(events, "turn.timed_out")
    assert [(e["data"]["actor"], e["data"]["round"], e["data"]["turn_seq"]) for e in timed_out][
        :1
    ] == [("bruno", 1, 2)]
    after = events[events.index(timed_out[0]) + 1 :]
    turn_events = of_type(after, "turn.ended", "round.ended", "round.started", "turn.started")
    assert types_of(turn_events)[:4] == [
        "turn.ended",
        "round.ended",
        "round.started",
        "turn.started",
    ]
    assert turn_events[0]["data"] == {
        "actor": "bruno",
        "reason": "timeout",
        "round": 1,
        "turn_seq": 2,
    }
    assert turn_events[3]["data"]["actor"] == "ana"
    ended = of_type(events, "turn.ended")[:4]
    assert [e["data"]["reason"] for e in ended] == ["passed", "timeout", "passed", "passed"]


async def test_a_skill_costs_exactly_its_pa(referee: Referee) -> None:
    community = await referee.new_community()
    skills = (offensive("Puño", pa=2), defensive("Bloqueo", pa=1), supplementary("Todo", pa=10))
    await community.register("ana", vel=6, skills=skills)
    await community.register("bruno", vel=5, skills=skills)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)

    attack = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    (declared,) = of_type(attack["events"], "action.declared")
    assert declared["data"]["pa_spent"] == 2
    assert attack["combat"]["participants"]["ana"]["pa"] == 10 - 2
    defended = await community.react(cid, "bruno", attack["action_id"], "Bloqueo")
    assert defended["combat"]["participants"]["bruno"]["pa"] == 10 - 1
    await community.pass_turn(cid, "ana")

    # bruno has 9 PA left: a 10-PA skill is refused, and PA never goes below 0.
    refused = await community.act(
        cid, {"type": "skill", "actor": "bruno", "skill": "Todo", "targets": []}
    )
    assert error_of(refused, 422, "insufficient_pa")["rule"] == "umh 3.1.2"
    await community.pass_turn(cid, "bruno")
    await community.wait_turn(cid, "ana", 2)
    everything = await community.use_skill(cid, "ana", "Todo")
    assert everything["combat"]["participants"]["ana"]["pa"] == 0


async def test_defense_window_pauses_the_attackers_clock_and_a_silent_defender_takes_the_hit(
    referee: Referee,
) -> None:
    # The defense window (3 s) is longer than the whole turn (2 s): if the attacker's clock
    # kept running while bruno may defend, ana's turn would time out inside the window.
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 2, "defense_seconds": 3}
    )
    skills = (offensive("Puño", damage=120, pa=2), defensive("Bloqueo"), supplementary("Foco"))
    await community.register("ana", vel=6, skills=skills)
    await community.register("bruno", vel=5, resistance=10, reductions={"general": 10})
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)

    attack = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    action_id = attack["action_id"]
    turn = attack["combat"]["turn"]
    assert turn["actor"] == "ana"
    assert turn["deadline"] is None
    paused = turn["paused_remaining"]
    assert isinstance(paused, int | float) and 0 < paused <= 2, turn
    assert [r["reactor"] for r in attack["combat"]["pending_reactions"]] == ["bruno"]
    assert attack["combat"]["pending_reactions"][0]["action_id"] == action_id
    (pause,) = of_type(attack["events"], "turn.paused")
    assert pause["data"]["remaining_ms"] == round(paused * 1000)

    # While the reaction is pending the clock stands still.
    pending = await community.combat(cid)
    assert pending["turn"]["paused_remaining"] == paused
    assert pending["turn"]["deadline"] is None

    # bruno stays silent: his window closes (umh 2.4.2) and the hit lands with no defense.
    closed = await community.wait_event(cid, "reaction.timed_out", within=10)
    assert closed["data"] == {"action_id": action_id, "reactor": "bruno"}
    resolved = await community.wait_event(
        cid, "action.resolved", lambda d: d["action_id"] == action_id
    )
    (result,) = resolved["data"]["results"]
    assert result["target"] == "bruno"
    assert result["reaction"] == {"skill": None, "resist": False, "timed_out": True}
    steps = {step["step"]: step for step in result["steps"]}
    assert steps["defense"]["note"] == "timed_out"
    assert steps["defense"]["before"] == steps["defense"]["after"] == 120
    expected = floor((Fraction(120) - 10) * Fraction(90, 100))  # RES, then -10 %, floored
    assert result["damage"] == expected == 99
    assert (result["vit_before"], result["vit_after"]) == (1000, 1000 - expected)

    # The clock resumes with the time it had left, and only then can the turn time out.
    resumed = await community.wait_event(cid, "turn.resumed")
    assert resumed["data"]["actor"] == "ana"
    resumed_at = instant(resumed["occurred_at"])
    assert abs(resumed["data"]["deadline_ms"] / 1000 - resumed_at - paused) < 0.25
    timed_out = await community.wait_event(cid, "turn.timed_out", lambda d: d["actor"] == "ana")
    assert timed_out["data"]["round"] == 1

    events = await community.events_of(cid)
    ids = [e["id"] for e in events]
    declared = ids.index(of_type(events, "action.declared")[0]["id"])
    window_closed = ids.index(closed["id"])
    turn_timeouts = [ids.index(e["id"]) for e in of_type(events, "turn.timed_out")]
    assert all(not declared < i < window_closed for i in turn_timeouts), types_of(events)
    assert ids.index(timed_out["id"]) > ids.index(resumed["id"])
    assert instant(timed_out["occurred_at"]) >= resumed["data"]["deadline_ms"] / 1000 - 0.01
    started = of_type(events, "turn.started")
    assert started[0]["data"]["turn_seq"] == timed_out["data"]["turn_seq"]  # the same turn
