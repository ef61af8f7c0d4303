"""Request bodies: bounded in size and in the time a client may take to send them.

An ASGI middleware in front of the whole app (uvicorn has no read timeout for a body, and
``timeout_keep_alive`` only covers the wait *between* requests):

- a body declared larger than the limit (``Content-Length``) is refused at once with 413
  and the docs/api.md error body, without reading it; a chunked body is counted as it arrives
  and refused with the same answer once it passes the limit;
- a request that declares a body must send all of it within ``timeout`` seconds of its
  head (a total, so a client trickling one byte a second is cut too); otherwise it gets
  408 ``request_timeout`` and the connection is closed.

Both answers carry ``Connection: close``: the rest of the body is never read.
"""

from __future__ import annotations

import asyncio

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.errors import error_response

CLOSE = {"Connection": "close"}


class BodyGuard:
    def __init__(self, app: ASGIApp, *, max_bytes: int, timeout_seconds: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_seconds = timeout_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        declared = _declared_length(headers)
        if declared is not None and declared > self.max_bytes:
            response = await error_response(
                Request(scope), "payload_too_large", status=413, headers=CLOSE
            )
            await response(scope, receive, send)
            return
        chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        if not chunked and not declared:
            await self.app(scope, receive, send)
            return
        await self.app(scope, _Guarded(receive, self.max_bytes, self.timeout_seconds), send)


def _declared_length(headers: Headers) -> int | None:
    raw = headers.get("content-length")
    if raw is None or not raw.strip().isdigit():
        return None  # uvicorn refuses a malformed length before the app sees it
    return int(raw)


class _Guarded:
    """``receive`` with a deadline for the whole body and a running byte count."""

    def __init__(self, receive: Receive, max_bytes: int, timeout_seconds: float) -> None:
        self._receive = receive
        self._max_bytes = max_bytes
        self._deadline = asyncio.get_running_loop().time() + timeout_seconds
        self._received = 0
        self._complete = False

    async def __call__(self) -> Message:
        if self._complete:
            return await self._receive()  # after the body: only http.disconnect, unbounded
        remaining = self._deadline - asyncio.get_running_loop().time()
        try:
            async with asyncio.timeout(max(remaining, 0.0)):
                message = await self._receive()
        except TimeoutError:
            raise HTTPException(408, "request body not received in time", CLOSE) from None
        if message["type"] != "http.request":
            self._complete = True
            return message
        self._received += len(message.get("body", b""))
        if self._received > self._max_bytes:
            raise HTTPException(413, "request body too large", CLOSE)
        if not message.get("more_body", False):
            self._complete = True
        return message
