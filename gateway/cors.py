"""Browsers: CORS per community, and ``OPTIONS`` on every path (docs/browsers.md).

A plain ASGI middleware in front of everything else, so that every answer (errors, 413,
429, event streams) carries the same headers:

- a request with an ``Origin`` gets ``Access-Control-Allow-Origin`` (that origin) and
  ``Access-Control-Expose-Headers`` when the origin is allowed: by the community of the key
  or stream token it authenticated with, or, when it did not authenticate (a 401), by any
  community, so that the browser can read the error. Other origins get no CORS header at
  all, and the browser keeps the answer from the page;
- a preflight (``OPTIONS`` with ``Access-Control-Request-Method``) carries no credentials, so
  it cannot be tied to a community: it is answered for an origin that *some* community allows,
  with the methods the path serves and the request headers the API reads. That tells the
  origin nothing about any community's data; the request that follows carries its key, and its
  answer is readable only if that key's community allows the origin;
- any other ``OPTIONS`` is answered 204 with ``Allow``.

Every answer says ``Vary: Origin``.
"""

from __future__ import annotations

import contextlib
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gateway.allow import allowed_methods
from gateway.errors import error_response
from gateway.origins import Origins

EXPOSED = (
    "Location, Retry-After, RateLimit, RateLimit-Policy, Content-Language, "
    "Idempotent-Replayed, WWW-Authenticate, Allow, X-Request-ID"
)
REQUEST_HEADERS = (
    "Authorization, Content-Type, Idempotency-Key, If-Match, Last-Event-ID, "
    "Accept, Accept-Language, Cache-Control, X-Request-ID"
)
MAX_AGE_SECONDS = 600
PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"


class Cors:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if scope["method"] == "OPTIONS":
            await _Options(scope, headers, origin)(scope, receive, send)
            return

        async def send_with_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer = MutableHeaders(scope=message)
                answer.add_vary_header("Origin")
                if origin is not None and await _allowed(scope, origin):
                    answer["Access-Control-Allow-Origin"] = origin
                    answer["Access-Control-Expose-Headers"] = EXPOSED
            await send(message)

        await self.app(scope, receive, send_with_cors)


class _Options:
    """The answer to an ``OPTIONS``, decided when it is sent (it may ask Redis)."""

    def __init__(self, scope: Scope, headers: Headers, origin: str | None) -> None:
        self.scope, self.headers, self.origin = scope, headers, origin

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await self._answer()
        await response(scope, receive, send)

    async def _answer(self) -> Response:
        request = Request(self.scope)
        methods = allowed_methods(self.scope["app"].router.routes, self.scope)
        if not methods:
            return _vary(await error_response(request, "not_found"), "Origin")
        allow = ", ".join(methods)
        wanted = self.headers.get("access-control-request-method")
        if self.origin is None or wanted is None:
            return _vary(Response(status_code=204, headers={"Allow": allow}), "Origin")
        if not await _known_anywhere(self.scope, self.origin):
            refused = await error_response(
                request,
                "origin_not_allowed",
                details={"origin": self.origin},
                headers={"Allow": allow},
            )
            return _vary(refused, PREFLIGHT_VARY)
        if wanted.upper() not in methods:
            return _vary(
                await error_response(request, "method_not_allowed", headers={"Allow": allow}),
                PREFLIGHT_VARY,
            )
        granted = {
            "Allow": allow,
            "Access-Control-Allow-Origin": self.origin,
            "Access-Control-Allow-Methods": allow,
            "Access-Control-Allow-Headers": REQUEST_HEADERS,
            "Access-Control-Max-Age": str(MAX_AGE_SECONDS),
        }
        return _vary(Response(status_code=204, headers=granted), PREFLIGHT_VARY)


def _vary(response: Response, vary: str) -> Response:
    response.headers["Vary"] = vary
    return response


def _origins(scope: Scope) -> Origins | None:
    gw: Any = getattr(scope["app"].state, "gateway", None)
    return None if gw is None else Origins(gw.redis, gw.keys)


async def _allowed(scope: Scope, origin: str) -> bool:
    """Whether the answer to this request may be read by a page of ``origin``."""
    principal = scope.get("state", {}).get("principal")
    tenant = getattr(principal, "community_id", None)
    origins = _origins(scope)
    if origins is None:
        return False
    with contextlib.suppress(Exception):  # no CORS header rather than no answer at all
        if tenant is not None:
            return await origins.allowed_by(tenant, origin.lower())
        return await origins.allowed_anywhere(origin.lower())
    return False


async def _known_anywhere(scope: Scope, origin: str) -> bool:
    origins = _origins(scope)
    if origins is None:
        return False
    with contextlib.suppress(Exception):
        return await origins.allowed_anywhere(origin.lower())
    return False
