"""Process settings (pydantic-settings, one class per process) and community settings.

Process settings come from the environment or a ``.env`` file (README.md). Community
settings are the per-tenant rule settings of docs/api.md "Endpoints", stored by the gateway and
copied into every combat when it starts, so a change never alters a running combat.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from shared.api_types import ApiModel, Int
from shared.frontend_settings import CorsSettings, VisibilitySettings
from shared.rulesets.registry import RULESETS
from shared.timers import DEFAULT_SHARDS as DEFAULT_TIMER_SHARDS

Block = TypeVar("Block", bound=BaseModel)


class TimerSettings(ApiModel):
    """Wall-clock limits of a combat (docs/rules.md 7.1)."""

    model_config = ConfigDict(extra="forbid")

    turn_seconds: Int = Field(300, ge=1, le=86400, description="umh 2.3.5: a turn lasts 5 minutes")
    defense_seconds: Int = Field(300, ge=1, le=86400, description="umh 2.4.2: 5 minutes to defend")
    preparation_seconds: Int = Field(
        120, ge=1, le=86400, description="umh 1.3.1: the preparation round lasts 2 minutes"
    )
    disconnect_seconds: Int = Field(
        600, ge=1, le=86400, description="umh 4.3.3: 10 minutes to come back"
    )
    veto_seconds: Int | None = Field(
        None,
        ge=1,
        le=86400,
        description="umh 1.2.4.1: how long a side may veto an IRRUMPIR (none: defense_seconds)",
    )


class AftermathSettings(ApiModel):
    """Wall-clock states that outlive a combat (docs/rules.md 7.1)."""

    model_config = ConfigDict(extra="forbid")

    immunity_seconds: Int = Field(300, ge=1, le=30 * 86400, description="umh 4.2.1 / 4.2.2 / 4.2.4")
    flee_room_ban_seconds: Int = Field(900, ge=1, le=30 * 86400, description="umh 4.2.3")
    flee_cooldown_seconds: Int = Field(259200, ge=1, le=30 * 86400, description="umh 4.1.1.1.1")
    imprisonment_max_seconds: Int = Field(259200, ge=1, le=30 * 86400, description="umh 4.5.2")
    vigor_recovery_seconds: Int = Field(
        604800,
        ge=1,
        le=30 * 86400,
        description="umh 4.1.6 / A-73: the VIGOR SYSTEM's recovery time; all lost points at once",
    )
    carried_vit_recovery_seconds: Int = Field(
        0,
        ge=0,
        le=30 * 86400,
        description="umh 4.1.7: after a combat, the VIT he kept heals whole this long after its "
        "end; 0: only a moderator heals it",
    )


class PlatformSettings(ApiModel):
    """The part of docs/api.md "Endpoints" every ruleset shares; :data:`CommunitySettings` adds one
    block per registered ruleset under its name (``umh``, ``cypher``, ``l5r``). ``cors`` and
    ``visibility`` concern frontends (shared/frontend_settings.py): the gateway reads them
    when it serves, so they apply to running combats too."""

    model_config = ConfigDict(extra="forbid")

    timers: TimerSettings = Field(default_factory=TimerSettings)
    aftermath: AftermathSettings = Field(default_factory=AftermathSettings)
    timezone: str = "Europe/Madrid"
    cors: CorsSettings = Field(default_factory=CorsSettings)
    visibility: VisibilitySettings = Field(default_factory=VisibilitySettings)
    language: Literal["es", "en"] = Field(
        "es",
        description="the language of narration and messages when a request's Accept-Language "
        "names neither es nor en (docs/events.md)",
    )

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r}") from exc
        return value

    def ruleset(self, name: str, kind: type[Block]) -> Block:
        """The block of the ruleset ``name`` (its settings class is ``kind``)."""
        block = getattr(self, name)
        if not isinstance(block, kind):
            raise TypeError(f"the {name} settings are a {type(block).__name__}, not {kind}")
        return block


def _blocks() -> dict[str, Any]:
    return {
        ruleset.name: (ruleset.settings, Field(default_factory=ruleset.settings))
        for ruleset in RULESETS
    }


if TYPE_CHECKING:
    CommunitySettings = PlatformSettings
else:
    CommunitySettings = create_model(
        "CommunitySettings",
        __base__=PlatformSettings,
        __doc__='docs/api.md "Endpoints": per community, defaults from the rules.',
        __module__=__name__,
        **_blocks(),
    )


def known_only(model: type[BaseModel], data: Any) -> Any:
    """``data`` without the keys ``model`` does not know, nested models included: settings
    read from a message between services (a snapshot in ``combat.start``/``combat.started``)
    are read tolerantly, so a setting a newer service added does not make an older one fail
    every delivery and dead-letter the message (the chaos soak found exactly that across a
    restart onto newer code). The API's settings stay strict."""
    if not isinstance(data, dict):
        return data
    out: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        key = field.alias or name
        if key not in data:
            continue
        kind = field.annotation
        nested = isinstance(kind, type) and issubclass(kind, BaseModel)
        out[key] = known_only(kind, data[key]) if nested else data[key]  # type: ignore[arg-type]
    return out


def settings_from_message(data: Any) -> PlatformSettings:
    """The community settings a message carries, read tolerantly (:func:`known_only`)."""
    settings: PlatformSettings = CommunitySettings.model_validate(
        known_only(CommunitySettings, data or {})
    )
    return settings


Environment = Literal["development", "test", "production"]


