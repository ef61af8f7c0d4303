"""The timer scheduler on the real Redis: claim with a lease, ack, re-claim, re-arm, over
several shards (one Redis Cluster slot each)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from shared.keys import Keys
from shared.outbox_entry import ArmTimer, CancelTimer
from shared.timer_poller import TimerPoller
from shared.timers import (
    CANCELLED_KEEP_MS,
    DEFAULT_SHARDS,
    FIRED_KEEP_MS,
    Claimed,
    TimerStore,
    now_ms,
    shard_of,
)
from tests.support.wait import eventually

pytestmark = pytest.mark.integration


def timers(redis: Redis, ns: str, shards: int = 1) -> TimerStore:
    return TimerStore(redis, Keys(ns).timer_shards("turns", shards))


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


async def test_a_cancelled_timer_is_not_armed_again_by_the_reconciler(
    redis: Redis, namespace: str
) -> None:
    """A reconciler pass reads a combat, a commit then cancels one of the timers that state
    expected (a turn passed), and the pass comes to that timer: it must not arm it again (it
    would fire once more, stale, and log ``timers_rearmed_by_reconciler``, as once in the
    full bench). The mark lasts CANCELLED_KEEP_MS."""
    store = timers(redis, namespace)
    await store.arm("combat:a:turn-1", now_ms() + 60_000, {})
    before = now_ms()
    await store.cancel("combat:a:turn-1")
    assert not await store.arm_if_missing("combat:a:turn-1", now_ms() + 60_000, {})
    assert await store.due_of("combat:a:turn-1") is None
    marked = await redis.zscore(store.keys_of("combat:a").fired, "combat:a:turn-1")
    assert marked is not None
    expires = marked + FIRED_KEEP_MS  # when the acks' trim drops it
    assert before + CANCELLED_KEEP_MS <= expires <= now_ms() + CANCELLED_KEEP_MS
    # A cancel of a timer that was not armed leaves no mark: the reconciler may arm it.
    await store.cancel("combat:b:turn-1")
    assert await store.arm_if_missing("combat:b:turn-1", now_ms() + 60_000, {})


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
    async with running(TimerPoller(store, fire, poll_ms=5, lease_ms=200)):
        await eventually(lambda: sorted(fired) == ["a", "b", "flaky"], within=5)
    assert sorted(fired) == ["a", "b", "flaky"]
    assert await store.count() == 0


async def test_a_failed_firing_is_fired_again_after_a_second_not_after_its_lease(
    redis: Redis, namespace: str
) -> None:
    store = timers(redis, namespace)
    attempts: list[int] = []

    async def fire(item: Claimed) -> None:
        attempts.append(now_ms())
        if len(attempts) == 1:
            raise ConnectionError("broker restarting")

    await store.arm("caught", 0, {})
    poller = TimerPoller(store, fire, poll_ms=5, lease_ms=10_000)
    async with running(poller):
        await eventually(lambda: poller.fired == 1, within=5)
    assert len(attempts) == 2
    assert 900 <= attempts[1] - attempts[0] < 5_000  # RETRY_MS, not the 10 s lease
    assert await store.count() == 0


async def test_a_retry_leaves_a_timer_leased_anew_or_acked_meanwhile_alone(
    redis: Redis, namespace: str
) -> None:
    store = timers(redis, namespace)
    await store.arm("t", 0, {})
    (old,) = await store.claim(now_ms(), 100)
    await asyncio.sleep(0.15)
    (new,) = await store.claim(now_ms(), 10_000)  # the first lease ran out: claimed again
    await store.retry_at([old], 1)  # the first firing's failure comes late
    assert await store.due_of("t") == new.lease_ms
    assert await store.ack_all([new]) == [True]
    await store.retry_at([new], 1)
    assert await store.count() == 0


@contextlib.asynccontextmanager
async def running(poller: TimerPoller, release: asyncio.Event | None = None) -> AsyncIterator[None]:
    """The poller's ``run_forever`` for the body, then stopped and awaited (``release`` set
    first, so that firings the test holds can end). Stop between polls and wait for it: a
    task cancelled in the middle of a Redis command leaves its connection to be collected
    unclosed after the loop is gone."""
    stop = asyncio.Event()
    task = asyncio.create_task(poller.run_forever(stop))
    try:
        yield
    finally:
        if release is not None:
            release.set()
        stop.set()
        await asyncio.wait_for(task, timeout=5)


@contextlib.asynccontextmanager
async def polling(store: TimerStore, fired: list[str]) -> AsyncIterator[None]:
    """A poller of 5 ms that records what it fires, stopped (and awaited) after the body."""

    async def fire(item: Claimed) -> None:
        fired.append(item.timer_id)

    async with running(TimerPoller(store, fire, poll_ms=5, lease_ms=2_000)):
        yield


async def run_poller(store: TimerStore, fired: list[str], until: int) -> None:
    async with polling(store, fired):
        await eventually(lambda: len(fired) >= until, within=5)
        await asyncio.sleep(0.05)  # a repeat would show now


async def test_timers_of_many_combats_spread_over_several_slots_and_each_fires_once(
    redis: Redis, namespace: str
) -> None:
    """Issue 16 (Redis Cluster): a service's timers are not all on one slot."""
    store = timers(redis, namespace, DEFAULT_SHARDS)
    combats = [f"combat:c{i}" for i in range(40)]
    await store.apply(
        [ArmTimer(f"{tag}:turn:1", 0, {"tag": tag, "kind": "turn"}) for tag in combats]
    )
    slots = {key_slot(store.keys_of(tag).due.encode()) for tag in combats}
    assert len(slots) == DEFAULT_SHARDS  # every shard got some, each on its own slot
    for tag in combats[:3]:
        assert await redis.zscore(store.keys_of(tag).due, f"{tag}:turn:1") == 0
    fired: list[str] = []
    await run_poller(store, fired, until=len(combats))
    assert sorted(fired) == sorted(f"{tag}:turn:1" for tag in combats)
    assert await store.count() == 0


