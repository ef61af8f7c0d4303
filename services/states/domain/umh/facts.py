"""What services/states keeps of a character sheet, and of the settings a combat started with.

A combat snapshots its sheets when it starts (and a joiner's when he joins); the aftermath
needs only a few facts of them: rank and alliance (umh 4.4.4, 4.4.5), the profile and the
flight skills (4.1.1.1.1 - 4.1.1.1.2), the post-combat skills and the cell (4.1.2, 4.5.1),
and the skills that earn a requirement when used (4.4.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

DEFAULT_TIMEZONE: Final = "Europe/Madrid"
"""umh 2.3.4.2: weeks are counted in Spanish peninsular time (hpe)."""


@dataclass(frozen=True)
class PostCombatFacts:
    """A skill's post-combat effect (umh 4.1.2, 4.5.1): ``vigor`` | ``state`` | ``imprison``."""

    kind: str
    vigor: int = 0
    state: str | None = None
    seconds: int | None = None
    stacks: bool = False


@dataclass(frozen=True)
class SheetFacts:
    """The facts of one sheet the aftermath needs."""

    rank: int | None = None
    alliance: str | None = None
    profile: str = "basic"
    cell: bool = False
    post_combat: Mapping[str, PostCombatFacts] = field(default_factory=dict)
    requirement_skills: tuple[str, ...] = ()
    flight_cooldown_hours: Mapping[str, float | None] = field(default_factory=dict)

    def post_combat_skill(self, name: str) -> tuple[str, PostCombatFacts] | None:
        """The post-combat skill called ``name`` (case-insensitive, as sheets compare names)."""
        folded = name.casefold()
        return next(((n, p) for n, p in self.post_combat.items() if n.casefold() == folded), None)

    def has_requirement_skill(self, name: str) -> bool:
        folded = name.casefold()
        return any(n.casefold() == folded for n in self.requirement_skills)


@dataclass(frozen=True)
class AftermathConfig:
    """The community settings a combat took when it started (docs/api.md "Endpoints"), in ms."""

    immunity_ms: int = 300_000
    room_ban_ms: int = 900_000
    flee_cooldown_ms: int = 259_200_000
    imprisonment_max_ms: int = 259_200_000
    vigor_recovery_ms: int = 604_800_000
    carried_vit_recovery_ms: int = 0  # umh 4.1.7: 0, the VIT kept heals only by a moderator
    timezone: str = DEFAULT_TIMEZONE

    @classmethod
    def from_settings(cls, settings: Mapping[str, object]) -> AftermathConfig:
        """From a ``CommunitySettings`` dump; missing values keep the rules' defaults."""
        aftermath = settings.get("aftermath")
        values = aftermath if isinstance(aftermath, Mapping) else {}
        default = cls()

        def millis(name: str, fallback: int) -> int:
            value = values.get(name)
            return int(value) * 1000 if isinstance(value, int | float) else fallback

        timezone = settings.get("timezone")
        return cls(
            immunity_ms=millis("immunity_seconds", default.immunity_ms),
            room_ban_ms=millis("flee_room_ban_seconds", default.room_ban_ms),
            flee_cooldown_ms=millis("flee_cooldown_seconds", default.flee_cooldown_ms),
            imprisonment_max_ms=millis("imprisonment_max_seconds", default.imprisonment_max_ms),
            vigor_recovery_ms=millis("vigor_recovery_seconds", default.vigor_recovery_ms),
            carried_vit_recovery_ms=millis(
                "carried_vit_recovery_seconds", default.carried_vit_recovery_ms
            ),
            timezone=timezone if isinstance(timezone, str) else DEFAULT_TIMEZONE,
        )
