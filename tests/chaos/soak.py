"""The soak run (``python -m tests.chaos --soak 20000``): many actions under every fault.

Players fight in ``rooms`` rooms (mortal fighters: a room's next combat starts when one
ends) through a stack whose RabbitMQ and Redis sit behind TCP proxies, while the faults
hit in turn, one every ``every`` seconds: ``kill -9`` of each process, every connection cut,
the broker restarted (then, once each fault hit its minimum, one every 45 s, so the
players get on). It goes on until ``actions`` actions were acknowledged *and* each
fault hit its minimum (5 broker restarts, 10 kills, 10 cuts); then every combat is checked
(:mod:`tests.chaos.check`).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path

from tests.chaos.check import check
from tests.chaos.load import Record, new_community
from tests.chaos.scenarios import (
    PLAY_TIMERS,
    Outcome,
    latency,
    player,
    recoveries,
    restart_rabbitmq_once,
    settle,
    start_combats,
)
from tests.chaos.stack import Stack

MINIMUM = {"rabbitmq": 5, "kill": 10, "cut": 10}
CYCLE = (
    "kill turns",
    "cut",
    "kill resolution",
    "rabbitmq",
    "kill states",
    "cut",
    "kill gateway",
    "cut",
)


async def hit(stack: Stack, fault: str) -> str:
    """One fault of the cycle; returns its kind (``kill``, ``cut``, ``rabbitmq``)."""
    if fault.startswith("kill "):
        await stack.kill_and_restart(fault.removeprefix("kill "))
        return "kill"
    if fault == "cut":
        assert stack.rabbit_proxy is not None and stack.redis_proxy is not None
        stack.mark("cut every connection")
        stack.rabbit_proxy.cut()
        stack.redis_proxy.cut()
        return "cut"
    await restart_rabbitmq_once(stack)
    return "rabbitmq"


def acknowledged(record: Record) -> int:
    return sum(1 for a in record.attempts if a.acknowledged)


async def soak(
    stack: Stack,
    *,
    actions: int,
    rooms: int = 50,
    every: float = 8.0,
    every_after: float = 45.0,
    max_seconds: float | None = None,
    keep: Path | None = None,
) -> Outcome:
    """Play until ``actions`` were acknowledged and every fault hit its minimum (or, with
    ``max_seconds``, until then: the figures say how far it got). Faults come every
    ``every`` seconds until each hit its minimum, then every ``every_after`` seconds."""
    suite = stack.suite
    community = await new_community(suite.base_url, suite.admin_token, PLAY_TIMERS)
    record = Record()
    ids = await start_combats(community, record, rooms)
    stop = asyncio.Event()
    players = [asyncio.create_task(player(community, record, c).play(stop)) for c in ids]
    redelivered, first_fault = stack.redeliveries(), len(stack.faults)
    done: Counter[str] = Counter()
    started = time.monotonic()
    turn = 0
    while acknowledged(record) < actions or any(done[k] < n for k, n in MINIMUM.items()):
        if max_seconds is not None and time.monotonic() - started > max_seconds:
            break
        met = all(done[k] >= n for k, n in MINIMUM.items())
        await asyncio.sleep(every_after if met else every)
        done[await hit(stack, CYCLE[turn % len(CYCLE)])] += 1
        turn += 1
        print(
            f"soak {time.monotonic() - started:.0f} s: {acknowledged(record)} actions, "
            f"{len(record.combats)} combats, faults {dict(done)}",
            flush=True,
        )
    await asyncio.to_thread(suite.wait_ready, 120)
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    await settle(community, record, within=180)
    faults = stack.faults[first_fault:]
    figures = await check(community.client, record.attempts, record.combats, keep)
    await community.client.aclose()
    return Outcome(
        "soak",
        figures,
        recoveries(record, [t for _, t in faults]),
        stack.redeliveries() - redelivered,
        {
            "rooms": rooms,
            "actions_wanted": actions,
            "broker_restarts": done["rabbitmq"],
            "service_kills": done["kill"],
            "connection_cuts": done["cut"],
            "latency_ms": latency(record),
            "errors_while_retrying": record.errors,
            "played_seconds": round(time.monotonic() - started, 1),
        },
    )
