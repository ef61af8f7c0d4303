"""The fault scenarios (issue 7). Each one plays combats under load while its fault hits,
lets the suite settle, and returns the checker's figures plus the recovery times."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aio_pika
from redis.asyncio import Redis

from shared.keys import Keys, Names
from shared.messages import Envelope, new_id, utcnow
from tests.chaos.check import Figures, check
from tests.chaos.load import (
    PATIENCE_S,
    Community,
    Player,
    Record,
    new_community,
    send,
    start_combat,
)
from tests.chaos.stack import Stack
from tests.support.suite import Suite

JSON = dict[str, Any]
PLAY_TIMERS = {"preparation_seconds": 1, "turn_seconds": 5, "defense_seconds": 3}
"""Short timers: windows and turns left to run out fall due under every fault."""


@dataclass
class Outcome:
    name: str
    figures: Figures
    recoveries: list[float] = field(default_factory=list)
    redeliveries: int = 0
    notes: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> JSON:
        return {
            "scenario": self.name,
            **self.figures.as_dict(),
            "recovery_seconds": [round(r, 2) for r in self.recoveries],
            "redeliveries": self.redeliveries,
            **self.notes,
        }


Fault = Callable[[Stack], Awaitable[None]]


async def settle(community: Community, record: Record, within: float = 90) -> None:
    """Wait until every 202 is decided; a 202 later rejected was not applied (not lost)."""
    deadline = time.monotonic() + within
    for attempt in record.attempts:
        if attempt.status != 202 or not attempt.action_id:
            continue
        while time.monotonic() < deadline:
            answer = await send(
                community.client,
                record,
                "GET",
                f"/v1/combats/{attempt.combat_id}/actions/{attempt.action_id}",
            )
            status = answer.json().get("status") if answer is not None else None
            if status == "completed":
                break
            if status == "rejected":
                attempt.status = 422
                break
            await asyncio.sleep(0.5)


async def start_combats(
    community: Community, record: Record, n: int, *, at_once: int = 40
) -> list[str]:
    gate = asyncio.Semaphore(at_once)

    async def one(i: int) -> str | None:
        async with gate:
            return await start_combat(community, record, i)

    made = await asyncio.gather(*(one(i) for i in range(n)))
    return [c for c in made if c]


async def fighting(community: Community, record: Record, ids: list[str], within: float) -> None:
    """Wait until every combat is past its preparation round."""
    deadline = time.monotonic() + within
    waiting = set(ids)
    while waiting and time.monotonic() < deadline:
        for combat_id in list(waiting):
            answer = await send(community.client, record, "GET", f"/v1/combats/{combat_id}")
            if answer is not None and answer.json().get("phase") in ("fighting", "ended"):
                waiting.discard(combat_id)
        if waiting:
            await asyncio.sleep(0.5)


async def overdue_combats(
    suite: Suite, combats: int, turn_seconds: int
) -> tuple[Community, Record, list[str]]:
    """A community of ``combats`` combats, each past its preparation round with a turn
    timer due ``turn_seconds`` after its turn started; nobody acts in them."""
    timers = {"preparation_seconds": 1, "turn_seconds": turn_seconds, "defense_seconds": 600}
    community = await new_community(suite.base_url, suite.admin_token, timers)
    record = Record()
    ids = await start_combats(community, record, combats)
    await fighting(community, record, ids, 180)
    return community, record, ids


async def down_for(suite: Suite, service: str, seconds: float) -> tuple[float, float]:
    """kill -9 ``service``, leave it dead ``seconds``, start it again: (killed, restarted),
    Unix seconds; ``restarted`` is when the new process was spawned."""
    killed = time.time()
    await asyncio.to_thread(suite.kill, service)
    await asyncio.sleep(seconds)
    await asyncio.to_thread(suite.restart, service)
    return killed, time.time()


async def played(
    stack: Stack, name: str, *, combats: int, seconds: float, fault: Fault, fault_at: float
) -> Outcome:
    """Play ``combats`` for ``seconds``; at ``fault_at`` s into it, run ``fault``."""
    suite = stack.suite
    community = await new_community(suite.base_url, suite.admin_token, PLAY_TIMERS)
    record = Record()
    ids = await start_combats(community, record, combats)
    stop = asyncio.Event()
    players = [asyncio.create_task(player(community, record, c).play(stop)) for c in ids]
    await asyncio.sleep(fault_at)
    first_fault, redelivered, held = len(stack.faults), stack.redeliveries(), stack.held()
    stack.target = ids[0] if ids else None
    await fault(stack)
    await asyncio.sleep(max(0.0, seconds - fault_at))
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    await settle(community, record)
    faults = stack.faults[first_fault:]
    figures = await check(community.client, record.attempts, record.combats)
    await community.client.aclose()
    return Outcome(
        name,
        figures,
        recoveries(record, [t for _, t in faults]),
        stack.redeliveries() - redelivered,
        {
            "combats": len(ids),
            "faults": [f for f, _ in faults],
            "latency_ms": latency(record),
            "errors_while_retrying": record.errors,
            "held_while_a_dependency_was_down": stack.held() - held,
        },
    )


def player(
    community: Community, record: Record, combat_id: str, patience: float = PATIENCE_S
) -> Player:
    """A player of the combat's room, who starts the room's next combat when one ends."""
    room = record.rooms.get(combat_id)
    return Player(community, record, combat_id, room=room, patience=patience)


def latency(record: Record) -> dict[str, float]:
    """p50 / p99 of acknowledged actions' round trips (retries included)."""
    spans = sorted(
        (a.answered - a.started) * 1000
        for a in record.attempts
        if a.acknowledged and a.answered is not None
    )
    if not spans:
        return {}

    def pick(q: float) -> float:
        return spans[min(len(spans) - 1, int(q * len(spans)))]

    return {"p50": round(pick(0.50), 1), "p99": round(pick(0.99), 1)}


