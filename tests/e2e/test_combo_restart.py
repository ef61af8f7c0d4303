"""A combo survives a crash of services/resolution between its hits (umh 8.1.1.1.1, issue 18).

services/resolution is killed with SIGKILL twice during a 3-hit combo: once before hit 2 is
answered (its request waits in the broker until the restart), once the moment hit 2's
resolution shows in the log (its request may come back from the broker unacknowledged).
The combo completes after each restart, and no hit is applied twice.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.combos import (
    answer,
    assert_chained,
    assert_each_hit_once,
    assert_no_event_twice,
    chain_of_vit,
    damage_to,
    fighters,
    resolved_hits,
    resumed_turn,
    window_of,
)
from tests.e2e.referee import HttpCommunity, Referee
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


async def restart_resolution(suite: Suite) -> None:
    await asyncio.to_thread(suite.restart, "resolution")
    await asyncio.to_thread(suite.wait_ready, 30)


async def kill_resolution(suite: Suite) -> None:
    await asyncio.to_thread(suite.kill, "resolution")


async def hit_resolved(community: HttpCommunity, combat_id: str, action_id: str, hit: int) -> None:
    await community.wait_event(
        combat_id,
        "action.resolved",
        lambda d: d["action_id"] == action_id and d["hit"] == hit,
        within=30,
    )


async def test_a_combo_completes_across_restarts_of_resolution(own_suite: Suite) -> None:
    referee = Referee(own_suite)
    try:
        community = await referee.new_community()
        await fighters(community, hits=3)
        cid = (await community.start_challenge("ana", "bruno"))["id"]
        await community.wait_turn(cid, "ana", 1)
        action_id = (await community.use_skill(cid, "ana", "Tajo", ["bruno"]))["action_id"]
        await window_of(community, cid, action_id, "bruno", 1)
        await answer(community, cid, "bruno", action_id, None)
        await window_of(community, cid, action_id, "bruno", 2)

        # Down before hit 2 is asked for: the request waits for the restarted process.
        await kill_resolution(own_suite)
        await answer(community, cid, "bruno", action_id, None)
        await restart_resolution(own_suite)
        await hit_resolved(community, cid, action_id, 2)
        # Down again the moment hit 2 is logged, perhaps before its request was acked.
        await kill_resolution(own_suite)
        await restart_resolution(own_suite)

        await window_of(community, cid, action_id, "bruno", 3, within=30)
        await answer(community, cid, "bruno", action_id, None)
        resolved = await resolved_hits(community, cid, action_id, 3, within=30)
        combat = await resumed_turn(community, cid, "ana")
        events = await community.events_of(cid)
    finally:
        await referee.aclose()

    assert_each_hit_once(resolved, 3)
    assert_chained(chain_of_vit(resolved, "bruno"))
    assert combat["participants"]["bruno"]["vit"] == 1000 - damage_to(resolved, "bruno")
    assert_no_event_twice(events)
