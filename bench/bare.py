"""The bare stack: FastAPI -> RabbitMQ -> a consumer running one Lua script on Redis -> reply.

The least a request of the suite could cost on this machine with the same pieces: the HTTP
endpoint publishes the request (persistent, publisher confirms, mandatory) to one quorum
queue and waits on an exclusive reply queue for the answer with its correlation id; a
consumer on a connection of its own runs one Lua script (``HINCRBY`` + ``XADD`` + ``ZADD`` on
keys sharing a hash tag), publishes the reply with confirms and acks. No validation, no
idempotency record, no outbox, no second service.

It runs in a child process of its own (``python -m bench.bare PORT NAMESPACE``), like the
suite's gateway, so the load generator's CPU is not charged to it; ``--bare-mode thread``
runs it on a thread of the benchmark's process instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import threading
import time
import uuid
from collections.abc import AsyncIterator

import aio_pika
import uvicorn
from aio_pika.abc import AbstractIncomingMessage
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from redis.asyncio import BlockingConnectionPool, Redis

REPLY_TIMEOUT = 5.0  # as the suite's gateway: 202 after 5 s
PREFETCH = 512

_SCRIPT = """
local n = redis.call('HINCRBY', KEYS[1], 'actions', 1)
redis.call('XADD', KEYS[2], 'MAXLEN', '~', 1000, '*', 'e', ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
return n
"""


def queue_name(namespace: str) -> str:
    return f"{namespace}.bare.commands"


def create_app(namespace: str, rabbitmq_url: str, redis_url: str) -> FastAPI:
    """The bare gateway and its consumer, started and stopped by the app's lifespan."""
    waiters: dict[str, asyncio.Future[bytes]] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redis = Redis(
            connection_pool=BlockingConnectionPool.from_url(redis_url, max_connections=64)
        )
        script = redis.register_script(_SCRIPT)
        front = await aio_pika.connect_robust(rabbitmq_url)
        back = await aio_pika.connect_robust(rabbitmq_url)
        publisher = await front.channel(publisher_confirms=True, on_return_raises=True)
        commands = await publisher.declare_queue(
            queue_name(namespace), durable=True, arguments={"x-queue-type": "quorum"}
        )
        replies = await (await front.channel()).declare_queue(exclusive=True, auto_delete=True)

        async def on_reply(message: AbstractIncomingMessage) -> None:
            waiter = waiters.get(message.correlation_id or "")
            if waiter is not None and not waiter.done():
                waiter.set_result(message.body)

        await replies.consume(on_reply, no_ack=True)
        worker = await back.channel(publisher_confirms=True)
        await worker.set_qos(prefetch_count=PREFETCH)
        work = await worker.get_queue(queue_name(namespace))

        async def on_command(message: AbstractIncomingMessage) -> None:
            body = json.loads(message.body)
            tag = f"{namespace}:{{bare:{body['room']}}}"
            now = int(time.time() * 1000)
            count = await script(
                keys=[f"{tag}:state", f"{tag}:log", f"{tag}:processed"],
                args=[message.body, now, message.message_id or ""],
            )
            reply = json.dumps({"version": int(count), "room": body["room"]}).encode()
            await worker.default_exchange.publish(
                aio_pika.Message(reply, correlation_id=message.correlation_id),
                routing_key=message.reply_to or "",
            )
            await message.ack()

        await work.consume(on_command)
        app.state.publish = (publisher, commands.name, replies.name)
        try:
            yield
        finally:
            await front.close()
            await back.close()
            await redis.aclose()

    app = FastAPI(lifespan=lifespan)

    @app.post("/act")
    async def act(request: Request) -> JSONResponse:
        body = await request.body()
        publisher, routing_key, reply_to = request.app.state.publish
        correlation_id = uuid.uuid4().hex
        waiter: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        waiters[correlation_id] = waiter
        try:
            message = aio_pika.Message(
                body,
                message_id=uuid.uuid4().hex,
                correlation_id=correlation_id,
                reply_to=reply_to,
                delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
            )
            async with asyncio.timeout(REPLY_TIMEOUT):
                await publisher.default_exchange.publish(
                    message, routing_key=routing_key, mandatory=True
                )
            try:
                reply = await asyncio.wait_for(waiter, REPLY_TIMEOUT)
            except TimeoutError:
                return JSONResponse({"status": "pending"}, status_code=202)
            return JSONResponse(json.loads(reply))
        finally:
            waiters.pop(correlation_id, None)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app


def server(port: int, namespace: str, rabbitmq_url: str, redis_url: str) -> uvicorn.Server:
    """A uvicorn server configured as the suite's gateway is (uvloop, httptools, no log)."""
    config = uvicorn.Config(
        create_app(namespace, rabbitmq_url, redis_url),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="on",
    )
    return uvicorn.Server(config)


class ThreadServer:
    """The bare stack on a thread of this process, with an event loop of its own."""

    def __init__(self, port: int, namespace: str, rabbitmq_url: str, redis_url: str) -> None:
        self.server = server(port, namespace, rabbitmq_url, redis_url)
        self.thread = threading.Thread(target=self.server.run, name="bare-stack", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="serve the bare stack (used by python -m bench)")
    parser.add_argument("port", type=int)
    parser.add_argument("namespace")
    parser.add_argument("--rabbitmq-url", required=True)
    parser.add_argument("--redis-url", required=True)
    args = parser.parse_args(argv)
    server(args.port, args.namespace, args.rabbitmq_url, args.redis_url).run()


if __name__ == "__main__":
    main()
