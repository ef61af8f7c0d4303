"""Prometheus metrics of the gateway (``GET /metrics``), as a plain ASGI middleware."""

from __future__ import annotations

import time

from prometheus_client import Counter, Gauge, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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

SSE_VIEWERS = Gauge("referee_sse_viewers", "Event streams connected to this gateway process")
RECORDER_LAG = Gauge(
    "referee_recorder_lag_seconds",
    "From the newest recorded event's occurrence to its record in the community's stream",
)
RECORDER_BACKLOG = Gauge(
    "referee_recorder_backlog", "Public events received by this gateway and not yet recorded"
)
SSE_READERS = Gauge(
    "referee_sse_readers", "Community streams this gateway process reads (one per community)"
)


class MetricsMiddleware:
    """Counts requests and their duration by route template (not by raw path)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            route = scope.get("route")
            path = str(getattr(route, "path", "unmatched"))
            method = str(scope.get("method", ""))
            REQUESTS.labels(method, path, str(status)).inc()
            REQUEST_SECONDS.labels(method, path).observe(time.perf_counter() - started)
