"""Publishes to a busy events exchange or reply queue go out together (shared/coalesce.py)."""

from __future__ import annotations

import asyncio

import pytest

from shared.bus import Bus, BusUnavailableError
from shared.coalesce import Coalescer, Publication
from shared.messages import EVENTS_BATCH, REPLY_BATCH, Envelope, new_id, read_envelopes, utcnow
from shared.settings import GatewaySettings, ServiceSettings

EVENTS = "ns.events"


class HeldSend:
    """A broker whose confirms wait until the test releases them, one publish at a time."""

    def __init__(self) -> None:
        self.sent: list[Publication] = []
        self.release = asyncio.Event()
        self.fail: BaseException | None = None

    async def __call__(self, item: Publication) -> None:
        self.sent.append(item)
        await self.release.wait()
        if self.fail is not None:
            raise self.fail


def event(n: int, type_: str = "turn.started") -> Envelope:
    return Envelope(
        message_id=new_id("m"),
        type=type_,
        correlation_id=f"r{n}",
        room="room",
        tenant="t1",
        occurred_at=utcnow(),
        payload={"n": n},
    )


def to_events(*envs: Envelope) -> Publication:
    if len(envs) == 1:
        return Publication(
            EVENTS, envs[0].type, envs[0].to_json(), envs[0].message_id, None, envs[0].type, True
        )
    body = ("[" + ",".join(e.model_dump_json() for e in envs) + "]").encode()
    return Publication(EVENTS, EVENTS_BATCH, body, new_id("m"), None, EVENTS_BATCH, True)


def to_reply(queue: str, *envs: Envelope) -> Publication:
    body = ("[" + ",".join(e.model_dump_json() for e in envs) + "]").encode()
    return Publication("", queue, body, new_id("m"), envs[0].correlation_id, REPLY_BATCH, False)


def numbers(item: Publication) -> list[int]:
    return [env.payload["n"] for env in read_envelopes(item.type_, item.body)]


async def started(*publishes: Publication, into: Coalescer) -> list[asyncio.Task[None]]:
    tasks = []
    for item in publishes:
        tasks.append(asyncio.create_task(into.publish(item)))
        await asyncio.sleep(0)  # asked for in this order
    return tasks


async def test_a_publish_to_an_idle_destination_goes_out_alone_and_unchanged() -> None:
    send = HeldSend()
    send.release.set()
    coalescer = Coalescer(send, events=EVENTS)
    item = to_events(event(1))
    await coalescer.publish(item)
    assert send.sent == [item]


async def test_events_asked_for_while_one_is_in_flight_go_out_as_one_batch_in_order() -> None:
    send = HeldSend()
    coalescer = Coalescer(send, events=EVENTS)
    first = to_events(event(1))
    tasks = await started(
        first,
        to_events(event(2)),
        to_events(event(3), event(4)),
        to_events(event(5)),
        into=coalescer,
    )
    assert send.sent == [first]
    assert not any(task.done() for task in tasks)
    send.release.set()
    await asyncio.gather(*tasks)
    assert len(send.sent) == 2
    batch = send.sent[1]
    assert (batch.exchange, batch.routing_key, batch.type_) == (EVENTS, EVENTS_BATCH, EVENTS_BATCH)
    assert batch.mandatory
    assert numbers(batch) == [2, 3, 4, 5]
    assert coalescer.merged == 2


async def test_a_caller_returns_only_once_the_message_carrying_it_is_confirmed() -> None:
    confirms: list[asyncio.Event] = []

    async def send(item: Publication) -> None:
        confirmed = asyncio.Event()
        confirms.append(confirmed)
        await confirmed.wait()

    coalescer = Coalescer(send, events=EVENTS)
    tasks = await started(to_events(event(1)), to_events(event(2)), into=coalescer)
    confirms[0].set()
    await asyncio.sleep(0.01)
    assert tasks[0].done()
    assert not tasks[1].done()  # its batch is out, not yet confirmed
    confirms[1].set()
    await asyncio.gather(*tasks)


async def test_replies_merge_per_queue_and_commands_never_merge() -> None:
    send = HeldSend()
    coalescer = Coalescer(send, events=EVENTS)
    command = Publication("ns.turns.commands", "room", b"{}", "c1", None, "combat.act", True)
    tasks = await started(
        to_reply("gw-a", event(1)),
        to_reply("gw-a", event(2)),
        to_reply("gw-b", event(3)),
        to_reply("gw-a", event(4), event(5)),
        command,
        command,
        into=coalescer,
    )
    # The first reply to each queue and every command went out at once.
    assert [item.routing_key for item in send.sent] == ["gw-a", "gw-b", "room", "room"]
    send.release.set()
    await asyncio.gather(*tasks)
    merged = send.sent[4]
    assert (merged.exchange, merged.routing_key, merged.type_) == ("", "gw-a", REPLY_BATCH)
    assert not merged.mandatory
    assert numbers(merged) == [2, 4, 5]
    # Each reply keeps its own correlation id inside: the gateway answers each request.
    assert [e.correlation_id for e in read_envelopes(merged.type_, merged.body)] == [
        "r2",
        "r4",
        "r5",
    ]


async def test_a_failed_batch_fails_every_caller_it_carried_and_the_next_go_out() -> None:
    send = HeldSend()
    coalescer = Coalescer(send, events=EVENTS)
    tasks = await started(
        to_events(event(1)), to_events(event(2)), to_events(event(3)), into=coalescer
    )
    send.fail = BusUnavailableError("not confirmed")
    send.release.set()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    assert all(isinstance(o, BusUnavailableError) for o in outcomes)
    send.fail = None
    await coalescer.publish(to_events(event(4)))
    assert numbers(send.sent[-1]) == [4]


async def test_a_batch_carries_at_most_its_limit_and_the_rest_follow_in_order() -> None:
    send = HeldSend()
    coalescer = Coalescer(send, events=EVENTS, at_most=2)
    tasks = await started(*(to_events(event(n)) for n in range(1, 6)), into=coalescer)
    send.release.set()
    await asyncio.gather(*tasks)
    assert [numbers(item) for item in send.sent] == [[1], [2, 3], [4, 5]]


async def test_a_cancelled_caller_does_not_hold_back_the_others() -> None:
    send = HeldSend()
    coalescer = Coalescer(send, events=EVENTS)
    tasks = await started(
        to_events(event(1)), to_events(event(2)), to_events(event(3)), into=coalescer
    )
    tasks[1].cancel()
    send.release.set()
    await asyncio.gather(tasks[0], tasks[2])
    with pytest.raises(asyncio.CancelledError):
        await tasks[1]
    assert numbers(send.sent[1]) == [2, 3]  # already asked for: at least once
    await coalescer.close()


def test_merging_is_on_by_default_and_off_while_a_service_sends_no_batches() -> None:
    """deploy/README.md "Upgrading to event batches": merged publishes are batches."""
    assert Bus.from_settings(ServiceSettings()).coalescer is not None
    assert Bus.from_settings(GatewaySettings()).coalescer is not None
    assert Bus.from_settings(ServiceSettings(referee_event_batches=False)).coalescer is None
    assert Bus.from_settings(GatewaySettings(referee_coalesce_publishes=False)).coalescer is None
