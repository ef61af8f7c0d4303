"""The l5r ruleset of services/turns (seed 004)."""

from __future__ import annotations

from services.turns.domain.l5r.ruleset import L5rTurns

__all__ = ["L5rTurns"]
