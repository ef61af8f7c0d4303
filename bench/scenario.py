"""The suite's part of a run: set up through the public API, play, measure, read back.

Two communities: one whose combats are played (turns long enough never to run out during
play), and one of ``timer_combats`` combats with turns of ``timer_turn_seconds`` where nobody
acts, whose turn timers run out over and over, first with the suite idle and then under the
load. The probe is kept light beside the load it measures (20 combats of 4-second turns: 5
timers a second), because every figure of the window counts its work too: with 1-second
turns its 20 firings a second, each handled like a ``pass_turn``, added about a third to the
work of the 10-combat load and so to its CPU per action.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from typing import Any

import httpx
from redis.asyncio import Redis
from referee_client import AsyncReferee

from bench import api, memory, recorder, timers
from bench.load import run_load
from bench.procs import cpu_over_window, per_operation
from bench.stats import ratio
from bench.viewers import watching

# Turns and defense windows long enough never to run out while the load plays (a slow
# action must not turn into a timeout), yet short enough for the preparation to end at once.
PLAY_TIMERS = {"preparation_seconds": 1, "turn_seconds": 600, "defense_seconds": 600}


def idle_timers(turn_seconds: int) -> dict[str, int]:
    return {"preparation_seconds": 1, "turn_seconds": turn_seconds, "defense_seconds": 1}


@dataclass(frozen=True)
class Plan:
    base_url: str
    admin_token: str
    namespace: str
    combats: int
    warmup: float
    seconds: float
    timer_combats: int = 20
    timer_turn_seconds: int = 4
    idle_seconds: float = 5.0
    viewers: int = 0  # idle SSE viewers of a second load (0: no second load)
    metrics: tuple[str, ...] = ()  # the processes' metrics pages (broker messages counted)


def _wall_ms(monotonic: float) -> float:
    """A ``time.monotonic()`` moment as Unix milliseconds."""
    return (time.time() + monotonic - time.monotonic()) * 1000


async def run_suite(plan: Plan, redis: Redis, pids: dict[str, int]) -> dict[str, Any]:
    """Set up, play ``plan.combats`` combats for ``warmup + seconds``, and measure."""
    used_before = await memory.used_memory(redis)
    async with contextlib.AsyncExitStack() as clients:

        def referee(key: str) -> AsyncReferee:
            return AsyncReferee(plan.base_url, key, timeout=30)

        admin = await clients.enter_async_context(referee(plan.admin_token))
        setup_started = time.monotonic()
        tenant, play_key = await api.create_community(admin, "bench-play", PLAY_TIMERS)
        _, idle_key = await api.create_community(
            admin, "bench-timers", idle_timers(plan.timer_turn_seconds)
        )
        play = await clients.enter_async_context(referee(play_key))
        idle = await clients.enter_async_context(referee(idle_key))
        pairs = await api.register_pairs(play, "p", plan.combats)
        idle_pairs = await api.register_pairs(idle, "t", plan.timer_combats)
        idle_ids = await api.start_challenges(idle, idle_pairs, "timers-")
        play_ids = await api.start_challenges(play, pairs, "room-")
        views = await api.wait_phase(play, play_ids, "fighting")
        await api.wait_phase(idle, idle_ids, "fighting")
        setup_seconds = time.monotonic() - setup_started

        idle_start = time.monotonic()
        await asyncio.sleep(plan.idle_seconds)  # a measured interval, not a wait for an event
        idle_end = time.monotonic()

        cpu_task = asyncio.create_task(
            cpu_over_window(pids, redis, plan.warmup, plan.seconds, plan.metrics)
        )
        load = await run_load(
            plan.base_url, play_key, views, warmup=plan.warmup, seconds=plan.seconds
        )
        cpu = await cpu_task
        window_ms = (_wall_ms(load.window.start), _wall_ms(load.window.end))
        events = await recorder.lag(redis, plan.namespace, tenant, play_ids, window_ms)

        lateness = await timers.measure(
            idle,
            idle_ids,
            {
                "idle": (_wall_ms(idle_start), _wall_ms(idle_end)),
                "under_load": window_ms,
            },
        )
    mem = await memory.per_combat(redis, plan.namespace, set(play_ids))
    used_after = await memory.used_memory(redis)
    mem["used_memory_delta_per_combat"] = round(
        (used_after - used_before) / (plan.combats + plan.timer_combats), 1
    )
    summary = load.tally.summary(load.window.seconds)
    per_operation(cpu, load.tally.completed)
    summary["actions_sent"] = load.actions_sent
    summary["stalled"] = load.stalled[:50]
    summary["read_errors"] = dict(load.read_errors)
    summary["segments_ms"] = load.hops.summary()
    watched = await with_viewers(plan, play_key, play_ids, summary) if plan.viewers else None
    return {
        "viewers": watched,
        "setup_seconds": round(setup_seconds, 2),
        "load": summary,
        "timers": lateness,
        "memory": mem,
        "event_stream": events,
        "cpu": cpu,
    }


async def with_viewers(
    plan: Plan, key: str, combat_ids: list[str], without: dict[str, Any]
) -> dict[str, Any]:
    """The same load again with ``plan.viewers`` idle SSE viewers connected; its latency
    beside the first load's (``without``)."""
    async with httpx.AsyncClient(base_url=plan.base_url, timeout=30) as client:
        found = await asyncio.gather(*(api.get_combat(client, key, c) for c in combat_ids))
    views = dict(zip(combat_ids, found, strict=True))
    print(f"again with {plan.viewers} idle SSE viewers ...", flush=True)
    async with watching(plan.base_url, key, combat_ids, plan.viewers) as seen:
        connected, refused = seen.connected, seen.refused
        load = await run_load(plan.base_url, key, views, warmup=plan.warmup, seconds=plan.seconds)
    summary = load.tally.summary(load.window.seconds)
    with_p, without_p = summary["completion_ms"], without["completion_ms"]
    return {
        "count": plan.viewers,
        "connected": connected,
        "refused": refused,
        "bytes_read": seen.bytes_read,
        "per_second": summary["per_second"],
        "completion_ms": with_p,
        "statuses": summary["statuses"],
        "p50_ratio": ratio(with_p.get("p50"), without_p.get("p50")),
        "p99_ratio": ratio(with_p.get("p99"), without_p.get("p99")),
    }