async def test_a_timer_is_rearmed_and_cancelled_in_the_shard_of_its_combat(
    redis: Redis, namespace: str
) -> None:
    store = timers(redis, namespace, DEFAULT_SHARDS)
    tag = next(f"combat:c{i}" for i in range(50) if shard_of(f"combat:c{i}", DEFAULT_SHARDS))
    payload = {"tag": tag}
    await store.arm("t", 5_000, payload)
    assert await store.arm_if_missing("u", 6_000, payload)
    assert not await store.arm_if_missing("t", 5_000, payload)  # found in its shard
    assert await store.due_of("t", tag) == 5_000
    assert await redis.zcard(store.shards[0].due) == 0  # not in shard 0
    await store.apply([CancelTimer("t", tag)])
    await store.cancel("u")  # without its owner: looked for in every shard
    assert await store.count() == 0


async def test_timers_left_in_the_one_set_layout_still_fire(redis: Redis, namespace: str) -> None:
    """Before the shards a service had one set, ``{timers:<service>}``: it is shard 0, so
    what an older version armed there is claimed and acked after an upgrade."""
    old = timers(redis, namespace, 1)
    await old.apply([ArmTimer(f"combat:c{i}:turn:1", 0, {"tag": f"combat:c{i}"}) for i in range(8)])
    fired: list[str] = []
    await run_poller(timers(redis, namespace, DEFAULT_SHARDS), fired, until=8)
    assert sorted(fired) == sorted(f"combat:c{i}:turn:1" for i in range(8))
    assert await old.count() == 0


async def test_several_fired_timers_are_acked_in_one_round_trip_each_only_if_still_leased(
    redis: Redis, namespace: str
) -> None:
    store = timers(redis, namespace, DEFAULT_SHARDS)
    tags = [f"combat:c{i}" for i in range(8)]
    await store.apply([ArmTimer(f"{tag}:turn:1", 0, {"tag": tag}) for tag in tags])
    claimed = await store.claim(1_000, lease_ms=10_000)
    assert len({c.shard for c in claimed}) > 1
    rearmed = claimed[0]
    await store.apply([ArmTimer(rearmed.timer_id, 50_000, {"tag": tags[0]})])
    acked = await store.ack_all(claimed)
    assert acked == [c is not rearmed for c in claimed]
    assert await store.count() == 1  # only the re-armed one is left
    assert await store.ack_all([]) == []


