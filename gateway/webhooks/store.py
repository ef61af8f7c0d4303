"""Webhook registrations and delivery records in Redis (docs/webhooks.md).

A registration is a member of the community's ``webhooks`` hash. A delivery is one event
for one webhook: its record (the event, its status, every attempt) lives for
``keep_seconds`` under a key of the community; the webhook's ``deliveries`` and ``failed``
sorted sets index it; the schedule of due deliveries is a :class:`shared.timers.TimerStore`
(a sorted set claimed with leases) shared by every gateway process. A delivery's id is
derived from the webhook and the event, so recording an event twice queues it once.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
import uuid
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from shared.keys import Keys
from shared.outbox_entry import ArmTimer
from shared.redis_streams import text
from shared.timers import TimerStore


class Status(StrEnum):
    PENDING = "pending"  # waiting for its next attempt (or being attempted)
    DELIVERED = "delivered"  # an attempt got a 2xx
    FAILED = "failed"  # no 2xx within the retry window (or after a manual retry)


def new_secret() -> str:
    """A Standard Webhooks secret: ``whsec_`` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Registration:
    id: str
    url: str
    event_types: list[str]
    rooms: list[str] | None
    description: str
    secret: str
    created_at_ms: int

    def wants(self, event_type: str, room: str) -> bool:
        if self.rooms is not None and room not in self.rooms:
            return False
        return any(_matches(pattern, event_type) for pattern in self.event_types)

    def delivery_id(self, event_id: str) -> str:
        digest = hashlib.sha256(f"{self.id}:{event_id}".encode()).hexdigest()
        return "msg_" + digest[:32]


def _matches(pattern: str, event_type: str) -> bool:
    """``*`` is every type; ``combat.*`` every type that starts with ``combat.``."""
    if pattern == "*":
        return True
    if pattern.endswith(".*"):
        return event_type.startswith(pattern[:-1])
    return pattern == event_type


@dataclass
class Attempt:
    at_ms: int
    status_code: int | None
    error: str | None
    duration_ms: int


