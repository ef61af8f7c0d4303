"""Faults under the scenarios that test a property rather than a fault (one key 20 ways,
racing pairs, timers due while a service is dead): other combats are played meanwhile and
services are killed with ``kill -9`` over and over until at least one message was delivered
again, so the property is shown to hold while the fault really hits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from tests.chaos.check import Figures, check
from tests.chaos.load import PATIENCE_S, Record, new_community
from tests.chaos.scenarios import PLAY_TIMERS, player, settle, start_combats
from tests.chaos.stack import Stack


@dataclass
class Fire:
    """What the background did: its own figures, the kills, the redeliveries they caused."""

    figures: Figures = field(default_factory=Figures)
    kills: list[str] = field(default_factory=list)
    redeliveries: int = 0


def merged(a: Figures, b: Figures) -> Figures:
    """The figures of two sets of combats checked apart."""
    total = Figures()
    total.add(a)
    total.add(b)
    return total


@asynccontextmanager
async def under_fire(
    stack: Stack,
    services: list[str],
    *,
    combats: int,
    every: float,
    first_after: float = 0.5,
    max_kills: int = 12,
    patience: float = PATIENCE_S,
) -> AsyncIterator[Fire]:
    """Play ``combats`` in the background and kill ``services`` in turn, one every ``every``
    seconds, while the body runs; after the body, go on killing (up to ``max_kills``) until
    a redelivery was seen. On exit the background combats are settled and checked.
    ``patience``: how long a player retries one action (longer than an outage the body
    causes on purpose, which the service answers with 503 throughout)."""
    suite = stack.suite
    community = await new_community(suite.base_url, suite.admin_token, PLAY_TIMERS)
    record = Record()
    ids = await start_combats(community, record, combats)
    stop = asyncio.Event()
    players = [asyncio.create_task(player(community, record, c, patience).play(stop)) for c in ids]
    fire = Fire()
    baseline = stack.redeliveries()
    body_done = asyncio.Event()

    async def killer() -> None:
        await asyncio.sleep(first_after)
        turn = 0
        while len(fire.kills) < max_kills:
            service = services[turn % len(services)]
            turn += 1
            # Hung 1 s first (like kill_each), so the kill lands on messages the broker must
            # deliver again: a kill at a random instant of a quiet handler often found none.
            await stack.kill_and_restart(service, busy_seconds=1.0)
            fire.kills.append(service)
            await asyncio.to_thread(stack.suite.wait_ready, 120)
            if body_done.is_set() and stack.redeliveries() > baseline:
                return
            await asyncio.sleep(every)

    killing = asyncio.create_task(killer())
    try:
        yield fire
    finally:
        body_done.set()
        await asyncio.wait({killing}, timeout=max_kills * (every + 15))
        killing.cancel()
        await asyncio.gather(killing, return_exceptions=True)
        await asyncio.to_thread(stack.suite.wait_ready, 120)
        stop.set()
        await asyncio.gather(*players, return_exceptions=True)
        await settle(community, record)
        fire.figures = await check(community.client, record.attempts, record.combats)
        fire.redeliveries = stack.redeliveries() - baseline
        await community.client.aclose()
