"""A service killed with SIGKILL and restarted loses nothing and repeats nothing.

Timers live in Redis (a sorted set with leases) and every fired timer is a command whose id is
derived from the timer, so a crash of services/turns while a turn timer is pending must end
in exactly one ``turn.timed_out`` for that turn, and no turn started twice.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import pytest

from tests.e2e.referee import Referee
from tests.support.play import of_type
from tests.support.sheets import JSON
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]

TURN_SECONDS = 3


async def test_turn_timer_pending_while_turns_is_killed_fires_exactly_once(
    own_suite: Suite,
) -> None:
    referee = Referee(own_suite)
    try:
        community = await referee.new_community(
            timers={
                "preparation_seconds": 1,
                "turn_seconds": TURN_SECONDS,
                "defense_seconds": TURN_SECONDS,
            }
        )
        await community.register("ana", vel=6)
        await community.register("bruno", vel=5)
        cid = (await community.start_challenge("ana", "bruno"))["id"]
        fighting = await community.wait_turn(cid, "ana", 1)
        (first_turn,) = of_type(await community.events_of(cid), "turn.started")
        deadline_s = first_turn["data"]["deadline_ms"] / 1000
        assert first_turn["data"]["turn_seq"] == 1

        # The turn timer is pending (its deadline ahead) when the process dies.
        await asyncio.to_thread(own_suite.kill, "turns")
        assert time.time() < deadline_s, "the turn timer fired before the kill"
        await asyncio.to_thread(own_suite.restart, "turns")
        await asyncio.to_thread(own_suite.wait_ready, 30)

        await community.wait_event(
            cid, "turn.timed_out", lambda d: d["turn_seq"] == 1, within=TURN_SECONDS + 20
        )
        # Keep watching until the next turn has timed out too: any repeat of the first timer
        # (or of its consequences) would be in the log by then.
        events = await community.wait_events(
            cid,
            lambda evs: any(e["data"]["turn_seq"] == 2 for e in of_type(evs, "turn.timed_out")),
            what="bruno's turn (turn_seq 2) timing out",
            within=TURN_SECONDS + 20,
        )
    finally:
        await referee.aclose()

    assert fighting["turn"]["actor"] == "ana"
    timeouts = Counter(e["data"]["turn_seq"] for e in of_type(events, "turn.timed_out"))
    assert all(count == 1 for count in timeouts.values()), timeouts
    assert {1, 2} <= set(timeouts)
    starts = Counter(e["data"]["turn_seq"] for e in of_type(events, "turn.started"))
    assert all(count == 1 for count in starts.values()), starts
    assert set(starts) >= {1, 2, 3}
    assert_one_turn_at_a_time(events)
    ids = [e["id"] for e in events]
    assert len(ids) == len(set(ids)), "an event was logged twice"


def assert_one_turn_at_a_time(events: list[JSON]) -> None:
    """turn.started, (turn.timed_out), turn.ended alternate: no turn starts while one runs."""
    current: int | None = None
    for event in of_type(events, "turn.started", "turn.ended"):
        if event["type"] == "turn.started":
            assert current is None, f"turn {event['data']['turn_seq']} started inside {current}"
            current = event["data"]["turn_seq"]
        else:
            assert current is not None, "a turn ended that never started"
            current = None
