"""The FastAPI application: the only public API of the suite (API.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from gateway import console, errors
from gateway.bodies import BodyGuard
from gateway.commands import CommandClient
from gateway.context import Gateway
from gateway.fanout import EventHub
from gateway.metrics import MetricsMiddleware
from gateway.ratelimit import RateLimiter
from gateway.recorder import Recorder
from gateway.routes import (
    actions,
    admin,
    aftermath,
    characters,
    combats,
    dice,
    events,
    keys,
    ops,
)
from gateway.routes import settings as settings_routes
from gateway.throttle import AuthThrottle
from shared.bus import Bus
from shared.keys import Keys
from shared.logging import configure, get_logger
from shared.service_main import redis_client
from shared.settings import GatewaySettings

log = get_logger(__name__)

DESCRIPTION = """
Referee for turn-based roleplay combats. Communities call this API with their key
(`Authorization: Bearer <key>`); every error has the body
`{"error": {"code", "message", "rule", "details"}}` (Spanish with `Accept-Language: es`).
"""


def create_app(settings: GatewaySettings | None = None) -> FastAPI:
    settings = settings or GatewaySettings()
    configure(level=settings.log_level, json=settings.log_json, service="gateway")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        names = Keys(settings.ns)
        redis = redis_client(
            settings.redis_url, max_connections=settings.referee_redis_max_connections
        )
        # The event streams' readers (one per community) block on a client of their own.
        stream_redis = redis_client(settings.redis_url, max_connections=100_000)
        hub = EventHub(stream_redis, names)
        bus = Bus.from_settings(settings)
        await bus.connect()
        await bus.declare_topology()
        client = CommandClient(bus, wait_seconds=settings.referee_request_timeout)
        await client.start()
        recorder = Recorder(redis, bus, names)
        await recorder.start()
        limiter = RateLimiter(
            redis, rate=settings.referee_rate_per_second, burst=settings.referee_rate_burst
        )
        throttle = AuthThrottle(
            redis,
            names,
            rate=settings.referee_auth_failure_per_second,
            burst=settings.referee_auth_failure_burst,
        )
        app.state.gateway = Gateway(
            settings, redis, bus, names, client, recorder, limiter, throttle, hub
        )
        if settings.admin_token_generated:
            log.warning(
                "admin_token_generated",
                token=settings.referee_admin_token,
                hint="set REFEREE_ADMIN_TOKEN (make run writes one to .env)",
            )
        log.info("gateway_started", namespace=settings.ns)
        try:
            yield
        finally:
            await hub.close()
            await recorder.stop()
            await bus.close()
            await redis.aclose()
            await stream_redis.aclose()

    app = FastAPI(
        title="Combat referee",
        version="1.0.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        responses=errors.ERROR_RESPONSES,
    )
    errors.install(app)
    app.add_middleware(MetricsMiddleware)
    app.add_middleware(
        BodyGuard,
        max_bytes=settings.referee_max_body_bytes,
        timeout_seconds=settings.referee_body_timeout_seconds,
    )
    for module in (admin, keys, settings_routes, characters, combats, actions, events, ops):
        app.include_router(module.router)
    app.include_router(aftermath.router)
    app.include_router(dice.router)
    console.mount(app)
    return app
