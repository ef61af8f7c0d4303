"""One envelope of a delivered message through its handler (shared/bus.py consumes).

A dependency that is down (Redis, the broker) holds the message and retries with backoff
instead of burning the delivery limit; any other failure gives the message back to its queue
(``nack``, redelivered until the delivery limit, then dead-lettered); a handling stuck for
:data:`STUCK_SECONDS` is logged with the traceback of where it waited and gives the message
back too, so its partition moves on instead of waiting for good.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import aio_pika
import aiormq
from aio_pika.abc import AbstractIncomingMessage
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from shared.logging import get_logger
from shared.messages import Envelope

log = get_logger(__name__)

MessageHandler = Callable[[Envelope], Awaitable[None]]

TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    RedisConnectionError,
    RedisTimeoutError,
    ConnectionError,
    TimeoutError,
    aiormq.exceptions.AMQPConnectionError,
    aiormq.exceptions.ChannelInvalidStateError,
    aio_pika.exceptions.PublishError,
)

# One handling that takes longer is stuck: one takes milliseconds (seconds on a saturated
# machine). Redelivered, a message already committed is dropped as processed.
STUCK_SECONDS = 60.0


async def handle_delivered(
    handler: MessageHandler, env: Envelope, message: AbstractIncomingMessage
) -> bool:
    """Handle one envelope of ``message``; False when the message was given back."""
    delay = 0.2
    while True:
        watch = asyncio.timeout(STUCK_SECONDS)
        try:
            async with watch:
                await handler(env)
        except TRANSIENT_ERRORS as exc:
            if watch.expired():
                log.error(
                    "handler_stuck",
                    message_id=env.message_id,
                    type=env.type,
                    seconds=STUCK_SECONDS,
                    exc_info=True,
                )
                await message.nack(requeue=True)
                return False
            # The store or the broker is down: hold the message (the partition waits)
            # and retry instead of burning the delivery limit.
            log.warning("handler_dependency_down", error=repr(exc), retry_in=delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
            if message.channel.is_closed:  # the broker will redeliver it
                return False
            continue
        except Exception:
            log.exception(
                "handler_failed",
                message_id=env.message_id,
                type=env.type,
                delivery_count=(message.headers or {}).get("x-delivery-count"),
            )
            await asyncio.sleep(0.1)
            await message.nack(requeue=True)
            return False
        return True
