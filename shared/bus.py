"""The RabbitMQ adapter (aio-pika), with the topology of docs/DESIGN.md "Scale and placement".

Per service: a direct exchange ``<ns>.<service>.commands`` (routing key: the room) whose
alternate exchange is a consistent-hash exchange over N quorum partition queues with single
active consumer, a delivery limit and a dead-letter exchange. An isolated room is bound by
name on the direct exchange to a queue of its own. Public events go to the topic exchange
``<ns>.events`` (routing key: the event type).

Publishing uses a robust connection, publisher confirms with returns raising, persistent
messages and a timeout on every publish (docs/CONTRIBUTING.md). Consumed queue objects are kept
referenced for the life of the process so that robust reconnection restores them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import aio_pika
import aiormq
from aio_pika.abc import (
    AbstractChannel,
    AbstractExchange,
    AbstractIncomingMessage,
    AbstractQueue,
    AbstractRobustConnection,
)
from pydantic import ValidationError

from shared.batch_memo import one_batch
from shared.coalesce import Coalescer, Publication
from shared.delivery import TRANSIENT_ERRORS, MessageHandler, handle_delivered
from shared.keys import Names
from shared.logging import get_logger
from shared.messages import SERVICES, Envelope, read_envelopes
from shared.metrics import DELIVERIES, PUBLISHED, REDELIVERED
from shared.settings import CommonSettings, ServiceSettings

log = get_logger(__name__)

CLOSE_SECONDS = 10.0  # a stopping process waits this long for the broker to close its connection

PUBLISH_ERRORS: tuple[type[BaseException], ...] = (
    *TRANSIENT_ERRORS,
    aio_pika.exceptions.DeliveryError,
    aiormq.exceptions.AMQPChannelError,  # a channel closed under a pending confirm
)


def described(exc: BaseException) -> str:
    """``repr`` of a broker error, even one whose ``repr`` fails (aiormq's ``DeliveryError``
    without a frame raises in ``repr``: that turned a publish not confirmed into a 500)."""
    try:
        return repr(exc)
    except Exception:  # any failure of repr() itself
        return type(exc).__name__


RECORDER_ARGS: dict[str, Any] = {"x-queue-type": "quorum", "x-single-active-consumer": True}


class BusUnavailableError(Exception):
    """RabbitMQ did not take the message in time (or refused it): nothing was sent."""


class Bus:
    def __init__(
        self,
        url: str,
        *,
        namespace: str,
        partitions: int,
        delivery_limit: int,
        publish_timeout: float,
        coalesce: bool = False,
    ) -> None:
        self.url = url
        self.names = Names(namespace)
        self.partitions = partitions
        self.delivery_limit = delivery_limit
        self.publish_timeout = publish_timeout
        self._connection: AbstractRobustConnection | None = None
        self._publisher: AbstractChannel | None = None
        self._consumer: AbstractChannel | None = None
        self._exchanges: dict[str, AbstractExchange] = {}
        self._queues: list[AbstractQueue] = []  # kept referenced (docs/CONTRIBUTING.md)
        self._consumer_tags: list[tuple[AbstractQueue, str]] = []
        # Publishes to a busy events exchange or reply queue merged (shared/coalesce.py).
        self.coalescer = (
            Coalescer(self._publish_one, events=self.names.events()) if coalesce else None
        )
        # The ``destination`` label of :data:`shared.metrics.PUBLISHED`, by exchange.
        self._destinations = {"": "reply", self.names.events(): "events"} | {
            self.names.commands(service): service for service in SERVICES
        }

    @classmethod
    def from_settings(cls, settings: CommonSettings) -> Bus:
        return cls(
            settings.rabbitmq_url,
            namespace=settings.ns,
            partitions=settings.referee_partitions,
            delivery_limit=settings.referee_delivery_limit,
            publish_timeout=settings.referee_publish_timeout,
            # Merged publishes are batches: not while a service sends no batches (an older
            # gateway that cannot read them is still up, deploy/README.md).
            coalesce=settings.referee_coalesce_publishes
            and (not isinstance(settings, ServiceSettings) or settings.referee_event_batches),
        )

    # --- lifecycle ---------------------------------------------------------------------
    async def connect(self) -> None:
        self._connection = await aio_pika.connect_robust(self.url, timeout=10)
        self._publisher = await self._connection.channel(
            publisher_confirms=True, on_return_raises=True
        )
        self._consumer = await self._connection.channel(publisher_confirms=False)
        await self._consumer.set_qos(prefetch_count=1)

    async def stop_consuming(self) -> None:
        """Cancel every consumer: in-flight messages finish, no new one arrives."""
        for queue, tag in self._consumer_tags:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(2):
                    await queue.cancel(tag)
        self._consumer_tags.clear()

    async def close(self) -> None:
        await self.stop_consuming()
        if self._connection is not None:
            if self.coalescer is not None:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.publish_timeout):
                        await self.coalescer.close()
            try:
                # A broker that no longer answers must not hold a process's stop for good.
                async with asyncio.timeout(CLOSE_SECONDS):
                    await self._connection.close()
            except TimeoutError:
                log.warning("broker_close_timed_out", seconds=CLOSE_SECONDS)
        self._connection = None

    @property
    def connection(self) -> AbstractRobustConnection:
        if self._connection is None:
            raise RuntimeError("bus not connected")
        return self._connection

    @property
    def is_connected(self) -> bool:
        return self._connection is not None and not self._connection.is_closed

    @property
    def consuming(self) -> bool:
        """Connected, with an open consumer channel and consumers registered on it."""
        channel = self._consumer
        return (
            self.is_connected
            and channel is not None
            and not channel.is_closed
            and bool(self._consumer_tags)
        )

    def _channel(self, consumer: bool = False) -> AbstractChannel:
        channel = self._consumer if consumer else self._publisher
        if channel is None:
            raise RuntimeError("bus not connected")
        return channel

    # --- topology ------------------------------------------------------------------------
    def _quorum_args(self, service: str) -> dict[str, Any]:
        return {
            "x-queue-type": "quorum",
            "x-single-active-consumer": True,
            "x-delivery-limit": self.delivery_limit,
            "x-dead-letter-exchange": self.names.dead_letters(),
            "x-dead-letter-routing-key": service,
        }

    async def _exchange(
        self, name: str, kind: aio_pika.ExchangeType, arguments: dict[str, Any] | None = None
    ) -> AbstractExchange:
        exchange = await self._channel().declare_exchange(
            name, kind, durable=True, arguments=arguments
        )
        self._exchanges[name] = exchange
        return exchange

    async def declare_topology(self, services: Iterable[str] = SERVICES) -> None:
        """Declare every exchange and queue (idempotent; every process may call it)."""
        names = self.names
        events = await self._exchange(names.events(), aio_pika.ExchangeType.TOPIC)
        dlx = await self._exchange(names.dead_letters(), aio_pika.ExchangeType.DIRECT)
        channel = self._channel()
        # The gateway's recorder queue exists as soon as anything runs, so no public event is
        # unroutable (and none is lost) while no gateway is up.
        recorder = await channel.declare_queue(
            names.gateway_recorder(), durable=True, arguments=RECORDER_ARGS
        )
        await recorder.bind(events, routing_key="#")
        for service in services:
            dead = await channel.declare_queue(
                names.dead_queue(service), durable=True, arguments={"x-queue-type": "quorum"}
            )
            await dead.bind(dlx, routing_key=service)
            hashed = await self._exchange(
                names.commands_hash(service), aio_pika.ExchangeType.X_CONSISTENT_HASH
            )
            await self._exchange(
                names.commands(service),
                aio_pika.ExchangeType.DIRECT,
                {"alternate-exchange": names.commands_hash(service)},
            )
            for index in range(self.partitions):
                queue = await channel.declare_queue(
                    names.partition(service, index),
                    durable=True,
                    arguments=self._quorum_args(service),
                )
                await queue.bind(hashed, routing_key="1")

    async def isolate_room(self, service: str, room: str) -> str:
        """Give a busy room a queue of its own (docs/DESIGN.md "Scale and placement")."""
        name = self.names.room_queue(service, room)
        queue = await self._channel().declare_queue(
            name, durable=True, arguments=self._quorum_args(service)
        )
        await queue.bind(self._exchanges[self.names.commands(service)], routing_key=room)
        return name

    async def unisolate_room(self, service: str, room: str) -> None:
        name = self.names.room_queue(service, room)
        queue = await self._channel().declare_queue(
            name, durable=True, arguments=self._quorum_args(service)
        )
        await queue.unbind(self._exchanges[self.names.commands(service)], routing_key=room)

    # --- publishing ----------------------------------------------------------------------
    async def publish_raw(
        self,
        exchange: str,
        routing_key: str,
        body: bytes,
        *,
        message_id: str,
        correlation_id: str | None = None,
        type_: str | None = None,
        mandatory: bool = True,
    ) -> None:
        """Publish one persistent message and wait for the broker's confirm (with a coalescer,
        possibly within a batch message of its destination: shared/coalesce.py).

        Raises :class:`BusUnavailableError` when the broker does not confirm in time, refuses the
        message, or cannot route a mandatory message.
        """
        item = Publication(
            exchange, routing_key, body, message_id, correlation_id, type_, mandatory
        )
        if self.coalescer is not None:
            await self.coalescer.publish(item)
        else:
            await self._publish_one(item)

    async def _publish_one(self, item: Publication) -> None:
        exchange, routing_key, mandatory = item.exchange, item.routing_key, item.mandatory
        message = aio_pika.Message(
            item.body,
            message_id=item.message_id,
            correlation_id=item.correlation_id,
            type=item.type_,
            content_type="application/json",
            delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
        )
        try:
            async with asyncio.timeout(self.publish_timeout):
                if exchange == "":
                    target = self._channel().default_exchange
                else:
                    target = self._exchanges.get(exchange) or await self._channel().get_exchange(
                        exchange
                    )
                    self._exchanges[exchange] = target
                await target.publish(message, routing_key=routing_key, mandatory=mandatory)
            PUBLISHED.labels(self._destinations.get(exchange, "other")).inc()
        except PUBLISH_ERRORS as exc:
            raise BusUnavailableError(
                f"publish to {exchange!r}/{routing_key!r} failed: {described(exc)}"
            ) from exc
        except Exception as exc:
            # aiormq rejects the futures of a connection that closes under a publish with the
            # bare class ``Exception`` (aiormq/base.py, no reject reason): the publish was cut
            # off, like any of PUBLISH_ERRORS. Anything more specific is a bug: raise it.
            if type(exc) is not Exception:
                raise
            raise BusUnavailableError(
                f"publish to {exchange!r}/{routing_key!r} cut off with its connection"
            ) from exc

    async def publish(self, exchange: str, routing_key: str, env: Envelope) -> None:
        await self.publish_raw(
            exchange,
            routing_key,
            env.to_json(),
            message_id=env.message_id,
            correlation_id=env.correlation_id,
            type_=env.type,
        )

    async def send_command(self, service: str, env: Envelope) -> None:
        """A command to a service, routed by room."""
        await self.publish(self.names.commands(service), env.room, env)

    # --- consuming -----------------------------------------------------------------------
    async def consume_service(
        self, service: str, handler: MessageHandler, *, rooms: list[str] | None = None
    ) -> list[str]:
        """Consume every partition of a service, or only the given isolated rooms."""
        channel = self._channel(consumer=True)
        targets: list[tuple[str, str | None]] = (
            [(self.names.room_queue(service, room), room) for room in rooms]
            if rooms
            else [(self.names.partition(service, i), None) for i in range(self.partitions)]
        )
        callback = self._wrap(handler, service)
        for name, room in targets:
            queue = await channel.declare_queue(
                name, durable=True, arguments=self._quorum_args(service)
            )
            if room is not None:
                await queue.bind(self.names.commands(service), routing_key=room)
            self._queues.append(queue)
            tag = await queue.consume(callback)
            self._consumer_tags.append((queue, tag))
        return [name for name, _ in targets]

    async def consume_queue(
        self,
        queue: AbstractQueue,
        handler: Callable[[AbstractIncomingMessage], Awaitable[None]],
        *,
        no_ack: bool = False,
    ) -> None:
        self._queues.append(queue)
        tag = await queue.consume(handler, no_ack=no_ack)
        self._consumer_tags.append((queue, tag))

    def consumer_channel(self) -> AbstractChannel:
        return self._channel(consumer=True)

    def _wrap(
        self, handler: MessageHandler, service: str
    ) -> Callable[[AbstractIncomingMessage], Awaitable[None]]:
        async def on_message(message: AbstractIncomingMessage) -> None:
            DELIVERIES.labels(service).inc()
            try:
                envelopes = read_envelopes(message.type, message.body)
            except (ValidationError, ValueError):
                log.error("poison_message_dead_lettered", body=message.body[:200])
                await message.reject(requeue=False)
                return
            if message.redelivered:
                # A consumer died or failed before its ack: the fault really hit this message.
                REDELIVERED.labels(service).inc()
                log.info(
                    "message_redelivered",
                    message_id=envelopes[0].message_id if envelopes else None,
                    type=message.type if len(envelopes) != 1 else envelopes[0].type,
                    delivery_count=(message.headers or {}).get("x-delivery-count"),
                )
            # A batch is handled event by event, in order; after a failure it comes back
            # whole and the events already handled are dropped as processed.
            with one_batch(len(envelopes)):
                for env in envelopes:
                    if not await handle_delivered(handler, env, message):
                        return
            await message.ack()

        return on_message

    async def consumer_counts(self, queue_names: Iterable[str]) -> dict[str, int]:
        """Consumers per queue, read with passive declares on a throwaway channel."""
        counts: dict[str, int] = {}
        async with self.connection.channel(publisher_confirms=False) as channel:
            underlay = await channel.get_underlay_channel()
            for name in queue_names:
                ok = await underlay.queue_declare(name, passive=True)
                counts[name] = int(ok.consumer_count or 0)
        return counts
