"""Prometheus metrics of the gateway (``GET /metrics``)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from fastapi import Request, Response
from prometheus_client import Counter, Histogram

REQUESTS = Counter("referee_http_requests_total", "HTTP requests", ["method", "route", "status"])
REQUEST_SECONDS = Histogram(
    "referee_http_request_seconds", "HTTP request duration", ["method", "route"]
)
COMMAND_SECONDS = Histogram(
    "referee_command_roundtrip_seconds",
    "From publishing a command to its outcome (or the 202 timeout)",
    ["type", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)


async def observe(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    started = time.perf_counter()
    response = await call_next(request)
    route = request.scope.get("route")
    path = getattr(route, "path", "unmatched")
    REQUESTS.labels(request.method, path, str(response.status_code)).inc()
    REQUEST_SECONDS.labels(request.method, path).observe(time.perf_counter() - started)
    return response
