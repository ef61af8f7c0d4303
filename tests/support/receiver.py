"""A real HTTP server on loopback that receives webhook deliveries and answers as told.

Each path has its plan: a list of answers used one per request (``ok``: 200, ``fail``:
500, ``slow``: 200 after longer than the sender waits), then ``then`` for every request
after. Every request is kept (headers, body, path) for the test to verify signatures.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import uvicorn
from starlette.types import Receive, Scope, Send

from tests.support.suite import free_port


@dataclass(frozen=True)
class Delivered:
    path: str
    headers: dict[str, str]
    body: bytes
    answered: str


@dataclass
class Plan:
    answers: list[str]
    then: str = "ok"


@dataclass
class Receiver:
    port: int = field(default_factory=free_port)
    slow_seconds: float = 3.0
    plans: dict[str, Plan] = field(default_factory=dict)
    received: list[Delivered] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def plan(self, path: str, *answers: str, then: str = "ok") -> None:
        self.plans[path] = Plan(list(answers), then)

    def at(self, path: str) -> list[Delivered]:
        return [d for d in self.received if d.path == path]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert scope["type"] == "http"
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        path = str(scope["path"])
        plan = self.plans.setdefault(path, Plan([]))
        answer = plan.answers.pop(0) if plan.answers else plan.then
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        self.received.append(Delivered(path, headers, body, answer))
        self.arrived.set()
        if answer == "slow":
            await asyncio.sleep(self.slow_seconds)
        status = 500 if answer == "fail" else 200
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


@contextlib.asynccontextmanager
async def receiving() -> AsyncIterator[Receiver]:
    """A :class:`Receiver` served by uvicorn for the duration of the block."""
    receiver = Receiver()
    config = uvicorn.Config(
        receiver, host="127.0.0.1", port=receiver.port, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            if task.done():
                await task  # raises what stopped it
            await asyncio.sleep(0.02)
        yield receiver
    finally:
        server.should_exit = True
        await task
