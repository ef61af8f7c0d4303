"""The l5r ruleset of services/resolution (seed 004)."""

from __future__ import annotations

from services.resolution.domain.l5r.ruleset import L5rResolution

__all__ = ["L5rResolution"]
