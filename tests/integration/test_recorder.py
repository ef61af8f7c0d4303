"""The gateway's recorder on the real Redis: a batch of events into the communities'
streams, once each and in order, with what the events fill and the webhooks they go to."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from gateway.recorder import Recorder
from gateway.webhooks.enqueue import Deliveries
from gateway.webhooks.store import WebhookStore
from shared.bus import Bus
from shared.keys import Keys
from shared.messages import Envelope, envelope, new_id
from shared.redis_streams import entries, text

pytestmark = pytest.mark.integration


def event(type_: str, tenant: str, combat_id: str = "c_1", **payload: object) -> Envelope:
    return envelope(
        type_,
        dict(payload),
        message_id=new_id("m"),
        correlation_id=new_id("a"),
        combat_id=combat_id,
        room="plaza",
        tenant=tenant,
    )


async def stream_ids(redis: Redis, keys: Keys, tenant: str) -> list[str]:
    found = entries(await redis.xrange(keys.events_stream(tenant)))
    return [Envelope.model_validate_json(fields["e"]).message_id for _, fields in found]


async def test_a_batch_lands_in_each_community_stream_once_and_in_order(
    redis: Redis, bus: Bus, namespace: str
) -> None:
    keys = Keys(namespace)
    webhooks = WebhookStore(redis, keys, keep_seconds=3600)
    hook = await webhooks.create("t1", "https://example.org/hook", ["turn.*"], None, "bot")
    recorder = Recorder(redis, bus, keys, Deliveries(webhooks))
    batch = [
        event("combat.started", "t1", sheets={"ana": {"name": "Ana"}}, ruleset="umh"),
        event("turn.started", "t2", combat_id="c_2"),
        event("turn.ended", "t1"),
        event("command.rejected", "t1", code="not_your_turn"),
        event("turn.started", "t1"),
    ]
    await recorder.record_many(batch)
    await recorder.record_many(batch[2:])  # the broker redelivered the end of the batch
    await recorder.record_many(batch)  # and the whole of it

    ones = [e.message_id for e in batch if e.tenant == "t1"]
    assert await stream_ids(redis, keys, "t1") == ones
    assert await stream_ids(redis, keys, "t2") == [batch[1].message_id]
    # What the events fill: the combat's names and index, a rejection's outcome.
    assert await redis.hget(keys.combat_names("t1", "c_1"), "ana") == b"Ana"
    assert await redis.zscore(keys.combats_index("t1"), "c_1") is not None
    rejected = await redis.get(keys.outcome("t1", batch[3].correlation_id))
    assert rejected is not None and Envelope.model_validate_json(rejected) == batch[3]
    # The webhook wants t1's turn events: two deliveries, each queued once.
    queued = await redis.zrange(keys.webhook_deliveries("t1", hook.id), 0, -1)
    assert sorted(text(q) for q in queued) == sorted(
        hook.delivery_id(e.message_id) for e in (batch[2], batch[4])
    )


async def test_events_of_a_community_without_webhooks_queue_no_delivery(
    redis: Redis, bus: Bus, namespace: str
) -> None:
    keys = Keys(namespace)
    recorder = Recorder(redis, bus, keys, Deliveries(WebhookStore(redis, keys, keep_seconds=60)))
    first = event("turn.started", "t3")
    await recorder.record_many([first])
    assert await stream_ids(redis, keys, "t3") == [first.message_id]
    assert await redis.keys(f"{namespace}:*webhook*") == []