def recoveries(record: Record, fault_times: list[float]) -> list[float]:
    """Per fault: until an action sent after it was answered 200 (fully applied)."""
    out: list[float] = []
    for at in fault_times:
        done = [
            a.answered
            for a in record.attempts
            if a.started >= at and a.status == 200 and a.answered is not None
        ]
        if done:
            out.append(min(done) - at)
    return out


def kill_each(services: list[str], *, times: int, every: float) -> Fault:
    """kill -9 each service in turn, while it holds work: a service (not the gateway, whose
    requests in flight are the players' to retry) is hung 1 s first so that the broker has
    handed it a message it will deliver again."""

    async def fault(stack: Stack) -> None:
        for _ in range(times):
            for service in services:
                busy = 0.0 if service == "gateway" else 1.0
                await stack.kill_and_restart(service, busy_seconds=busy)
                await asyncio.sleep(every)

    return fault


async def restart_rabbitmq_once(stack: Stack) -> None:
    stack.mark("rabbitmq stop_app + start_app")
    await asyncio.to_thread(stack.rabbit.restart)


async def restart_rabbitmq(stack: Stack) -> None:
    for _ in range(2):
        await restart_rabbitmq_once(stack)
        await asyncio.sleep(5)


async def restart_redis(stack: Stack) -> None:
    """Redis killed and restarted (AOF ``appendfsync always``). While it is down the services
    hold the messages they are handling and retry (no redelivery by design, so the delivery
    limit is not burnt); services/turns is killed meanwhile, so the messages it held come
    back from the broker once both are up, and must apply exactly once."""
    for _ in range(2):
        stack.mark("redis kill -9, turns kill -9 while it holds messages, both back")
        await asyncio.to_thread(stack.redis.kill)
        await asyncio.sleep(1.5)
        await asyncio.to_thread(stack.suite.kill, "turns")
        await asyncio.to_thread(stack.redis.start)
        await asyncio.to_thread(stack.suite.restart, "turns")
        await asyncio.sleep(5)


async def cut_and_slow(stack: Stack) -> None:
    assert stack.rabbit_proxy is not None and stack.redis_proxy is not None
    for _ in range(2):
        stack.mark("cut every connection")
        stack.rabbit_proxy.cut()
        stack.redis_proxy.cut()
        await asyncio.sleep(4)
    stack.mark("slow: RabbitMQ +200 ms, Redis +50 ms per chunk")
    stack.rabbit_proxy.slow(0.2)
    stack.redis_proxy.slow(0.05)
    await asyncio.sleep(5)
    stack.rabbit_proxy.slow(0)
    stack.redis_proxy.slow(0)


async def poison(stack: Stack) -> None:
    """A command whose handler always fails: redelivered to the limit, then dead-lettered.

    It names a live combat (so the handler loads it) with a payload that is not an action:
    not a rule violation (that would be answered), an error on every delivery.
    """
    stack.mark("poison message")
    names = Names(stack.suite.namespace)
    combat_id, room, tenant = await combat_room(stack, stack.target)
    env = Envelope(
        message_id=new_id("m"),
        type="combat.act",
        correlation_id=new_id("a"),
        combat_id=combat_id,
        room=room,
        tenant=tenant,
        occurred_at=utcnow(),
        payload={"not": "an action"},
    )
    connection = await aio_pika.connect(stack.rabbit.url)
    async with connection:
        channel = await connection.channel()
        exchange = await channel.get_exchange(names.commands("turns"))
        await exchange.publish(
            aio_pika.Message(env.to_json(), message_id=env.message_id), routing_key=env.room
        )
    stack_poison.append(env.message_id)


stack_poison: list[str] = []


async def combat_room(stack: Stack, combat_id: str | None) -> tuple[str, str, str]:
    """(combat id, room, tenant) of a live combat, read from its published view."""

    assert combat_id is not None
    redis = Redis.from_url(stack.redis.url)
    async with redis:
        raw = await redis.get(
            Keys(stack.suite.namespace).combat("turns", combat_id).view_of("turns")
        )
    view = json.loads(raw or "{}")
    return combat_id, str(view["room"]), str(view["tenant"])


async def dead_letters(stack: Stack, service: str) -> list[str]:
    names = Names(stack.suite.namespace)
    found: list[str] = []
    connection = await aio_pika.connect(stack.rabbit.url)
    async with connection:
        channel = await connection.channel()
        queue = await channel.declare_queue(
            names.dead_queue(service), durable=True, arguments={"x-queue-type": "quorum"}
        )
        done = asyncio.Event()

        async def take(message: aio_pika.abc.AbstractIncomingMessage) -> None:
            found.append(str(message.message_id))
            await message.ack()

        await queue.consume(take)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), 3)
    return found
