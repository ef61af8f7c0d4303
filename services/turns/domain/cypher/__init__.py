"""The cypher ruleset of services/turns (seed 001)."""

from __future__ import annotations

from services.turns.domain.cypher.ruleset import CypherTurns

__all__ = ["CypherTurns"]
