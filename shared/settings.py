"""Process settings (pydantic-settings, one class per process) and community settings.

Process settings come from the environment or a ``.env`` file (API.md "Running"). Community
settings are the per-tenant rule settings of API.md "Settings", stored by the gateway and
copied into every combat when it starts, so a change never alters a running combat.
"""

from __future__ import annotations

import secrets
from typing import Literal

from pydantic import ConfigDict, Field, StrictBool, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from shared.api_types import ApiModel, Bool, Float, Int
from shared.settings_l5r import L5rSettings


class TimerSettings(ApiModel):
    """Wall-clock limits of a combat (RULES.md 7.1)."""

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
    """Wall-clock states that outlive a combat (RULES.md 7.1)."""

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


class UmhReadings(ApiModel):
    """The readings of RULES.md 6.1 marked "config": the recommended one is the default."""

    model_config = ConfigDict(extra="forbid")

    lone_fighter_bucket_cap: Bool = Field(
        True, description="A-15: the +2 PA never take the lone fighter past the round's PA"
    )
    cooldown_from_next_round: Bool = Field(
        True, description="A-19: a cooldown of n rounds ends at r + n + 1 (false: r + n)"
    )
    annul_anticipate_counter: Literal["per_skill", "shared"] = Field(
        "per_skill", description="A-20: uses counted per skill, or one counter for all"
    )
    stat_below_one: Literal["keep", "clamp"] = Field(
        "keep", description="A-22: a REF / VEL reduced under 1 keeps its value, or becomes 1"
    )
    indirect_per_turn: Bool = Field(
        False, description="A-25: indirect damage ticks per general action (false) or per turn"
    )
    burn_total_split: Bool = Field(
        False, description="A-28: a fire burn of 10 % per action (false) or 10 % over 3"
    )
    sonic_literal: Bool = Field(
        False, description="A-29: the literal reading of a sonic hit past a partial defense"
    )
    grid_metric: Literal["chebyshev", "manhattan"] = Field(
        "chebyshev", description="A-61: a diagonal step is 1 square (chebyshev) or 2"
    )
    ambidextrous_four_plus: tuple[Float, Float] | None = Field(
        None, description="A-78: multipliers for weapons 4+ tiers apart (none: a moderator)"
    )
    unique_weapon_alone: Bool = Field(
        False, description="A-80: reading B (only the unique weapon counts) instead of A"
    )
    intrusion_literal: Bool = Field(
        False, description="A-96: every skill with added effects is a mental intrusion"
    )
    preparation_ends_when_ready: Bool = Field(
        True, description="A-99: the preparation round ends once everyone is ready"
    )


class UmhSettings(ApiModel):
    """umh numbers the seed leaves to the community (RULES.md A-16, A-20, section 6.1)."""

    model_config = ConfigDict(extra="forbid")

    pa_per_round: Int = Field(10, ge=1, le=1000, description="umh 3.1.1 / A-16: PA_MAX")
    uses_per_combat_annul_anticipate: Int = Field(
        5, ge=0, le=1000, description="umh 2.3.4.1: uses of each annulment / anticipation"
    )
    readings: UmhReadings = Field(default_factory=UmhReadings)


class CypherSettings(ApiModel):
    """cypher readings RULES.md 6.2 marks config (seed 001)."""

    model_config = ConfigDict(extra="forbid")

    day_boundary_minutes: Int = Field(
        0, ge=0, le=1439, description="cypher B-9: when the day's rests start again (UTC minutes)"
    )
    literal_low_light: StrictBool = Field(
        False, description="cypher B-23: low-light training may beat the light (literal reading)"
    )


class CommunitySettings(ApiModel):
    """API.md "Settings": per community, defaults from the rules."""

    model_config = ConfigDict(extra="forbid")

    timers: TimerSettings = Field(default_factory=TimerSettings)
    aftermath: AftermathSettings = Field(default_factory=AftermathSettings)
    umh: UmhSettings = Field(default_factory=UmhSettings)
    l5r: L5rSettings = Field(default_factory=L5rSettings)
    cypher: CypherSettings = Field(default_factory=CypherSettings)
    timezone: str = "Europe/Madrid"

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r}") from exc
        return value


Environment = Literal["development", "test", "production"]


class CommonSettings(BaseSettings):
    """What every process reads: where the broker and the store are, and the namespace."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    referee_env: Environment = "development"
    referee_namespace: str = Field("referee", pattern=r"^[a-z][a-z0-9_-]{0,40}$")
    rabbitmq_url: str = "amqp://guest:guest@127.0.0.1:5672/"
    redis_url: str = "redis://127.0.0.1:6379/0"
    referee_partitions: int = Field(32, ge=1, le=1024)
    referee_delivery_limit: int = Field(10, ge=1, le=1000)
    referee_publish_timeout: float = Field(5.0, gt=0)
    log_level: str = "INFO"
    log_json: bool = False

    @property
    def ns(self) -> str:
        return self.referee_namespace


class ServiceSettings(CommonSettings):
    """A service process (turns, resolution or states)."""

    # Isolated rooms this replica serves *instead of* the partitions (ARCHITECTURE.md
    # "Scale and placement"): a comma-separated list; empty = serve the partitions.
    referee_rooms: str = ""
    referee_timer_poll_ms: int = Field(10, ge=1, le=10000)
    referee_timer_lease_ms: int = Field(10000, ge=100)
    referee_outbox_sweep_ms: int = Field(1000, ge=10)
    referee_reconcile_seconds: float = Field(30.0, gt=0)
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
    referee_request_timeout: float = Field(5.0, gt=0, description="API.md: 202 after 5 s")
    referee_max_body_bytes: int = Field(256 * 1024, ge=1024)
    # A request that declares a body must send all of it within this time (408 after).
    referee_body_timeout_seconds: float = Field(15.0, gt=0, le=300)
    # Requests per second each API key may make, and the burst it may save up (429 beyond).
    referee_rate_per_second: float = Field(50.0, gt=0)
    referee_rate_burst: int = Field(100, ge=1)
    # Connections of the gateway's Redis pool for requests (event streams do not use it).
    referee_redis_max_connections: int = Field(512, ge=4, le=100_000)
    # A comment on every idle event stream this often, so proxies keep it open.
    referee_sse_keepalive_seconds: float = Field(15.0, gt=0, le=300)
    # Failed authentications each client address may make at once, and how many a second it
    # earns back (429 beyond, for every credential it presents: docs/hostile-input.md).
    referee_auth_failure_burst: int = Field(20, ge=1)
    referee_auth_failure_per_second: float = Field(0.2, gt=0)

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
