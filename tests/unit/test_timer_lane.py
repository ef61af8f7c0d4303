"""shared/runtime/firing.py: the timer lane hands a fired timer to the service's handling,
one at a time per aggregate in claim order, and falls back to the broker only on a failure
that is not the store or the broker being down."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from shared.keys import Names
from shared.messages import Envelope
from shared.runtime.firing import TimerFiring
from shared.timers import Claimed


class Clock:
    def now_ms(self) -> int:
        return 0

    def utcnow(self) -> datetime:
        return datetime(2026, 1, 1, tzinfo=UTC)


class Broker:
    names = Names("lane")

    def __init__(self) -> None:
        self.sent: list[Envelope] = []

    async def publish_raw(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("nothing is published raw")

    async def publish(self, exchange: str, routing_key: str, env: Envelope) -> None:
        raise AssertionError("nothing is published")

    async def send_command(self, service: str, env: Envelope) -> None:
        self.sent.append(env)


def claimed(timer_id: str, tag: str, due: int) -> Claimed:
    payload = {"kind": "turn", "due_ms": due, "data": {}, "tag": tag, "subject": tag}
    payload |= {"combat_id": tag, "room": "plaza", "tenant": "t1"}
    return Claimed(timer_id, due, payload)


async def test_the_timers_of_one_aggregate_are_handled_one_at_a_time_in_claim_order() -> None:
    seen: list[tuple[str, str]] = []

    async def handle(env: Envelope) -> None:
        seen.append(("start", env.payload["timer_id"]))
        await asyncio.sleep(0.01 if env.payload["timer_id"] == "a1" else 0)
        seen.append(("end", env.payload["timer_id"]))

    lane = TimerFiring("turns", Broker(), Clock(), handle)
    firings = [claimed("a1", "combat:a", 1), claimed("a2", "combat:a", 2)]
    await asyncio.gather(*(lane.fire(c) for c in firings))
    assert seen == [("start", "a1"), ("end", "a1"), ("start", "a2"), ("end", "a2")]


async def test_the_timers_of_different_aggregates_are_handled_together() -> None:
    started: list[str] = []
    release = asyncio.Event()

    async def handle(env: Envelope) -> None:
        started.append(env.payload["timer_id"])
        await release.wait()

    lane = TimerFiring("turns", Broker(), Clock(), handle)
    both = asyncio.gather(
        lane.fire(claimed("a1", "combat:a", 1)), lane.fire(claimed("b1", "combat:b", 1))
    )
    await asyncio.sleep(0.01)
    assert sorted(started) == ["a1", "b1"]
    release.set()
    await both


async def test_the_store_down_goes_back_to_the_poller() -> None:
    async def handle(env: Envelope) -> None:
        raise RedisConnectionError("down")

    broker = Broker()
    with pytest.raises(RedisConnectionError):
        await TimerFiring("turns", broker, Clock(), handle).fire(claimed("a1", "combat:a", 1))
    assert broker.sent == []


async def test_a_failing_handler_hands_the_firing_to_the_partition() -> None:
    async def handle(env: Envelope) -> None:
        raise KeyError("a bug")

    broker = Broker()
    await TimerFiring("turns", broker, Clock(), handle).fire(claimed("a1", "combat:a", 1))
    assert [e.type for e in broker.sent] == ["timer.fired"]
    assert (
        broker.sent[0].message_id
        == TimerFiring("turns", broker, Clock(), handle)
        .command(claimed("a1", "combat:a", 1))
        .message_id
    )