class CountingStore(TimerStore):
    """A timer store that counts the poller's claims."""

    claims = 0

    async def claim(self, now: int, lease_ms: int, limit: int = 100) -> list[Claimed]:
        self.claims += 1
        return await super().claim(now, lease_ms, limit)


async def test_the_next_due_time_is_read_with_each_claim_leases_included(
    redis: Redis, namespace: str
) -> None:
    store = timers(redis, namespace, DEFAULT_SHARDS)
    await store.claim(1_000, lease_ms=500)
    assert store.next_due_ms is None  # nothing armed
    await store.apply([ArmTimer("combat:a:turn", 3_000, {}), ArmTimer("combat:b:turn", 2_000, {})])
    await store.claim(1_000, lease_ms=500)
    assert store.next_due_ms == 2_000
    (claimed,) = await store.claim(2_500, lease_ms=400)  # b is claimed until 2,900
    assert claimed.timer_id == "combat:b:turn"
    assert store.next_due_ms == 2_900  # the lease runs out before a is due


async def test_an_idle_poller_does_not_ask_redis_a_hundred_times_a_second(
    redis: Redis, namespace: str
) -> None:
    """Issue 15: with nothing due, a poller of 5 ms waits up to IDLE_MS between claims."""
    store = CountingStore(redis, Keys(namespace).timer_shards("turns", 1))
    fired: list[str] = []
    async with polling(store, fired):
        await asyncio.sleep(1.5)
        assert store.claims <= 4  # 300 at one claim every 5 ms
        # A timer this process arms wakes the poller: it fires when due, not a second later.
        armed = asyncio.get_running_loop().time()
        await store.arm("combat:a:turn", now_ms() + 100, {})
        await eventually(lambda: fired == ["combat:a:turn"], within=5)
        assert asyncio.get_running_loop().time() - armed < 0.9
        # One armed by another process (another replica) is claimed within IDLE_MS.
        other = timers(redis, namespace)
        await other.arm("combat:b:turn", now_ms(), {})
        await eventually(lambda: fired == ["combat:a:turn", "combat:b:turn"], within=5)


async def test_wait_armed_ends_when_this_process_arms_a_timer(redis: Redis, namespace: str) -> None:
    store = timers(redis, namespace)
    waiting = asyncio.create_task(store.wait_armed(30))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    await store.apply([CancelTimer("combat:x:turn", "combat:x")])  # a cancel wakes nobody
    await asyncio.sleep(0.05)
    assert not waiting.done()
    # A timer due after the poller wakes anyway wakes nobody: most commits arm one minutes
    # ahead (issue 15: waking for each was 2.7 claims per action in services/turns).
    await store.arm("combat:w:turn", now_ms() + 60_000, {})
    await asyncio.sleep(0.05)
    assert not waiting.done()
    await store.arm("combat:x:turn", now_ms() + 20_000, {})  # before the 30 s are out
    await asyncio.wait_for(waiting, timeout=5)
    # The reconciler's re-arm wakes it too; a re-arm that finds the timer armed does not.
    waiting = asyncio.create_task(store.wait_armed(30))
    await asyncio.sleep(0.05)
    assert not await store.arm_if_missing("combat:x:turn", now_ms(), {})
    assert await store.arm_if_missing("combat:v:turn", now_ms() + 60_000, {})
    await asyncio.sleep(0.05)
    assert not waiting.done()
    assert await store.arm_if_missing("combat:y:turn", now_ms(), {})
    await asyncio.wait_for(waiting, timeout=5)
    # A timer armed while the poller is not asleep (it is claiming) wakes its next sleep.
    await store.arm("combat:z:turn", now_ms() + 60_000, {})
    await asyncio.wait_for(store.wait_armed(30), timeout=5)


async def test_a_poller_claiming_ahead_hands_a_timer_over_before_it_is_due(
    redis: Redis, namespace: str
) -> None:
    """services/turns claims CLAIM_AHEAD_MS early; its ``fire`` waits for the due time
    (tests/integration/test_runtime.py: never early)."""
    store = timers(redis, namespace)
    handed: list[tuple[str, int]] = []

    async def fire(item: Claimed) -> None:
        handed.append((item.timer_id, now_ms()))

    due = now_ms() + 150
    await store.arm("soon", due, {})
    await store.arm("later", due + 5_000, {})
    poller = TimerPoller(store, fire, poll_ms=5, lease_ms=2_000, ahead_ms=200)
    assert await poller.run_once() == 1
    ((timer_id, handed_at),) = handed
    assert timer_id == "soon" and handed_at < due
    assert await store.count() == 1  # acked once fired: only "later" is left
    with pytest.raises(ValueError, match="longer lease"):
        TimerPoller(store, fire, poll_ms=5, lease_ms=200, ahead_ms=200)


