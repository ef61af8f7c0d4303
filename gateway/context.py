"""The gateway's adapters, wired once at start-up and reached from every route."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from redis.asyncio import Redis

from gateway.availability import Availability
from gateway.commands import CommandClient
from gateway.fanout import EventHub
from gateway.ratelimit import RateLimiter
from gateway.recorder import Recorder
from gateway.throttle import AuthThrottle
from gateway.webhooks.store import WebhookStore
from shared.bus import Bus
from shared.keys import Keys
from shared.settings import GatewaySettings


@dataclass
class Gateway:
    settings: GatewaySettings
    redis: Redis
    bus: Bus
    keys: Keys
    client: CommandClient
    recorder: Recorder
    limiter: RateLimiter
    auth_throttle: AuthThrottle
    hub: EventHub
    webhooks: WebhookStore
    ready_cache: dict[str, Any] = field(default_factory=dict)
    availability: Availability | None = None


async def gateway(request: Request) -> Gateway:
    """A dependency; async so FastAPI runs it on the loop, not in its thread pool."""
    gw: Gateway = request.app.state.gateway
    return gw
