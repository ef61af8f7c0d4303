"""Turns, rounds and clocks of a running combat (umh 2.1-2.4, 3.1), over HTTP, with the real
timers of the running services: turns that alternate, PA that refills, a silent turn that
times out. The other turn rules are checked in the chain (``tests/chain/test_turn_flow.py``).

Timers are the community settings at their smallest useful values (1-3 s), so a test waits
for each timeout to arrive through the audit log, never by sleeping.
"""

from __future__ import annotations

import pytest

from tests.e2e.referee import Referee
from tests.support.play import of_type, types_of

pytestmark = [pytest.mark.e2e]


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
