"""The messages queued for an aggregate (``Aggregate.queued``), which a fired timer of
services/turns must not overtake (shared/runtime/firing.py), on the real Redis and in the
chain's in-memory store alike: the gateway queues an action, a timer's commit applies it
only when nothing is queued (else the timer joins the queued ones), and every way a message
is handled removes it, but a conflict."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from redis.asyncio import Redis

from shared.keys import Aggregate, Keys
from shared.runtime.ports import Store
from shared.store import QUEUED_TTL_MS, AggregateStore, Commit, CommitStatus
from tests.support.memory import MemoryData, MemoryStore

pytestmark = pytest.mark.integration


def commit(version: int, message_id: str, **kw: Any) -> Commit:
    fields: dict[str, Any] = {
        "expected_version": version,
        "state": {"n": version + 1},
        "message_id": message_id,
        "now_ms": 1_000,
        "outbox": [],
        "log": [],
    }
    return Commit(**(fields | kw))


def timer(version: int, message_id: str, at: int) -> Commit:
    """A fired timer's commit, applied at once at ``at`` (shared/runtime/firing.py)."""
    return commit(version, message_id, now_ms=at, unless_queued=True)


# (what, message id, a commit or a time): "accept" is the gateway queueing an action at a
# time; "commit" a commit (a timer's or a message's); "seen" the load of a message processed
# already and "settle" a message handled without a commit.
Step = tuple[str, str, Commit | int]
OK, QUEUED = CommitStatus.OK, CommitStatus.QUEUED
SCENARIOS: dict[str, tuple[list[Step], list[Any]]] = {
    "nothing queued: the timer is applied at once": (
        [("commit", "t1", timer(0, "t1", 1_000))],
        [OK],
    ),
    "an action queued: timers join it until each is handled": (
        [
            ("accept", "m1", 900),
            ("commit", "t1", timer(0, "t1", 1_000)),
            ("commit", "m1", commit(0, "m1")),
            ("commit", "t2", timer(1, "t2", 1_100)),  # behind t1, still queued
            ("settle", "t1", 0),
            ("settle", "t2", 0),
            ("commit", "t3", timer(1, "t3", 1_200)),
        ],
        [QUEUED, OK, QUEUED, OK],
    ),
    "a conflict keeps an action queued; its commit, or a redelivery seen, removes it": (
        [
            ("accept", "m1", 900),
            ("commit", "m0", commit(0, "m0")),
            ("commit", "m1", commit(0, "m1")),  # conflict: retried, still queued
            ("commit", "t1", timer(1, "t1", 1_000)),
            ("commit", "m1", commit(1, "m1")),
            ("settle", "t1", 0),
            ("accept", "m1", 1_100),  # the same action sent again by a retry
            ("seen", "m1", 0),
            ("commit", "t2", timer(2, "t2", 1_200)),
        ],
        [OK, CommitStatus.CONFLICT, QUEUED, OK, None, OK],
    ),
    "an action refused by its If-Match is no longer queued": (
        [
            ("accept", "m1", 900),
            ("commit", "m1", commit(0, "m1", if_match=7)),
            ("commit", "t1", timer(0, "t1", 1_000)),
        ],
        [CommitStatus.PRECONDITION, OK],
    ),
    "an action queued an hour ago no longer holds timers back": (
        [("accept", "m1", 1_000), ("commit", "t1", timer(0, "t1", 1_000 + QUEUED_TTL_MS))],
        [OK],
    ),
    "a timer applied and fired again is a duplicate, not queued": (
        [
            ("commit", "t1", timer(0, "t1", 1_000)),
            ("accept", "m1", 1_100),
            ("commit", "t1", timer(1, "t1", 1_200)),
            ("commit", "m1", commit(1, "m1")),
        ],
        [OK, CommitStatus.DUPLICATE, OK],
    ),
}


async def outcomes(
    store: Store, accept: Callable[[Aggregate, str, int], Any], agg: Aggregate, steps: list[Step]
) -> list[Any]:
    seen: list[Any] = []
    for what, message_id, arg in steps:
        if what == "accept":
            assert isinstance(arg, int)
            await accept(agg, message_id, arg)
        elif what == "commit":
            assert isinstance(arg, Commit)
            seen.append((await store.commit(agg, arg)).status)
        elif what == "seen":
            seen.append(await store.load_unless_processed(agg, message_id))
        else:
            await store.settle(agg, message_id)
    return seen


@pytest.mark.parametrize("name", SCENARIOS)
async def test_a_timer_is_applied_at_once_only_when_nothing_is_queued_for_its_combat(
    redis: Redis, namespace: str, name: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c1")
    real = AggregateStore(redis, dirty_key=keys.outbox_dirty("turns"))

    async def accept_real(agg: Aggregate, message_id: str, at: int) -> None:
        await redis.zadd(agg.queued, {message_id: at})  # as gateway/views.py head_and_mark

    data = MemoryData()
    memory = MemoryStore(data, "turns")

    async def accept_memory(agg: Aggregate, message_id: str, at: int) -> None:
        data.queued[agg.queued][message_id] = at  # as tests/support/chain.py send

    steps, expected = SCENARIOS[name]
    assert await outcomes(real, accept_real, agg, steps) == expected
    assert await outcomes(memory, accept_memory, keys.combat("turns", "c2"), steps) == expected
    # Whatever was queued was handled: nothing is left behind.
    assert await redis.zcard(agg.queued) == 0
    assert not data.queued[keys.combat("turns", "c2").queued]
