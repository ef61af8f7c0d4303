"""A request id on every answer and in every log line of the gateway (issue 16, item 5).

The id is the client's ``X-Request-ID`` when it is a short token (a proxy's id goes on
through), else a fresh one; the answer carries it in ``X-Request-ID`` and every log line
written while the request is handled carries it as ``request_id`` (structlog context
variables). A plain ASGI middleware, outermost, so errors and preflights get it too.
"""

from __future__ import annotations

import re
import uuid

import structlog
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = "X-Request-ID"
_ACCEPTED = re.compile(r"^[A-Za-z0-9._:-]{8,64}$")


def request_id(offered: str | None) -> str:
    """The client's id when it is a plain token of 8-64 characters, else a fresh one."""
    if offered and _ACCEPTED.match(offered):
        return offered
    return uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        offered = None
        for name, value in scope.get("headers", []):
            if name == b"x-request-id":
                offered = value.decode("latin-1")
                break
        rid = request_id(offered)
        scope.setdefault("state", {})["request_id"] = rid

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[HEADER] = rid
            await send(message)

        with structlog.contextvars.bound_contextvars(request_id=rid):
            await self.app(scope, receive, send_with_id)