@dataclass
class Delivery:
    id: str
    webhook_id: str
    tenant: str
    event_id: str
    event_type: str
    created_at_ms: int
    event: dict[str, Any]
    status: Status = Status.PENDING
    attempts: list[Attempt] = field(default_factory=list)
    next_attempt_at_ms: int | None = None
    body: str | None = None  # what was signed and sent (fixed at the first attempt)
    manual: bool = False  # a manual retry: one attempt, then delivered or failed

    def dump(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def load(cls, raw: bytes | str) -> Delivery:
        data = json.loads(raw)
        data["status"] = Status(data["status"])
        data["attempts"] = [Attempt(**a) for a in data["attempts"]]
        return cls(**data)


class WebhookStore:
    def __init__(self, redis: Redis, keys: Keys, *, keep_seconds: int) -> None:
        self._redis = redis
        self._keys = keys
        self.keep_seconds = keep_seconds
        self.schedule = TimerStore(redis, [keys.webhook_schedule()])

    # --- registrations ----------------------------------------------------------------------
    async def create(
        self, tenant: str, url: str, event_types: list[str], rooms: list[str] | None, about: str
    ) -> Registration:
        registration = Registration(
            "wh_" + uuid.uuid4().hex[:24], url, event_types, rooms, about, new_secret(), now_ms()
        )
        payload = json.dumps(asdict(registration))
        await self._redis.hset(self._keys.webhooks(tenant), registration.id, payload)
        return registration

    async def get(self, tenant: str, webhook_id: str) -> Registration | None:
        raw = await self._redis.hget(self._keys.webhooks(tenant), webhook_id)
        return None if raw is None else Registration(**json.loads(raw))

    async def all(self, tenant: str) -> list[Registration]:
        raw = await self._redis.hgetall(self._keys.webhooks(tenant))
        found = [Registration(**json.loads(v)) for v in raw.values()]
        return sorted(found, key=lambda r: (r.created_at_ms, r.id))

    async def delete(self, tenant: str, webhook_id: str) -> bool:
        """Forget a webhook; its queued deliveries are dropped when they come due."""
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.hdel(self._keys.webhooks(tenant), webhook_id)
            pipe.delete(self._keys.webhook_deliveries(tenant, webhook_id))
            pipe.delete(self._keys.webhook_failed(tenant, webhook_id))
            removed, _, _ = await pipe.execute()
        return bool(removed)

    def ask_registrations(self, pipe: Pipeline, tenant: str) -> None:
        """Queue the read of every registration of a community (the recorder's pipeline)."""
        pipe.hvals(self._keys.webhooks(tenant))

    @staticmethod
    def registrations_of(replies: dict[str, list[Any]]) -> dict[str, list[Registration]]:
        """The registrations of :meth:`ask_registrations`' replies, by community."""
        return {
            tenant: [Registration(**json.loads(raw)) for raw in reply]
            for tenant, reply in replies.items()
            if reply
        }

    # --- deliveries -------------------------------------------------------------------------
    def queue_new(self, pipe: Pipeline, delivery: Delivery) -> ArmTimer:
        """Record a new delivery (unless recorded already) and what arms its first attempt."""
        keys, tenant = self._keys, delivery.tenant
        record = keys.webhook_delivery(tenant, delivery.id)
        index = keys.webhook_deliveries(tenant, delivery.webhook_id)
        pipe.set(record, delivery.dump(), nx=True, ex=self.keep_seconds)
        pipe.zadd(index, {delivery.id: delivery.created_at_ms}, nx=True)
        pipe.zremrangebyscore(index, "-inf", delivery.created_at_ms - self.keep_seconds * 1000)
        return self.arm_op(delivery, delivery.created_at_ms)

    @staticmethod
    def arm_op(delivery: Delivery, due_ms: int) -> ArmTimer:
        payload = {"tenant": delivery.tenant, "delivery_id": delivery.id}
        return ArmTimer(f"{delivery.tenant}:{delivery.id}", due_ms, payload)

    async def delivery(self, tenant: str, delivery_id: str) -> Delivery | None:
        raw = await self._redis.get(self._keys.webhook_delivery(tenant, delivery_id))
        return None if raw is None else Delivery.load(raw)

    async def save(self, delivery: Delivery) -> None:
        """Write a delivery back, and keep the webhook's index of failed ones in step."""
        keys, tenant = self._keys, delivery.tenant
        failed = keys.webhook_failed(tenant, delivery.webhook_id)
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.set(
                keys.webhook_delivery(tenant, delivery.id),
                delivery.dump(),
                ex=self.keep_seconds,
            )
            if delivery.status is Status.FAILED:
                pipe.zadd(failed, {delivery.id: now_ms()})
                pipe.zremrangebyscore(failed, "-inf", now_ms() - self.keep_seconds * 1000)
            else:
                pipe.zrem(failed, delivery.id)
            await pipe.execute()

    async def listed(
        self, tenant: str, webhook_id: str, status: Status | None, limit: int
    ) -> list[Delivery]:
        """A webhook's deliveries, newest first (``failed``: by the time they failed)."""
        if status is Status.FAILED:
            index = self._keys.webhook_failed(tenant, webhook_id)
        else:
            index = self._keys.webhook_deliveries(tenant, webhook_id)
        found: list[Delivery] = []
        start = 0
        while len(found) < limit:
            ids = await self._redis.zrevrange(index, start, start + 4 * limit - 1)
            if not ids:
                break
            start += len(ids)
            async with self._redis.pipeline(transaction=False) as pipe:
                for raw_id in ids:
                    pipe.get(self._keys.webhook_delivery(tenant, text(raw_id)))
                records = await pipe.execute()
            for raw in records:
                if raw is None:
                    continue
                delivery = Delivery.load(raw)
                if status is None or delivery.status is status:
                    found.append(delivery)
                if len(found) >= limit:
                    break
        return found
