"""The in-memory store of the chain tests answers as the commit script on the real Redis.

The chain tests (``tests/chain``) trust :class:`tests.support.memory.MemoryStore` to keep the
commit's semantics; each scenario here runs against both stores and must give the same
statuses, versions, states, views, active sets and last logged entries (their envelopes:
the ids are the clock's, Redis's own in one, the commit's in the other).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from redis.asyncio import Redis

from shared.keys import Keys
from shared.outbox_entry import CancelTimer
from shared.runtime.ports import Store
from shared.store import AggregateStore, Commit
from tests.support.memory import MemoryData, MemoryStore

pytestmark = pytest.mark.integration


def commit(version: int, message_id: str, **kw: Any) -> Commit:
    fields: dict[str, Any] = {
        "expected_version": version,
        "state": {"n": version + 1, "nested": {"list": [1, 2]}},
        "message_id": message_id,
        "now_ms": 1_000,
        "outbox": [CancelTimer(f"t{version}")],
        "log": [],
        "view": {"seen": version},
    }
    return Commit(**(fields | kw))


Step = tuple[str, str, Commit, bool | None]  # service, combat, commit, active
SCENARIOS: dict[str, list[Step]] = {
    "commit, then the same message again": [
        ("turns", "c1", commit(0, "m1"), True),
        ("turns", "c1", commit(1, "m1"), True),
    ],
    "a stale state version": [
        ("turns", "c1", commit(0, "m1"), True),
        ("turns", "c1", commit(0, "m2"), True),
    ],
    "If-Match against the version every service bumps": [
        ("turns", "c1", commit(0, "m1"), True),
        ("resolution", "c1", commit(0, "r1"), None),
        ("turns", "c1", commit(1, "m2", if_match=1), True),
        ("turns", "c1", commit(1, "m3", if_match=2), False),
    ],
    "the log, newest first": [
        ("turns", "c1", commit(0, "m1", log=['{"n":1}', '{"n":2}']), True),
        ("turns", "c1", commit(1, "m2", log=['{"n":3}']), True),
        ("turns", "c1", commit(1, "m3", log=['{"n":4}']), True),
    ],
    "no read model, then one": [
        ("states", "c1", commit(0, "s1", view=None), None),
        ("states", "c1", commit(1, "s2"), True),
    ],
}


async def outcomes(make: Callable[[str], Store], keys: Keys, steps: list[Step]) -> list[Any]:
    seen: list[Any] = []
    for service, combat, step, active in steps:
        store = make(service)
        agg = keys.combat(service, combat)
        result = await store.commit(agg, step, active=active)
        loaded = await store.load(agg)
        processed = await store.load_unless_processed(agg, step.message_id) is None
        seen.append((result, loaded, processed, await store.read_view(agg)))
        seen.append([raw for _, raw in await store.last_logged(agg, 2)])
        seen.append(sorted([tag async for tag in store.active_tags()]))
    return seen


@pytest.mark.parametrize("steps", SCENARIOS.values(), ids=SCENARIOS.keys())
async def test_the_memory_store_answers_as_the_commit_script(
    redis: Redis, namespace: str, steps: list[Step]
) -> None:
    keys = Keys(namespace)

    def real(service: str) -> Store:
        dirty, active = keys.outbox_dirty(service), keys.active_combats(service)
        return AggregateStore(redis, dirty_key=dirty, active_key=active)

    data = MemoryData()
    memory = await outcomes(lambda service: MemoryStore(data, service), keys, steps)
    assert await outcomes(real, keys, steps) == memory
