"""The service runtime on the real broker and store, with a tiny fake service plugged in."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import aio_pika
import pytest
from prometheus_client import REGISTRY
from redis.asyncio import Redis
from structlog.testing import capture_logs

from shared.bus import Bus
from shared.domain import Decision, TimerRequest
from shared.errors import RuleViolation
from shared.keys import Keys
from shared.messages import Envelope, Event, derived_id, new_id, read_envelopes, utcnow
from shared.outbox import LOCK_MS, OutboxRelay
from shared.runtime import RedisServiceRuntime, ServiceSpec, State, Target
from shared.timer_poller import CLAIM_AHEAD_MS
from shared.timers import now_ms
from tests.support.wait import eventually

pytestmark = pytest.mark.integration


def counter(env: Envelope, state: State | None, target: Target, now: int) -> Decision[State]:
    """+n; a negative n breaks a rule; "arm" arms a timer due now (or ``in_ms`` later)."""
    n = int(env.payload.get("n", 0))
    if n < 0:
        raise RuleViolation("not_your_turn", "umh 2.4.1", n=n)
    total = (state or {}).get("total", 0) + n
    new = {
        "id": target.subject,
        "room": env.room,
        "tenant": env.tenant,
        "total": total,
        "timers": dict((state or {}).get("timers", {})),
    }
    arm: list[TimerRequest] = []
    if env.payload.get("arm"):
        due = now + int(env.payload.get("in_ms", 0))
        arm.append(TimerRequest(f"{target.subject}:t1", due, "turn", {"n": 1}))
        new["timers"][f"{target.subject}:t1"] = {"due_ms": due, "kind": "turn"}
    return Decision(new, [Event("turn.resumed", {"total": total})], arm=arm)


def spec(keys: Keys) -> ServiceSpec:
    return ServiceSpec(
        name="turns",
        handlers={"combat.act": counter, "timer.fired": counter},
        targets=lambda env: [
            Target(keys.combat("turns", env.combat_id or "c"), env.combat_id or "c")
        ],
        view=lambda state, now: {"total": state["total"]},
        is_active=lambda state: True,
        armed_timers=lambda state: [
            TimerRequest(tid, int(t["due_ms"]), t["kind"]) for tid, t in state["timers"].items()
        ],
        expires=lambda state: False,
    )


def command(combat_id: str, *, reply_to: str | None = None, **payload: Any) -> Envelope:
    return Envelope(
        message_id=new_id("m"),
        type="combat.act",
        correlation_id=new_id("r"),
        combat_id=combat_id,
        room="plaza",
        tenant="t1",
        occurred_at=utcnow(),
        reply_to=reply_to,
        payload=payload,
    )


@pytest.fixture
async def runtime(bus: Bus, redis: Redis, namespace: str) -> RedisServiceRuntime:
    keys = Keys(namespace)
    return RedisServiceRuntime(spec(keys), redis=redis, bus=bus, keys=keys, retention_seconds=60)


@pytest.fixture
async def events(bus: Bus) -> AsyncIterator[list[Envelope]]:
    """Everything published on the namespace's events exchange."""
    seen: list[Envelope] = []
    queue = await bus.consumer_channel().declare_queue(
        f"{bus.names.ns}.probe", exclusive=True, auto_delete=True
    )
    await queue.bind(bus.names.events(), routing_key="#")

    async def on_event(message: aio_pika.abc.AbstractIncomingMessage) -> None:
        seen.extend(read_envelopes(message.type, message.body))

    await bus.consume_queue(queue, on_event, no_ack=True)
    yield seen


async def test_a_command_is_committed_then_its_events_published(
    runtime: RedisServiceRuntime, events: list[Envelope]
) -> None:
    cmd = command("c1", n=5)
    await runtime.handle(cmd)
    await eventually(lambda: len(events) == 1)
    assert events[0].type == "turn.resumed" and events[0].payload == {"total": 5}
    assert events[0].causation_id == cmd.message_id
    assert events[0].correlation_id == cmd.correlation_id and events[0].final


