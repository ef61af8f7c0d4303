"""One delivered batch, one load per aggregate (shared/batch_memo.py), on the real broker and
store: the events of a batch start from the state the previous one left, and a commit by
someone else in between, or a batch delivered again, still changes nothing twice. The
batches hold the toy counter's messages of tests/integration/test_runtime.py."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from redis.asyncio import Redis

from shared.batch_memo import one_batch
from shared.bus import Bus
from shared.keys import Keys
from shared.messages import EVENTS_BATCH, Envelope, new_id
from shared.runtime import RedisServiceRuntime
from shared.store import AggregateStore, Loaded
from tests.integration.test_runtime import command, spec
from tests.support.wait import eventually

pytestmark = pytest.mark.integration


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The message ids whose aggregate was loaded from Redis."""
    seen: list[str] = []
    original = AggregateStore.load_unless_processed

    async def counted(self: AggregateStore, agg: Any, message_id: str) -> Loaded | None:
        seen.append(message_id)
        return await original(self, agg, message_id)

    monkeypatch.setattr(AggregateStore, "load_unless_processed", counted)
    yield seen


@pytest.fixture
async def runtime(bus: Bus, redis: Redis, namespace: str) -> RedisServiceRuntime:
    keys = Keys(namespace)
    return RedisServiceRuntime(spec(keys), redis=redis, bus=bus, keys=keys, retention_seconds=60)


async def total(runtime: RedisServiceRuntime, namespace: str, combat_id: str) -> int:
    loaded = await runtime.store.load(Keys(namespace).combat("turns", combat_id))
    assert loaded.data is not None
    return int(loaded.data["total"])


async def handle_batch(runtime: RedisServiceRuntime, batch: list[Envelope]) -> None:
    """What the bus does with one delivered batch (shared/bus.py)."""
    with one_batch(len(batch)):
        for env in batch:
            await runtime.handle(env)


async def test_a_batch_loads_its_aggregate_once_and_commits_each_event(
    runtime: RedisServiceRuntime, namespace: str, loads: list[str]
) -> None:
    await handle_batch(
        runtime, [command("c1", n=1), command("c1", n=2), command("c1", n=0), command("c1", n=4)]
    )
    assert await total(runtime, namespace, "c1") == 7
    assert len(loads) == 1


async def test_each_aggregate_of_a_batch_is_loaded_once(
    runtime: RedisServiceRuntime, namespace: str, loads: list[str]
) -> None:
    batch = [command("c1", n=1), command("c2", n=10), command("c1", n=2), command("c2", n=20)]
    await handle_batch(runtime, batch)
    assert (await total(runtime, namespace, "c1"), await total(runtime, namespace, "c2")) == (3, 30)
    assert loads == [batch[0].message_id, batch[1].message_id]


async def test_outside_a_batch_every_message_loads_its_aggregate(
    runtime: RedisServiceRuntime, namespace: str, loads: list[str]
) -> None:
    for env in [command("c1", n=1), command("c1", n=2)]:
        await runtime.handle(env)
    assert await total(runtime, namespace, "c1") == 3
    assert len(loads) == 2


async def test_a_commit_by_another_handler_between_two_events_is_not_lost(
    runtime: RedisServiceRuntime, namespace: str, loads: list[str]
) -> None:
    first, second = command("c1", n=1), command("c1", n=2)
    with one_batch(2):
        await runtime.handle(first)
        # Another replica (or another partition's message) commits on the same combat.
        with one_batch(1):
            await runtime.handle(command("c1", n=100))
        await runtime.handle(second)
    assert await total(runtime, namespace, "c1") == 103
    # The second event's commit met a newer version: it was reloaded, decided again.
    assert loads.count(second.message_id) == 1


async def test_a_batch_delivered_again_changes_nothing_twice(
    runtime: RedisServiceRuntime, namespace: str, loads: list[str]
) -> None:
    batch = [command("c1", n=1), command("c1", n=2), command("c1", n=4)]
    await handle_batch(runtime, batch[:2])  # the process died before the third and the ack
    await handle_batch(runtime, batch)
    assert await total(runtime, namespace, "c1") == 7
    await handle_batch(runtime, batch)
    assert await total(runtime, namespace, "c1") == 7


async def test_a_batch_through_the_broker_is_handled_with_one_load(
    bus: Bus, runtime: RedisServiceRuntime, namespace: str, loads: list[str]
) -> None:
    batch = [command("c1", n=1), command("c1", n=2), command("c1", n=3)]
    await bus.consume_service("turns", runtime.handle)
    body = ("[" + ",".join(e.model_dump_json() for e in batch) + "]").encode()
    await bus.publish_raw(
        bus.names.commands("turns"), "plaza", body, message_id=new_id("b"), type_=EVENTS_BATCH
    )
    await eventually(lambda: runtime.processed == 3)
    assert await total(runtime, namespace, "c1") == 6
    assert len(loads) == 1
