"""The FastAPI application: the only public API of the suite (docs/api.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from redis.asyncio import Redis

from gateway import console, errors
from gateway.availability import Availability
from gateway.bodies import BodyGuard
from gateway.commands import CommandClient
from gateway.context import Gateway
from gateway.cors import Cors
from gateway.fanout import EventHub
from gateway.metrics import MetricsMiddleware
from gateway.openapi import contract, operation_id
from gateway.ratelimit import RateLimiter, RateLimitHeaders
from gateway.recorder import Recorder
from gateway.request_ids import RequestIdMiddleware
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
    rooms,
    stream_tokens,
    webhooks,
)
from gateway.routes import settings as settings_routes
from gateway.schemas.events import event_schema
from gateway.throttle import AuthThrottle
from gateway.webhooks.enqueue import Deliveries
from gateway.webhooks.schedule import Backoff
from gateway.webhooks.sender import Sender
from gateway.webhooks.store import WebhookStore
from gateway.webhooks.told import told_body
from gateway.webhooks.worker import DeliveryWorker
from shared import tracing
from shared.bus import Bus
from shared.keys import Keys
from shared.logging import configure, get_logger
from shared.redis_client import redis_client
from shared.service_main import until_redis_ready
from shared.settings import GatewaySettings

log = get_logger(__name__)

DESCRIPTION = """
Referee for turn-based roleplay combats. Communities call this API with their key
(`Authorization: Bearer <key>`); every error has the body
`{"error": {"code", "message", "rule", "details"}}` (Spanish with `Accept-Language: es`).
"""


def delivery_worker(
    settings: GatewaySettings, webhooks: WebhookStore, redis: Redis, names: Keys
) -> DeliveryWorker:
    """This process's webhook delivery worker (docs/webhooks.md)."""
    timeout = settings.referee_webhook_timeout_seconds
    if settings.referee_webhook_allow_private:
        log.warning("webhooks_may_reach_private_addresses")
    return DeliveryWorker(
        webhooks,
        Sender(
            timeout_seconds=timeout,
            allow_private=settings.referee_webhook_allow_private,
            connections=settings.referee_webhook_concurrency,
        ),
        Backoff(
            settings.referee_webhook_retry_base_seconds,
            settings.referee_webhook_retry_cap_seconds,
            settings.referee_webhook_retry_for_seconds,
        ),
        lease_ms=int((timeout + 20) * 1000),
        poll_seconds=settings.referee_webhook_poll_seconds,
        concurrency=settings.referee_webhook_concurrency,
        body=told_body(redis, names),
    )


def create_app(settings: GatewaySettings | None = None) -> FastAPI:
    settings = settings or GatewaySettings()
    configure(level=settings.log_level, json=settings.log_json, service="gateway")
    tracing.start("gateway")  # before the bus consumes (off unless configured)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        names = Keys(settings.ns)
        redis = redis_client(
            settings.redis_url, max_connections=settings.referee_redis_max_connections
        )
        # The event streams' readers (one per community) block on a client of their own.
        stream_redis = redis_client(settings.redis_url, max_connections=100_000)
        await until_redis_ready(redis)
        hub = EventHub(stream_redis, names)
        bus = Bus.from_settings(settings)
        await bus.connect()
        await bus.declare_topology()
        availability = Availability(bus)
        client = CommandClient(
            bus, wait_seconds=settings.referee_request_timeout, require=availability.require
        )
        await client.start()
        webhooks = WebhookStore(redis, names, keep_seconds=settings.referee_webhook_keep_seconds)
        recorder = Recorder(redis, bus, names, Deliveries(webhooks))
        await recorder.start()
        worker = delivery_worker(settings, webhooks, redis, names)
        worker.start()
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
            settings,
            redis,
            bus,
            names,
            client,
            recorder,
            limiter,
            throttle,
            hub,
            webhooks,
            availability=availability,
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
            await worker.stop()
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
        generate_unique_id_function=operation_id,
    )
    app.openapi = contract(app, event_schema)  # type: ignore[method-assign]
    errors.install(app)
    app.add_middleware(MetricsMiddleware)
    app.add_middleware(RateLimitHeaders)
    app.add_middleware(
        BodyGuard,
        max_bytes=settings.referee_max_body_bytes,
        timeout_seconds=settings.referee_body_timeout_seconds,
    )
    app.add_middleware(Cors)  # every answer, errors included, gets its headers
    app.add_middleware(RequestIdMiddleware)  # outermost: every answer gets X-Request-ID
    for module in (
        admin,
        keys,
        settings_routes,
        characters,
        combats,
        rooms,
        actions,
        events,
        stream_tokens,
        webhooks,
        ops,
    ):
        app.include_router(module.router)
    app.include_router(aftermath.router)
    app.include_router(dice.router)
    console.mount(app)
    tracing.instrument_app(app)
    return app
