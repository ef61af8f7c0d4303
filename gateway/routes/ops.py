"""API.md "Operations": liveness, readiness, metrics."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from gateway.context import Gateway, gateway
from gateway.schemas.answers import Health, Readiness
from shared.messages import SERVICES

router = APIRouter(tags=["operations"])

_READY_CACHE_S = 1.0


@router.get("/healthz", responses={200: {"model": Health}})
async def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


async def _check(gw: Gateway) -> tuple[int, dict[str, Any]]:
    checks: dict[str, Any] = {}
    try:
        async with asyncio.timeout(2):
            await gw.redis.ping()
        checks["redis"] = "ok"
    except Exception as exc:
        checks["redis"] = f"down: {exc!r}"
    checks["rabbitmq"] = "ok" if gw.bus.is_connected else "down"
    consumers: dict[str, str] = {}
    if gw.bus.is_connected:
        for service in SERVICES:
            names = [gw.bus.names.partition(service, i) for i in range(gw.bus.partitions)]
            try:
                async with asyncio.timeout(3):
                    counts = await gw.bus.consumer_counts(names)
                idle = [n for n, c in counts.items() if c == 0]
                consumers[service] = "ok" if not idle else f"no consumer on {len(idle)} queues"
            except Exception as exc:
                consumers[service] = f"unknown: {exc!r}"
    checks["consumers"] = consumers
    ready = (
        checks["redis"] == "ok"
        and checks["rabbitmq"] == "ok"
        and len(consumers) == len(SERVICES)
        and all(v == "ok" for v in consumers.values())
    )
    return (200 if ready else 503), {"status": "ready" if ready else "not_ready", "checks": checks}


@router.get(
    "/readyz",
    responses={
        200: {"model": Readiness},
        503: {"model": Readiness, "description": "not ready (same body)"},
    },
)
async def readyz(gw: Annotated[Gateway, Depends(gateway)]) -> JSONResponse:
    """RabbitMQ and Redis reachable, and every service has a live consumer on every queue."""
    cache = gw.ready_cache
    now = time.monotonic()
    if cache.get("body") is None or now - cache.get("at", 0.0) > _READY_CACHE_S:
        status, body = await _check(gw)
        cache.update(at=now, body=body, status=status)
    return JSONResponse(cache["body"], status_code=cache["status"])


@router.get(
    "/metrics",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text format"}},
)
async def metrics() -> Response:
    """Prometheus text format."""
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
