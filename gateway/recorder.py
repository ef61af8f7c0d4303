"""The recorder: every public event into its community's stream, once, in order.

One durable quorum queue with a single active consumer, bound to every event type, so the
streams keep the order in which events were published. The stream is what ``GET /v1/events``
serves and resumes from (``Last-Event-ID`` = stream entry id); entries are kept at least
24 h. Rejections are also kept under their correlation id, for clients polling after a 202;
``combat.started`` fills the community's combat index; ``combat.started`` and
``combatant.joined`` fill the combat's names for narration (gateway/narration.py). Each event
is also queued for the community's webhooks that want it (gateway/webhooks/enqueue.py).

Deliveries are queued in arrival order and written by one worker in batches (one pipeline
to Redis per batch), then acknowledged together; a failed batch is redelivered whole, and
the append script drops what it already wrote.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from aio_pika.abc import AbstractChannel, AbstractIncomingMessage
from pydantic import ValidationError
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from gateway.metrics import RECORDER_BACKLOG, RECORDER_LAG
from gateway.narration import remember_names
from gateway.webhooks.enqueue import Deliveries
from shared.bus import RECORDER_ARGS, Bus
from shared.keys import Keys
from shared.logging import get_logger
from shared.messages import COMBAT_STARTED, COMMAND_REJECTED, Envelope, read_envelopes
from shared.scripts import Script, run_pipeline

log = get_logger(__name__)

KEEP_MS = 26 * 3600 * 1000  # at least 24 h, with a margin
OUTCOME_TTL_S = 24 * 3600
PREFETCH = 500
BATCH = 200

# A community's events of one batch, in order: each appended unless already recorded (its
# message id in the seen set), then the ids older than the retention forgotten.
_APPEND = Script(
    """
local now = tonumber(ARGV[1])
local floor = now - tonumber(ARGV[2])
local minid = tostring(floor) .. '-0'
local added = 0
for i = 3, #ARGV, 2 do
  if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then
    redis.call('XADD', KEYS[1], 'MINID', '~', minid, '*', 'e', ARGV[i + 1])
    redis.call('ZADD', KEYS[2], now, ARGV[i])
    added = added + 1
  end
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', floor)
return added
"""
)


class Recorder:
    def __init__(
        self, redis: Redis, bus: Bus, keys: Keys, deliveries: Deliveries | None = None
    ) -> None:
        self._redis = redis
        self._bus = bus
        self._keys = keys
        self._deliveries = deliveries
        self._inbox: asyncio.Queue[AbstractIncomingMessage] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._channel: AbstractChannel | None = None
        self.recorded = 0

    async def start(self) -> None:
        self._channel = await self._bus.connection.channel(publisher_confirms=False)
        await self._channel.set_qos(prefetch_count=PREFETCH)
        queue = await self._channel.declare_queue(
            self._bus.names.gateway_recorder(), durable=True, arguments=RECORDER_ARGS
        )
        self._worker = asyncio.create_task(self._work(), name="recorder")
        await self._bus.consume_queue(queue, self._arrived)

    async def stop(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker

    async def _arrived(self, message: AbstractIncomingMessage) -> None:
        self._inbox.put_nowait(message)  # in delivery order: one worker drains it

    async def _work(self) -> None:
        while True:
            batch = [await self._inbox.get()]
            while len(batch) < BATCH and not self._inbox.empty():
                batch.append(self._inbox.get_nowait())
            events: list[Envelope] = []
            for message in batch:
                try:
                    events += read_envelopes(message.type, message.body)
                except (ValidationError, ValueError):
                    log.error("poison_event_dropped", body=message.body[:200])
            try:
                await self.record_many(events)
            except Exception:
                log.warning("events_not_recorded", count=len(events), exc_info=True)
                for message in batch:
                    with contextlib.suppress(Exception):
                        await message.nack(requeue=True)
                await asyncio.sleep(0.5)
                continue
            with contextlib.suppress(Exception):
                await batch[-1].ack(multiple=True)
            if events:
                # From the newest event's occurrence to its record: the recorder's lag.
                lag = time.time() - events[-1].occurred_at.timestamp()
                RECORDER_LAG.set(max(0.0, lag))
                RECORDER_BACKLOG.set(self._inbox.qsize())

    async def record_many(self, events: list[Envelope]) -> None:
        """Append the events to their communities' streams, with what each one also fills,
        and read the communities' webhook registrations, in one round trip; then queue the
        deliveries that registrations want."""
        if not events:
            return
        keys = self._keys
        now = int(time.time() * 1000)
        hooks = self._deliveries
        tenants = hooks.tenants(events) if hooks is not None else []
        by_tenant: dict[str, list[Envelope]] = {}
        for env in events:
            by_tenant.setdefault(env.tenant, []).append(env)

        def build(pipe: Pipeline) -> None:
            for tenant, group in by_tenant.items():
                args: list[str | int] = [now, KEEP_MS]
                for env in group:
                    args += [env.message_id, env.model_dump_json()]
                _APPEND.queue(pipe, [keys.events_stream(tenant), keys.events_seen(tenant)], args)
            for env in events:
                self._fill(pipe, env)
            if hooks is not None:
                for tenant in tenants:
                    hooks.store.ask_registrations(pipe, tenant)

        replies = await run_pipeline(self._redis, build, [_APPEND])
        if hooks is not None and tenants:
            asked = dict(zip(tenants, replies[len(replies) - len(tenants) :], strict=True))
            registrations = hooks.store.registrations_of(asked)
            if registrations:
                async with self._redis.pipeline(transaction=False) as pipe:
                    arms = hooks.queue(pipe, events, registrations)
                    if arms:
                        await pipe.execute()
                if arms:
                    await hooks.store.schedule.apply(arms)
        self.recorded += len(events)

    def _fill(self, pipe: Pipeline, env: Envelope) -> None:
        """What an event fills beside the stream: the combat's names, a rejection's outcome
        (for polling after a 202), the indexes of combats and rooms."""
        keys, tenant = self._keys, env.tenant
        remember_names(pipe, keys, env)
        if env.type == COMMAND_REJECTED:
            pipe.set(
                keys.outcome(tenant, env.correlation_id), env.model_dump_json(), ex=OUTCOME_TTL_S
            )
        elif env.type == COMBAT_STARTED and env.combat_id:
            started = int(env.occurred_at.timestamp() * 1000)
            pipe.zadd(keys.combats_index(tenant), {env.combat_id: started}, nx=True)
            pipe.zadd(keys.room_index(tenant, env.room), {env.combat_id: started}, nx=True)
            pipe.zadd(keys.rooms_index(tenant), {env.room: 0}, nx=True)
