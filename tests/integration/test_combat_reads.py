"""The gateway's small reads of a combat on the real Redis: its head before an action is
sent, and the record of a sent action."""

from __future__ import annotations

import json

import pytest
from redis.asyncio import Redis

from gateway.routes.actions import read_sent_record, sent_record
from gateway.views import CombatReader
from shared.keys import Keys

pytestmark = pytest.mark.integration


async def test_the_head_is_the_fixed_fields_and_the_current_version(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c_1")
    turns = {"id": "c_1", "tenant": "t1", "room": "plaza", "ruleset": "cypher", "participants": {}}
    await redis.set(agg.view_of("turns"), json.dumps(turns))
    await redis.set(agg.version, 3)
    combats = CombatReader(redis, keys)
    first = await combats.head("c_1", "t1")
    assert first == {"id": "c_1", "room": "plaza", "ruleset": "cypher", "version": 3}
    await redis.set(agg.version, 4)
    await redis.delete(agg.view_of("turns"))  # known now: the version alone is read
    assert await combats.head("c_1", "t1") == {**first, "version": 4}
    assert await combats.head("c_1", "t2") is None  # another community's combat
    await redis.delete(agg.version)  # the combat ended and expired
    assert await combats.head("c_1", "t1") is None
    assert await combats.head("c_unknown", "t1") is None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (sent_record("c_1", 1_764_000_000_123), ("c_1", 1_764_000_000_123)),
        ("c_1", ("c_1", 0)),  # written by an older gateway: the combat alone
        (None, (None, 0)),
    ],
)
def test_a_sent_action_records_its_combat_and_when(
    raw: str | None, expected: tuple[str | None, int]
) -> None:
    assert read_sent_record(raw) == expected
