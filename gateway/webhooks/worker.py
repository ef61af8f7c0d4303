"""The delivery worker: one per gateway process, all of them on one schedule in Redis.

It claims due deliveries with a lease (longer than an attempt can take), sends each, and
then records the attempt: a 2xx marks it delivered; a failure arms the next attempt
(:mod:`gateway.webhooks.schedule`) or, past the retry window, marks it failed. A worker
that dies mid-attempt lets the lease run out and another one tries again, so a receiver may
get a delivery twice: ``webhook-id`` tells it so. At most ``concurrency`` attempts run at
once in a process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Awaitable, Callable

from gateway.webhooks.schedule import Backoff
from gateway.webhooks.sender import Outcome, Sender
from gateway.webhooks.store import Attempt, Delivery, Status, WebhookStore, now_ms
from shared.logging import get_logger
from shared.timers import Claimed

log = get_logger(__name__)

Body = Callable[[Delivery], Awaitable[str]]
"""What is signed and sent for a delivery's event (the public event, told)."""


async def plain_body(delivery: Delivery) -> str:
    return json.dumps(delivery.event, separators=(",", ":"), ensure_ascii=False)


class DeliveryWorker:
    def __init__(
        self,
        store: WebhookStore,
        sender: Sender,
        backoff: Backoff,
        *,
        lease_ms: int,
        poll_seconds: float,
        concurrency: int,
        body: Body = plain_body,
    ) -> None:
        self._store = store
        self._sender = sender
        self._backoff = backoff
        self._lease_ms = lease_ms
        self._poll = poll_seconds
        self._concurrency = concurrency
        self._body = body
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="webhook-deliveries")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._running) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._sender.close()

    async def _run(self) -> None:
        while True:
            try:
                free = self._concurrency - len(self._running)
                claimed = (
                    await self._store.schedule.claim(now_ms(), self._lease_ms, free)
                    if free > 0
                    else []
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("webhook_schedule_unreadable", exc_info=True)
                await asyncio.sleep(max(self._poll, 1.0))
                continue
            for item in claimed:
                task = asyncio.create_task(self._attempt(item))
                self._running.add(task)
                task.add_done_callback(self._running.discard)
            if not claimed:
                await asyncio.sleep(self._poll)

    async def _attempt(self, item: Claimed) -> None:
        try:
            await self.attempt(item)
        except asyncio.CancelledError:
            raise
        except Exception:  # the lease runs out and the delivery is tried again
            log.warning("webhook_attempt_failed", timer_id=item.timer_id, exc_info=True)

    async def attempt(self, item: Claimed) -> Outcome | None:
        """One attempt of a claimed delivery, recorded; None when there was nothing to send."""
        store = self._store
        tenant, delivery_id = str(item.payload["tenant"]), str(item.payload["delivery_id"])
        delivery = await store.delivery(tenant, delivery_id)
        registration = None if delivery is None else await store.get(tenant, delivery.webhook_id)
        if delivery is None or registration is None or delivery.status is not Status.PENDING:
            await store.schedule.ack(item)  # expired, webhook deleted, or already settled
            return None
        if delivery.body is None:
            delivery.body = await self._body(delivery)
        outcome = await self._sender.send(
            registration.url, registration.secret, delivery.id, delivery.body
        )
        attempted = now_ms()
        delivery.attempts.append(
            Attempt(attempted, outcome.status_code, outcome.error, outcome.duration_ms)
        )
        due = None
        if outcome.delivered:
            delivery.status = Status.DELIVERED
        elif not delivery.manual:
            failures = len(delivery.attempts)  # none of them was a 2xx
            due = self._backoff.next_attempt_ms(
                delivery.created_at_ms, attempted, failures, random.random()
            )
        if due is None and not outcome.delivered:
            delivery.status = Status.FAILED
        delivery.next_attempt_at_ms = due
        delivery.manual = False
        await store.save(delivery)
        if due is not None:
            await store.schedule.apply([store.arm_op(delivery, due)])
        with contextlib.suppress(Exception):
            await store.schedule.ack(item)  # a no-op when re-armed: the score moved
        log.info(
            "webhook_attempted",
            delivery_id=delivery.id,
            webhook_id=delivery.webhook_id,
            status=delivery.status.value,
            status_code=outcome.status_code,
            error=outcome.error,
        )
        return outcome
