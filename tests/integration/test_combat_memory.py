"""What a live combat keeps in Redis besides its log stays under 20 KB (issue 15).

A typical combat is played through the three services' real handlers (the in-process chain,
``tests/support/chain.py``) with every commit also made by the real commit script on Redis
(``tests/support/redis_mirror.py``): the bench's two fighters (``bench/api.py``) attack,
block or take the hit, and pass when out of PA. ``MEMORY USAGE ... SAMPLES 0`` of each key
with the combat's hash tag, the log left out, is then summed as ``python -m bench`` does
(``bench/memory.py``): a few actions, a round or two, and a long combat of 200 actions (the
processed-message record grows with every message: shared/store.py).
"""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from bench import memory
from bench.api import sheet
from bench.load import next_action
from tests.support.chain import Chain
from tests.support.play import expect
from tests.support.redis_mirror import mirrored
from tests.support.table import ChainCommunity, ChainReferee

pytestmark = pytest.mark.integration

BUDGET = 20_000
"""Bytes a live combat may keep in Redis without its log (issue 15's target)."""
PLAY_TIMERS = {"preparation_seconds": 1, "turn_seconds": 600, "defense_seconds": 600}


async def play(community: ChainCommunity, combat_id: str, actions: int) -> None:
    """The bench's player (``bench.load.next_action``): the actor uses Golpe, the target
    takes it and blocks it in turn, the actor passes when he cannot pay Golpe."""
    block = False
    for _ in range(actions):
        action = next_action(await community.combat(combat_id), block)
        assert action is not None
        if action["type"] == "react":
            block = not block
        await community.act_ok(combat_id, action)


@pytest.mark.parametrize("actions", [12, 40, 200])
async def test_a_live_combat_keeps_under_20_kb_besides_its_log(
    redis: Redis, namespace: str, actions: int
) -> None:
    referee = ChainReferee(Chain(namespace=namespace, stores=mirrored(redis, namespace)))
    community = await referee.new_community(timers=PLAY_TIMERS)
    for name in ("ana", "bruno"):
        body = sheet(name.capitalize())
        expect(await community.client.put(f"/v1/characters/{name}", json=body), 201)
    combat_id = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(combat_id, "ana", 1)
    await play(community, combat_id, actions)
    assert (await community.combat(combat_id))["phase"] == "fighting"

    kept = await memory.per_combat(redis, namespace, {combat_id})
    print(kept)
    assert kept["bytes_per_combat_without_log"] <= BUDGET, kept["bytes_per_combat_by_key"]
