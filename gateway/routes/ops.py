"""docs/api.md "Endpoints": liveness, readiness, metrics."""

from __future__ import annotations

import asyncio
import hmac
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from gateway.availability import Availability
from gateway.context import Gateway, gateway
from gateway.errors import ApiError
from gateway.schemas.answers import Health, Readiness

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
    availability = gw.availability or Availability(gw.bus)
    checks["consumers"] = await availability.states()
    # Reads need only Redis: a service that is down costs its commands (503), not the reads.
    ready = checks["redis"] == "ok" and checks["rabbitmq"] == "ok"
    serving = ready and all(state == "ok" for state in checks["consumers"].values())
    status = "ready" if serving else "degraded" if ready else "not_ready"
    return (200 if ready else 503), {"status": status, "checks": checks}


@router.get(
    "/readyz",
    responses={
        200: {"model": Readiness},
        503: {"model": Readiness, "description": "not ready (same body)"},
    },
)
async def readyz(gw: Annotated[Gateway, Depends(gateway)]) -> JSONResponse:
    """Ready (200) while Redis and RabbitMQ answer: reads are served. ``status`` is
    ``degraded`` when a service has no consumer on some partition (its commands get 503
    with ``Retry-After``; ``checks.consumers`` says which)."""
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
async def metrics(
    gw: Annotated[Gateway, Depends(gateway)],
    authorization: Annotated[str | None, Header()] = None,
) -> Response:
    """Prometheus text format; with ``REFEREE_METRICS_TOKEN`` set, only for
    ``Authorization: Bearer <token>``; in production, not served without a token."""
    token = gw.settings.referee_metrics_token
    if token:
        offered = (authorization or "").removeprefix("Bearer ").strip()
        if not hmac.compare_digest(offered.encode(), token.encode()):
            raise ApiError("unauthorized", status=401, headers={"WWW-Authenticate": "Bearer"})
    elif gw.settings.referee_env == "production":
        raise ApiError("not_found", status=404)
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
