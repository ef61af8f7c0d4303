"""Which webhooks an event goes to, queued by the recorder as it records the event.

The recorder reads the registrations of the communities of a batch in the pipeline that
appends the events to the streams, then records the deliveries the registrations want (a
second round trip, only when there are some), then arms their first attempts. Recording is
idempotent (a delivery's id comes from the webhook and the event; the record is written only
if absent), so a batch the broker redelivers queues nothing twice; its deliveries are armed
again, and an attempt of one that was already delivered is skipped.
"""

from __future__ import annotations

from redis.asyncio.client import Pipeline

from gateway.views import public_event
from gateway.webhooks.store import Delivery, Registration, WebhookStore, now_ms
from shared.messages import INTERNAL_EVENTS, Envelope
from shared.outbox_entry import ArmTimer


class Deliveries:
    def __init__(self, store: WebhookStore) -> None:
        self.store = store

    @staticmethod
    def tenants(events: list[Envelope]) -> list[str]:
        """The communities whose registrations the events need (public events only)."""
        return sorted({env.tenant for env in events if env.type not in INTERNAL_EVENTS})

    def queue(
        self,
        pipe: Pipeline,
        events: list[Envelope],
        registrations: dict[str, list[Registration]],
    ) -> list[ArmTimer]:
        """Record the deliveries of ``events`` in ``pipe``; what arms their first attempts."""
        arms: list[ArmTimer] = []
        created = now_ms()
        for env in events:
            if env.type in INTERNAL_EVENTS:
                continue
            for registration in registrations.get(env.tenant, []):
                if not registration.wants(env.type, env.room):
                    continue
                delivery = Delivery(
                    id=registration.delivery_id(env.message_id),
                    webhook_id=registration.id,
                    tenant=env.tenant,
                    event_id=env.message_id,
                    event_type=env.type,
                    created_at_ms=created,
                    event=public_event(env),
                )
                arms.append(self.store.queue_new(pipe, delivery))
        return arms