class CommonSettings(BaseSettings):
    """What every process reads: where the broker and the store are, and the namespace."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    referee_env: Environment = "development"
    referee_namespace: str = Field("referee", pattern=r"^[a-z][a-z0-9_-]{0,40}$")
    rabbitmq_url: str = "amqp://guest:guest@127.0.0.1:5672/"
    redis_url: str = "redis://127.0.0.1:6379/0"
    # Partition queues per service: a small default that lets several namespaces share one
    # RabbitMQ on one machine (each queue holds file descriptors); 32 in production
    # (deploy/README.md "Partitions and broker footprint"). The same for every process.
    referee_partitions: int = Field(4, ge=1, le=1024)
    referee_delivery_limit: int = Field(10, ge=1, le=1000)
    referee_publish_timeout: float = Field(5.0, gt=0)
    # Publishes to the events exchange or a reply queue asked for while one to the same
    # destination is in flight go out together as one batch message (shared/coalesce.py).
    referee_coalesce_publishes: bool = True
    log_level: str = "INFO"
    log_json: bool = False

    @property
    def ns(self) -> str:
        return self.referee_namespace


class ServiceSettings(CommonSettings):
    """A service process (turns, resolution or states)."""

    # Isolated rooms this replica serves *instead of* the partitions (docs/DESIGN.md
    # "Scale and placement"): a comma-separated list; empty = serve the partitions.
    referee_rooms: str = ""
    referee_timer_poll_ms: int = Field(10, ge=1, le=10000)
    referee_timer_lease_ms: int = Field(10000, ge=100)
    # Timer shards per service, each a Redis Cluster slot of its own (shared/timers.py); a
    # timer is in the shard of its combat. The same for every replica of a namespace.
    referee_timer_shards: int = Field(DEFAULT_TIMER_SHARDS, ge=1, le=256)
    referee_outbox_sweep_ms: int = Field(1000, ge=10)
    # A commit's events to one destination as one events.batch message (docs/DESIGN.md step
    # 4); off (0): one message per event, what a version before batches can read
    # (deploy/README.md "Upgrading to event batches").
    referee_event_batches: bool = True
    referee_reconcile_seconds: float = Field(30.0, gt=0)
    # A replica unhealthy this long (no consumer attached, timer poller stuck) exits with
    # status 1 for its supervisor to restart it (shared/liveness.py); 0 never exits.
    referee_unhealthy_exit_seconds: float = Field(60.0, ge=0)
    referee_combat_retention_seconds: int = Field(7 * 86400, ge=60)
    # Prometheus metrics of the replica on this port (0: not served).
    referee_metrics_port: int = Field(0, ge=0, le=65535)
    referee_metrics_host: str = "127.0.0.1"

    @property
    def rooms(self) -> list[str]:
        return [r.strip() for r in self.referee_rooms.split(",") if r.strip()]


class GatewaySettings(CommonSettings):
    gateway_host: str = "127.0.0.1"
    gateway_port: int = Field(8000, ge=0, le=65535)
    referee_admin_token: str = ""
    referee_request_timeout: float = Field(5.0, gt=0, description="docs/api.md: 202 after 5 s")
    referee_max_body_bytes: int = Field(256 * 1024, ge=1024)
    # A request that declares a body must send all of it within this time (408 after).
    referee_body_timeout_seconds: float = Field(15.0, gt=0, le=300)
    # Requests per second each API key may make, and the burst it may save up (429 beyond).
    referee_rate_per_second: float = Field(50.0, gt=0)
    referee_rate_burst: int = Field(100, ge=1)
    # Failed authentications each client address may make at once, and how many a second it
    # earns back (429 beyond, for every credential it presents: docs/hostile-input.md).
    referee_auth_failure_burst: int = Field(20, ge=1)
    referee_auth_failure_per_second: float = Field(0.2, gt=0)
    # Connections of the gateway's Redis pool for requests (event streams do not use it).
    referee_redis_max_connections: int = Field(512, ge=4, le=100_000)
    # A comment on every idle event stream this often, so proxies keep it open.
    referee_sse_keepalive_seconds: float = Field(15.0, gt=0, le=300)
    # Webhooks (docs/webhooks.md): how long an attempt may take, the first retry's delay
    # (doubling up to the cap), how long retries go on, how long delivery records are kept,
    # attempts at once per gateway process, how often the schedule is polled, and whether
    # endpoints may be on loopback or private addresses (development and tests only).
    referee_webhook_timeout_seconds: float = Field(10.0, gt=0, le=60)
    referee_webhook_retry_base_seconds: float = Field(5.0, gt=0, le=3600)
    referee_webhook_retry_cap_seconds: float = Field(4 * 3600.0, gt=0, le=86400)
    referee_webhook_retry_for_seconds: float = Field(86400.0, gt=0, le=7 * 86400)
    referee_webhook_keep_seconds: int = Field(3 * 86400, ge=60, le=30 * 86400)
    referee_webhook_concurrency: int = Field(16, ge=1, le=1000)
    referee_webhook_poll_seconds: float = Field(0.2, gt=0, le=60)
    referee_webhook_allow_private: bool = False
    # GET /metrics needs `Authorization: Bearer <this>` when set; in production it is not
    # served at all without one (deploy/README.md "Observability").
    referee_metrics_token: str = ""

    @model_validator(mode="after")
    def _admin_token(self) -> GatewaySettings:
        if not self.referee_admin_token:
            if self.referee_env == "production":
                raise ValueError("REFEREE_ADMIN_TOKEN must be set outside development")
            self.referee_admin_token = secrets.token_urlsafe(32)
            self._generated_token = True
        elif self.referee_env == "production" and len(self.referee_admin_token) < 24:
            raise ValueError("REFEREE_ADMIN_TOKEN is too short for production (24+ chars)")
        return self

    @property
    def admin_token_generated(self) -> bool:
        return bool(getattr(self, "_generated_token", False))