async def test_a_commit_carries_out_its_own_entries_and_leaves_the_outbox_clean(
    runtime: RedisServiceRuntime, events: list[Envelope], redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    await runtime.handle(command("c1", n=2))
    await runtime.handle(command("c1", n=3))
    await eventually(lambda: len(events) == 2)
    assert [e.payload["total"] for e in events] == [2, 5]
    assert await redis.exists(agg.outbox, agg.lock) == 0  # an empty outbox takes no memory
    assert await redis.zscore(keys.outbox_dirty("turns"), agg.outbox) is None
    assert runtime.relay.published == 2


async def test_a_commit_behind_older_entries_flushes_them_first_in_order(
    runtime: RedisServiceRuntime, events: list[Envelope], redis: Redis, namespace: str
) -> None:
    agg = Keys(namespace).combat("turns", "c1")
    target = Target(agg, "c1")
    left = command("c1", n=3)
    decision = counter(left, None, target, 1)
    result = await runtime.store.commit(
        agg, runtime.commits.build(left, target, 0, decision, 1, utcnow())
    )
    await redis.delete(agg.lock)  # a process died after this commit; its lock ran out
    assert result.claim is not None
    await runtime.handle(command("c1", n=4))
    await eventually(lambda: len(events) == 2)
    assert [e.payload["total"] for e in events] == [3, 7]
    assert await redis.xlen(agg.outbox) == 0


async def test_a_redelivered_command_changes_nothing_twice(
    runtime: RedisServiceRuntime, events: list[Envelope], redis: Redis, namespace: str
) -> None:
    cmd = command("c1", n=5)
    await runtime.handle(cmd)
    await runtime.handle(cmd)
    await runtime.handle(command("c1", n=1))
    await eventually(lambda: len(events) == 2)
    assert [e.payload["total"] for e in events] == [5, 6]
    loaded = await runtime.store.load(Keys(namespace).combat("turns", "c1"))
    assert loaded.data is not None and loaded.data["total"] == 6


async def test_a_rule_violation_commits_nothing_and_answers_rejected(
    runtime: RedisServiceRuntime, events: list[Envelope], namespace: str
) -> None:
    await runtime.handle(command("c1", n=-1))
    await eventually(lambda: len(events) == 1)
    assert events[0].type == "command.rejected"
    assert events[0].payload["code"] == "not_your_turn"
    assert events[0].payload["rule"] == "umh 2.4.1"
    assert (await runtime.store.load(Keys(namespace).combat("turns", "c1"))).data is None


async def test_a_stale_if_match_is_rejected_as_version_mismatch(
    runtime: RedisServiceRuntime, events: list[Envelope]
) -> None:
    await runtime.handle(command("c1", n=1))
    await runtime.handle(command("c1", n=1, if_match=0))
    await eventually(lambda: len(events) == 2)
    assert events[1].payload["code"] == "version_mismatch"
    assert events[1].payload["details"] == {"expected": 0, "actual": 1}


async def test_a_stale_if_match_is_checked_before_the_rules(
    runtime: RedisServiceRuntime, events: list[Envelope]
) -> None:
    """docs/DESIGN.md step 3: a command that the rules would refuse and whose If-Match is
    stale is a version mismatch (the loser of a race), not the rule's code."""
    await runtime.handle(command("c1", n=1))
    await runtime.handle(command("c1", n=-1, if_match=0))
    await eventually(lambda: len(events) == 2)
    assert events[1].payload["code"] == "version_mismatch"
    assert events[1].payload["details"] == {"expected": 0, "actual": 1}


async def test_a_timer_armed_by_a_commit_fires_once_as_a_command(
    runtime: RedisServiceRuntime, bus: Bus
) -> None:
    fired: list[Envelope] = []

    async def on_command(env: Envelope) -> None:
        if env.type == "timer.fired":
            fired.append(env)

    await bus.consume_service("turns", on_command)
    await runtime.handle(command("c1", n=1, arm=True))
    assert await runtime.timers.count() == 1
    for claimed in await runtime.timers.claim(2**42, lease_ms=1000):
        await runtime.fire_timer(claimed)
        await runtime.fire_timer(claimed)  # a poller that fired twice
        await runtime.timers.ack(claimed)
    await eventually(lambda: len(fired) == 2)
    assert fired[0].message_id == fired[1].message_id  # so the second one is deduplicated
    assert fired[0].payload["timer_id"] == "c1:t1"


async def lane_runtime(
    bus: Bus, redis: Redis, namespace: str
) -> tuple[RedisServiceRuntime, list[Envelope]]:
    """The tiny service with ``timer_lane`` (as services/turns), and what reaches its
    partition (``timer.fired`` commands sent through it instead of applied at once)."""
    keys = Keys(namespace)
    lane = dataclasses.replace(spec(keys), timer_lane=True)
    runtime = RedisServiceRuntime(lane, redis=redis, bus=bus, keys=keys, retention_seconds=60)
    partition: list[Envelope] = []

    async def on_command(env: Envelope) -> None:
        partition.append(env)

    await bus.consume_service("turns", on_command)
    return runtime, partition


async def test_a_lane_timer_claimed_ahead_is_applied_in_process_once_and_never_early(
    bus: Bus, redis: Redis, namespace: str, events: list[Envelope]
) -> None:
    runtime, partition = await lane_runtime(bus, redis, namespace)
    await runtime.handle(command("c1", n=1, arm=True, in_ms=150))
    (claimed,) = await runtime.timers.claim(now_ms() + CLAIM_AHEAD_MS, lease_ms=2_000)
    due = claimed.payload["due_ms"]
    assert now_ms() < due  # claimed before it is due
    await runtime.fire_timer(claimed)
    await runtime.fire_timer(claimed)  # a poller that fired twice: a duplicate
    await eventually(lambda: len(events) == 2)
    timed = events[1]
    assert timed.causation_id == derived_id("m", "turns", "timer", "c1:t1", str(due))
    assert timed.occurred_at.timestamp() * 1000 >= due
    await asyncio.sleep(0.2)
    assert partition == [] and len(events) == 2


async def test_a_lane_timer_due_while_a_command_is_queued_goes_through_the_partition(
    bus: Bus, redis: Redis, namespace: str, events: list[Envelope]
) -> None:
    runtime, partition = await lane_runtime(bus, redis, namespace)
    await runtime.handle(command("c1", n=1, arm=True))
    queued = Keys(namespace).combat("turns", "c1").queued
    await redis.zadd(queued, {"m_accepted": now_ms()})  # as the gateway, before it sends
    (claimed,) = await runtime.timers.claim(now_ms(), lease_ms=2_000)
    await runtime.fire_timer(claimed)
    await eventually(lambda: [e.type for e in partition] == ["timer.fired"])
    assert len(events) == 1  # not applied: it waits behind the queued command
    assert await redis.zrange(queued, 0, -1) == [b"m_accepted", partition[0].message_id.encode()]
    await runtime.handle(partition[0])  # the partition's consumer handles it: it leaves the set
    assert await redis.zrange(queued, 0, -1) == [b"m_accepted"]
    await eventually(lambda: len(events) == 2)


async def test_a_lane_timer_whose_application_fails_in_process_goes_through_the_partition(
    bus: Bus, redis: Redis, namespace: str, events: list[Envelope]
) -> None:
    """Applying it in the poller's process failed (Redis hiccup, a bug): the partition's
    consumer applies it as any command, rather than its lease running out first."""

    async def broken(env: Envelope, preloaded: object) -> bool:
        raise ConnectionError("lost in the middle")

    runtime, partition = await lane_runtime(bus, redis, namespace)
    await runtime.handle(command("c1", n=1, arm=True))
    (claimed,) = await runtime.timers.claim(now_ms(), lease_ms=2_000)
    runtime.firing._apply = broken
    await runtime.fire_timer(claimed)
    await eventually(lambda: [e.type for e in partition] == ["timer.fired"])
    assert len(events) == 1  # not applied yet
    await runtime.handle(partition[0])
    await eventually(lambda: len(events) == 2)
    assert events[1].causation_id == partition[0].message_id


async def test_the_sweeper_publishes_what_a_dead_process_left_in_its_outbox(
    runtime: RedisServiceRuntime, events: list[Envelope], redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    target = Target(agg, "c1")
    cmd = command("c1", n=3)
    decision = counter(cmd, None, target, 1)
    result = await runtime.store.commit(
        agg, runtime.commits.build(cmd, target, 0, decision, 1, utcnow())
    )
    # ... and the process died here, before carrying out the entries it claimed; the sweeper
    # takes the outbox once the claim's lock ran out (LOCK_MS, 3 s: a turn of 5 s armed by
    # that commit still fires on time).
    assert result.claim is not None and await runtime.relay.sweep_once(older_than_ms=0) == 0
    assert events == []
    assert 0 < await redis.pttl(agg.lock) <= LOCK_MS <= 3000
    async with asyncio.timeout(LOCK_MS / 1000 + 2):
        while await runtime.relay.sweep_once(older_than_ms=0) == 0:  # noqa: ASYNC110 - polls Redis
            await asyncio.sleep(0.05)
    await eventually(lambda: [e.payload for e in events] == [{"total": 3}])
    assert await redis.xlen(agg.outbox) == 0
    assert await redis.zscore(keys.outbox_dirty("turns"), agg.outbox) is None


class SlowBus:
    """A publisher whose every publish takes ``seconds`` (a broker slow to confirm)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.published: list[str] = []

    async def publish_raw(self, exchange: str, routing_key: str, body: bytes, **kw: Any) -> None:
        await asyncio.sleep(self.seconds)
        self.published.append(str(kw["message_id"]))


class NoTimers:
    async def apply(self, ops: Any) -> None:
        return None


async def test_a_flusher_keeps_the_outbox_locked_while_it_works_past_the_lock(
    runtime: RedisServiceRuntime, redis: Redis, namespace: str
) -> None:
    """A carry-out longer than the lock's life extends it: no second flusher runs beside
    it (which could reorder entries), and it releases the lock when done."""
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    cmd = command("c1", n=2)
    target = Target(agg, "c1")
    await runtime.store.commit(
        agg, runtime.commits.build(cmd, target, 0, counter(cmd, None, target, 1), 1, utcnow())
    )
    await redis.delete(agg.lock)  # as if the committer's lock ran out
    slow, other = SlowBus(1.0), SlowBus(0.0)
    dirty = keys.outbox_dirty("turns")
    first = OutboxRelay(redis, slow, NoTimers(), dirty_key=dirty, lock_ms=300)
    second = OutboxRelay(redis, other, NoTimers(), dirty_key=dirty, lock_ms=300)
    flushing = asyncio.ensure_future(first.flush(agg.outbox))
    await asyncio.sleep(0.7)  # past twice the lock's life
    assert await second.flush(agg.outbox) == 0
    assert await flushing == 1
    assert (len(slow.published), other.published) == (1, [])
    assert await redis.exists(agg.lock) == 0


async def test_the_reconciler_rearms_a_timer_the_store_lost(
    runtime: RedisServiceRuntime, redis: Redis, namespace: str
) -> None:
    await runtime.handle(command("c1", n=1, arm=True))
    for keys in runtime.timers.shards:  # lost (say, a Redis restart without AOF)
        await redis.delete(*keys.all)
    with capture_logs() as logs:
        assert await runtime.reconcile_once() == 1
    assert await runtime.timers.due_of("c1:t1") is not None
    (warned,) = [e for e in logs if e["event"] == "timers_rearmed_by_reconciler"]
    assert warned["timer_ids"] == ["c1:t1"]
    # How late it was, and whether its outbox still held anything (here: nothing).
    ((why,),) = [warned["outboxes"]]
    assert why.startswith("c1:t1: due ") and why.endswith("outbox 0 entries, lock -2 ms")
    assert await runtime.reconcile_once() == 0


async def test_each_outcome_is_counted_for_the_metrics(runtime: RedisServiceRuntime) -> None:
    def count(outcome: str) -> float:
        labels = {"service": "turns", "type": "combat.act", "outcome": outcome}
        return REGISTRY.get_sample_value("referee_messages_total", labels) or 0.0

    before = {o: count(o) for o in ("committed", "duplicate", "rejected")}
    cmd = command("c1", n=1)
    await runtime.handle(cmd)
    await runtime.handle(cmd)
    await runtime.handle(command("c1", n=-1))
    assert {o: count(o) - before[o] for o in before} == {
        "committed": 1,
        "duplicate": 1,
        "rejected": 1,
    }


async def test_entries_committed_while_a_commit_carried_its_own_are_carried_out_after_it(
    runtime: RedisServiceRuntime, events: list[Envelope], redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    target = Target(agg, "c1")
    first = command("c1", n=1)
    claimed = await runtime.store.commit(
        agg, runtime.commits.build(first, target, 0, counter(first, None, target, 1), 1, utcnow())
    )
    assert claimed.claim is not None
    # Another commit lands while the first one still holds the outbox: its flush finds the
    # lock taken and leaves its entries.
    second = command("c1", n=2)
    state = {"id": "c1", "room": "plaza", "tenant": "t1", "total": 1, "timers": {}}
    decision = counter(second, state, target, 1)
    behind = await runtime.store.commit(
        agg, runtime.commits.build(second, target, 1, decision, 1, utcnow())
    )
    assert behind.claim is None and await runtime.relay.flush(agg.outbox) == 0
    entries = runtime.commits.build(first, target, 0, counter(first, None, target, 1), 1, utcnow())
    assert await runtime.relay.carry_claimed(claimed.claim, entries.outbox) == 2
    await eventually(lambda: len(events) == 2)
    assert [e.payload["total"] for e in events] == [1, 3]
    assert await redis.xlen(agg.outbox) == 0
    assert await redis.zscore(keys.outbox_dirty("turns"), agg.outbox) is None