async def test_a_poller_goes_on_claiming_while_earlier_timers_still_fire(
    redis: Redis, namespace: str
) -> None:
    """A timer claimed ahead waits for its due time while it fires: the next one due must not
    wait for it to be claimed."""
    store = timers(redis, namespace)
    release = asyncio.Event()
    fired: list[str] = []

    async def fire(item: Claimed) -> None:
        fired.append(item.timer_id)
        if item.timer_id == "slow":
            await release.wait()

    await store.arm("slow", 0, {})
    await store.arm("next", now_ms() + 100, {})
    async with running(TimerPoller(store, fire, poll_ms=5, lease_ms=5_000), release):
        await eventually(lambda: fired == ["slow", "next"], within=5)
    assert await store.count() == 0  # both acked, the slow one once it was done


async def test_a_timer_claimed_again_while_it_still_fires_is_not_fired_twice(
    redis: Redis, namespace: str
) -> None:
    """A firing that outlasts its lease (a flood after a restart, a slow machine): the
    poller's next claims only renew the lease, and the ack carries the newest one."""
    store = timers(redis, namespace)
    release = asyncio.Event()
    fired: list[str] = []

    async def fire(item: Claimed) -> None:
        fired.append(item.timer_id)
        await release.wait()

    await store.arm("slow", 0, {})
    # Leases of 200 ms: shorter ones may run out again during the ack's own round trip on
    # a loaded machine, and a timer whose lease ran out is fired again (by design).
    poller = TimerPoller(store, fire, poll_ms=5, lease_ms=200, give_up_ms=10_000)
    async with running(poller, release):
        await asyncio.sleep(1.0)  # five leases ran out meanwhile
        release.set()
        await eventually(lambda: poller.fired == 1, within=5)
    assert fired == ["slow"]
    assert await store.count() == 0  # acked with the lease of its last claim


async def test_a_firing_that_hangs_is_given_up_and_the_timer_fires_again(
    redis: Redis, namespace: str
) -> None:
    store = timers(redis, namespace)
    fired: list[str] = []

    async def fire(item: Claimed) -> None:
        fired.append(item.timer_id)
        if len(fired) == 1:
            await asyncio.Event().wait()  # a publish that never returns

    await store.arm("hung", 0, {})
    poller = TimerPoller(store, fire, poll_ms=5, lease_ms=200, give_up_ms=600)
    async with running(poller):
        await eventually(lambda: poller.fired == 1, within=5)
    assert fired == ["hung", "hung"]
    assert await store.count() == 0


async def test_a_flood_of_due_timers_is_claimed_as_fast_as_it_fires(
    redis: Redis, namespace: str
) -> None:
    """After a restart thousands are due at once: the poller keeps at most ``batch`` in
    flight and claims the rest as places free up, so none waits out its lease unclaimed
    behind the others (a claim of each shard's 200 earliest, 800 at once, did)."""
    store = timers(redis, namespace, shards=4)
    release = asyncio.Event()
    fired: list[str] = []

    async def fire(item: Claimed) -> None:
        fired.append(item.timer_id)
        await release.wait()

    tags = [f"combat:c{i}" for i in range(40)]
    await store.apply([ArmTimer(f"{tag}:turn-1", 0, {"tag": tag}) for tag in tags])
    assert {shard_of(tag, 4) for tag in tags} == {0, 1, 2, 3}
    poller = TimerPoller(store, fire, poll_ms=5, lease_ms=5_000, batch=8)
    async with running(poller, release):
        await eventually(lambda: len(fired) >= 8, within=5)
        await asyncio.sleep(0.1)
        assert len(fired) == 8  # two of each shard, the rest still due and unclaimed
        release.set()
        await eventually(lambda: poller.fired == 40, within=5)
    assert sorted(fired) == sorted(f"{tag}:turn-1" for tag in tags)
    assert await store.count() == 0
