"""Isolating a busy room while it is played (issue 16, item 4): ``shared.ops isolate`` and a
replica with ``REFEREE_ROOMS`` take the room over mid-combat; no action is lost and the turns
keep their order."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from shared.bus import Bus
from tests.e2e.referee import Referee
from tests.support.play import of_type
from tests.support.sheets import JSON
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]

PASSES = 5  # all passing, the combat ends after the sixth (three rounds)
ISOLATE_AFTER = 2


def isolate(suite: Suite, room: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "shared.ops", "isolate", "--service", "turns", "--room", room],
        env=suite.env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


async def test_a_room_isolated_while_played_loses_nothing_and_keeps_its_order(
    own_suite: Suite,
) -> None:
    referee = Referee(own_suite)
    room = "plaza"
    try:
        community = await referee.new_community(
            timers={"preparation_seconds": 1, "turn_seconds": 600, "defense_seconds": 600}
        )
        await community.register("ana", vel=6)
        await community.register("bruno", vel=5)
        cid = (await community.start_challenge("ana", "bruno", room=room))["id"]
        combat = await community.wait_turn(cid, "ana", 1)
        for n in range(PASSES):
            if n == ISOLATE_AFTER:
                said = await asyncio.to_thread(isolate, own_suite, room)
                assert f"turns.room.{room}" in said
                own_suite.process_env["turns-plaza"] = {"REFEREE_ROOMS": room}
                own_suite.start("turns-plaza")
            # 202 while the new replica starts: the command waits in the room's queue.
            body = {"type": "pass_turn", "actor": combat["turn"]["actor"]}
            answer = await community.act(cid, body)
            assert answer.status_code in (200, 202), answer.text

            def moved_on(events: list[JSON], turns: int = n + 2) -> bool:
                return len(of_type(events, "turn.started")) >= turns

            await community.wait_events(cid, moved_on, what=f"turn {n + 2}", within=30)
            combat = await community.combat(cid)
        events = await community.events_of(cid)
    finally:
        await referee.aclose()

    started = [e["data"]["turn_seq"] for e in of_type(events, "turn.started")]
    assert started == list(range(1, PASSES + 2)), started  # none lost, none twice, in order
    bus = Bus(
        own_suite.rabbitmq_url,
        namespace=own_suite.namespace,
        partitions=own_suite.partitions,
        delivery_limit=3,
        publish_timeout=5,
    )
    await bus.connect()
    try:
        counts = await bus.consumer_counts([bus.names.room_queue("turns", room)])
    finally:
        await bus.close()
    assert counts == {f"{own_suite.namespace}.turns.room.{room}": 1}
