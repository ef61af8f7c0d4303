"""Merged publishes on the real broker: every event once, in order; every waiting request
answered from a merged reply (shared/coalesce.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aio_pika
import pytest

from gateway.commands import CommandClient
from shared.bus import Bus
from shared.messages import (
    CMD_COMBAT_ACT,
    EVENTS_BATCH,
    REPLY_BATCH,
    TURN_STARTED,
    Envelope,
    new_id,
    read_envelopes,
    utcnow,
)
from tests.support.wait import eventually

pytestmark = pytest.mark.integration


@pytest.fixture
async def merging(bus: Bus) -> AsyncIterator[Bus]:
    """A second connection to the test's namespace that merges its publishes."""
    other = Bus(
        bus.url,
        namespace=bus.names.ns,
        partitions=bus.partitions,
        delivery_limit=bus.delivery_limit,
        publish_timeout=5.0,
        coalesce=True,
    )
    await other.connect()
    try:
        yield other
    finally:
        await other.close()


def event(n: int, correlation_id: str = "r", *, final: bool = False) -> Envelope:
    return Envelope(
        message_id=new_id("m"),
        type=TURN_STARTED,
        correlation_id=correlation_id,
        room="room",
        tenant="t1",
        occurred_at=utcnow(),
        payload={"n": n},
        final=final,
    )


async def test_concurrent_commits_events_arrive_once_in_order_in_fewer_messages(
    bus: Bus, merging: Bus
) -> None:
    messages: list[tuple[str | None, list[Envelope]]] = []
    queue = await bus.consumer_channel().declare_queue(
        f"{bus.names.ns}.probe", exclusive=True, auto_delete=True
    )
    await queue.bind(bus.names.events(), routing_key="#")

    async def on_message(message: aio_pika.abc.AbstractIncomingMessage) -> None:
        messages.append((message.type, read_envelopes(message.type, message.body)))

    await bus.consume_queue(queue, on_message, no_ack=True)
    sent = [event(n) for n in range(40)]
    await asyncio.gather(*(merging.publish(merging.names.events(), env.type, env) for env in sent))
    await eventually(lambda: sum(len(envs) for _, envs in messages) == 40)
    received = [env.payload["n"] for _, envs in messages for env in envs]
    assert received == list(range(40))
    assert len(messages) < 40
    assert messages[0][0] == TURN_STARTED  # the first went out alone, routed by its type
    assert {type_ for type_, envs in messages if len(envs) > 1} == {EVENTS_BATCH}


async def test_each_waiting_request_is_answered_from_a_merged_reply(bus: Bus, merging: Bus) -> None:
    client = CommandClient(bus, wait_seconds=10)
    await client.start()

    async def ask(n: int) -> list[int]:
        outcome = await client.send(
            CMD_COMBAT_ACT,
            {"n": n},
            tenant="t1",
            room="room",
            combat_id="c1",
            correlation_id=f"r{n}",
            message_id=new_id("m"),
        )
        assert outcome.complete
        return [env.payload["n"] for env in outcome.events]

    asking = [asyncio.create_task(ask(n)) for n in range(8)]
    await eventually(lambda: client.pending == 8)
    replies = [[event(10 * n, f"r{n}"), event(10 * n + 1, f"r{n}", final=True)] for n in range(8)]
    await asyncio.gather(
        *(
            merging.publish_raw(
                "",
                client.reply_queue,
                ("[" + ",".join(e.model_dump_json() for e in envs) + "]").encode(),
                message_id=new_id("m"),
                correlation_id=envs[0].correlation_id,
                type_=REPLY_BATCH,
                mandatory=False,
            )
            for envs in replies
        )
    )
    answered = await asyncio.gather(*asking)
    assert answered == [[10 * n, 10 * n + 1] for n in range(8)]
    assert merging.coalescer is not None and merging.coalescer.merged > 0
