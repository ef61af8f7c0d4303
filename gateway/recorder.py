"""The recorder: every public event into its community's stream, once.

One durable quorum queue with a single active consumer, bound to every event type, so the
streams keep the order in which events were published. The stream is what ``GET /v1/events``
serves and resumes from (``Last-Event-ID`` = stream entry id); entries are kept at least
24 h. Rejections are also kept under their correlation id, for clients polling after a 202;
``combat.started`` fills the community's combat index.
"""

from __future__ import annotations

import time

from aio_pika.abc import AbstractIncomingMessage
from pydantic import ValidationError
from redis.asyncio import Redis

from shared.bus import RECORDER_ARGS, Bus
from shared.keys import Keys
from shared.logging import get_logger
from shared.messages import COMBAT_STARTED, COMMAND_REJECTED, Envelope

log = get_logger(__name__)

KEEP_MS = 26 * 3600 * 1000  # at least 24 h, with a margin
OUTCOME_TTL_S = 24 * 3600

_APPEND = """
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
local now = tonumber(ARGV[3])
local floor = now - tonumber(ARGV[4])
redis.call('XADD', KEYS[1], 'MINID', '~', tostring(floor) .. '-0', '*', 'e', ARGV[2])
redis.call('ZADD', KEYS[2], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', floor)
return 1
"""


class Recorder:
    def __init__(self, redis: Redis, bus: Bus, keys: Keys) -> None:
        self._redis = redis
        self._bus = bus
        self._keys = keys
        self._append = redis.register_script(_APPEND)
        self.recorded = 0

    async def start(self) -> None:
        channel = self._bus.consumer_channel()
        queue = await channel.declare_queue(
            self._bus.names.gateway_recorder(), durable=True, arguments=RECORDER_ARGS
        )
        await self._bus.consume_queue(queue, self._on_event)

    async def _on_event(self, message: AbstractIncomingMessage) -> None:
        try:
            env = Envelope.from_json(message.body)
        except (ValidationError, ValueError):
            await message.reject(requeue=False)
            return
        try:
            await self.record(env)
        except Exception:
            log.warning("event_not_recorded", message_id=env.message_id, exc_info=True)
            await message.nack(requeue=True)
            return
        await message.ack()

    async def record(self, env: Envelope) -> None:
        keys, tenant = self._keys, env.tenant
        now = int(time.time() * 1000)
        body = env.model_dump_json()
        done = await self._append(
            keys=[keys.events_stream(tenant), keys.events_seen(tenant)],
            args=[env.message_id, body, now, KEEP_MS],
        )
        if env.type == COMMAND_REJECTED:
            await self._redis.set(keys.outcome(tenant, env.correlation_id), body, ex=OUTCOME_TTL_S)
        elif env.type == COMBAT_STARTED and env.combat_id:
            started = int(env.occurred_at.timestamp() * 1000)
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.zadd(keys.combats_index(tenant), {env.combat_id: started}, nx=True)
                pipe.zadd(keys.room_index(tenant, env.room), {env.combat_id: started}, nx=True)
                await pipe.execute()
        if done:
            self.recorded += 1
