"""The l5r ruleset of services/states (seed 004)."""

from __future__ import annotations

from services.states.domain.l5r.ruleset import L5rAftermath

__all__ = ["L5rAftermath"]
