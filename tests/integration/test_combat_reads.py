"""The gateway's small reads of a combat on the real Redis: its head before an action is
sent, and the record of a sent action."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest
from redis.asyncio import Redis

from gateway.routes.actions import read_sent_record, sent_record
from gateway.views import ActionMark, CombatReader
from shared.keys import Keys
from shared.redis_streams import text
from shared.store import QUEUED_TTL_MS

pytestmark = pytest.mark.integration


async def store_turns_view(
    redis: Redis, keys: Keys, turns: Mapping[str, object], version: int
) -> None:
    """What services/turns' commit leaves for the gateway: its view and the combat version."""
    agg = keys.combat("turns", str(turns["id"]))
    await redis.set(agg.view_of("turns"), json.dumps(turns))
    await redis.set(agg.version, version)


async def test_the_head_is_the_fixed_fields_and_the_current_version(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c_1")
    turns = {"id": "c_1", "tenant": "t1", "room": "plaza", "ruleset": "cypher", "participants": {}}
    await store_turns_view(redis, keys, turns, 3)
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


async def test_an_action_reads_the_head_keeps_its_sent_record_and_queues_it_in_one_go(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c_2")
    turns = {"id": "c_2", "tenant": "t1", "room": "plaza", "ruleset": "umh", "participants": {}}
    await store_turns_view(redis, keys, turns, 7)
    logged = text(await redis.xadd(agg.log, {"e": "{}"}))
    combats = CombatReader(redis, keys)

    def mark(action: str, tenant: str = "t1") -> ActionMark:
        return ActionMark(keys.action_sent(tenant, action), f"c_2 {action}", 60, f"m_{action}", 5)

    # Not known to this process yet: the view is read, then the record kept.
    combat, after = await combats.head_and_mark("c_2", "t1", mark("a_1"))
    assert combat == {"id": "c_2", "room": "plaza", "ruleset": "umh", "version": 7}
    assert after == logged
    assert await redis.get(keys.action_sent("t1", "a_1")) == b"c_2 a_1"
    # Known now: the version, the record, the queued command and the log's newest entry in
    # one round trip.
    await redis.set(agg.version, 8)
    combat, after = await combats.head_and_mark("c_2", "t1", mark("a_2"))
    assert combat == {"id": "c_2", "room": "plaza", "ruleset": "umh", "version": 8}
    assert (after, await redis.get(keys.action_sent("t1", "a_2"))) == (logged, b"c_2 a_2")
    assert await redis.zrange(agg.queued, 0, -1) == [b"m_a_1", b"m_a_2"]
    assert 0 < await redis.pttl(agg.queued) <= QUEUED_TTL_MS
    # Refused or never sent: neither pollable nor queued.
    await combats.unmark("c_2", mark("a_2"))
    assert await redis.exists(keys.action_sent("t1", "a_2")) == 0
    assert await redis.zrange(agg.queued, 0, -1) == [b"m_a_1"]
    # Another community's combat, or one expired: not found, and nothing is kept.
    assert await combats.head_and_mark("c_2", "t2", mark("a_3", "t2")) == (None, "0-0")
    await redis.delete(agg.version)
    assert await combats.head_and_mark("c_2", "t1", mark("a_4")) == (None, "0-0")
    gone = [keys.action_sent("t2", "a_3"), keys.action_sent("t1", "a_4")]
    assert await redis.exists(*gone) == 0
    assert await redis.zrange(agg.queued, 0, -1) == [b"m_a_1"]


async def test_an_answer_reads_the_view_with_the_settings_and_names_that_tell_it(
    redis: Redis, namespace: str
) -> None:
    keys = Keys(namespace)
    agg = keys.combat("turns", "c_3")
    turns = {"id": "c_3", "tenant": "t1", "room": "plaza", "participants": {"ana": {"pa": 2}}}
    resolution = {"participants": {"ana": {"vit": 9, "vit_max": 10, "effects": []}}}
    await store_turns_view(redis, keys, turns, 5)
    await redis.set(agg.view_of("resolution"), json.dumps(resolution))
    await redis.set(keys.settings("t1"), json.dumps({"language": "en"}))
    await redis.hset(keys.combat_names("t1", "c_3"), "ana", "Ana")
    combats = CombatReader(redis, keys)
    view, settings, names = await combats.view_to_tell("c_3", "t1")
    assert view == await combats.view("c_3", "t1")
    assert view is not None and view["version"] == 5
    assert view["participants"]["ana"] == {"pa": 2, "vit": 9, "vit_max": 10, "effects": []}
    assert json.loads(settings) == {"language": "en"}
    assert names == {b"ana": b"Ana"}
    assert (await combats.view_to_tell("c_3", "t2"))[0] is None  # another community's
