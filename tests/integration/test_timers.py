"""The timer scheduler on the real Redis: claim with a lease, ack, re-claim, re-arm."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from shared.keys import Keys
from shared.timers import Claimed, TimerPoller, TimerStore
from tests.support.wait import eventually

pytestmark = pytest.mark.integration


def timers(redis: Redis, ns: str) -> TimerStore:
    keys = Keys(ns)
    return TimerStore(redis, **keys.timer_store("turns"))


async def test_only_due_timers_are_claimed_and_an_ack_removes_them(
    redis: Redis, namespace: str
) -> None:
    store = timers(redis, namespace)
    await store.arm("due", 1_000, {"kind": "turn"})
    await store.arm("later", 5_000, {"kind": "turn"})
    claimed = await store.claim(2_000, lease_ms=10_000)
    assert [c.timer_id for c in claimed] == ["due"]
    assert claimed[0].payload == {"kind": "turn"}
    assert await store.claim(2_000, lease_ms=10_000) == []  # leased, not due again yet
    assert await store.ack(claimed[0])
    assert await store.count() == 1


async def test_a_lost_lease_lets_another_poller_claim_again(redis: Redis, namespace: str) -> None:
    store = timers(redis, namespace)
    await store.arm("t", 1_000, {})
    first = await store.claim(2_000, lease_ms=500)
    again = await store.claim(2_600, lease_ms=500)  # the first poller died: lease ran out
    assert [c.timer_id for c in first] == [c.timer_id for c in again] == ["t"]
    assert not await store.ack(first[0])  # the late ack of the dead poller changes nothing
    assert await store.ack(again[0])


async def test_a_timer_rearmed_during_its_firing_survives_the_ack(
    redis: Redis, namespace: str
) -> None:
    store = timers(redis, namespace)
    await store.arm("t", 1_000, {"n": 1})
    claimed = await store.claim(2_000, lease_ms=10_000)
    await store.arm("t", 9_000, {"n": 2})
    assert not await store.ack(claimed[0])
    assert await store.due_of("t") == 9_000


async def test_the_reconciler_rearms_only_missing_timers(redis: Redis, namespace: str) -> None:
    store = timers(redis, namespace)
    await store.arm("t", 1_000, {})
    await store.claim(2_000, lease_ms=10_000)
    assert not await store.arm_if_missing("t", 1_000, {})  # leased: left alone
    assert await store.arm_if_missing("u", 3_000, {})
    await store.cancel("t")
    assert await store.due_of("t") is None


async def test_a_timer_that_just_fired_is_not_rearmed_by_the_reconciler(
    redis: Redis, namespace: str
) -> None:
    store = timers(redis, namespace)
    await store.arm("t", 1_000, {})
    (claimed,) = await store.claim(2_000, lease_ms=10_000)
    assert await store.ack(claimed)  # fired: its command may still wait in a partition
    assert not await store.arm_if_missing("t", 1_000, {})
    assert await store.due_of("t") is None


async def test_the_poller_fires_each_due_timer_once_and_retries_a_failed_fire(
    redis: Redis, namespace: str
) -> None:
    store = timers(redis, namespace)
    fired: list[str] = []
    failures = {"flaky": 1}

    async def fire(item: Claimed) -> None:
        if failures.get(item.timer_id, 0) > 0:
            failures[item.timer_id] -= 1
            raise ConnectionError("broker down")
        fired.append(item.timer_id)

    for name in ("a", "b", "flaky"):
        await store.arm(name, 0, {})
    poller = TimerPoller(store, fire, poll_ms=5, lease_ms=200)
    stop = asyncio.Event()
    task = asyncio.create_task(poller.run_forever(stop))
    try:
        await eventually(lambda: sorted(fired) == ["a", "b", "flaky"], within=5)
    finally:
        # Stop between polls and wait for it: a task cancelled in the middle of a Redis
        # command leaves its connection to be collected unclosed after the loop is gone.
        stop.set()
        await asyncio.wait_for(task, timeout=5)
    assert sorted(fired) == ["a", "b", "flaky"]
    assert await store.count() == 0
