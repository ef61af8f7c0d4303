"""The cypher ruleset of services/states (seed 001)."""

from __future__ import annotations

from services.states.domain.cypher.ruleset import CypherAftermath

__all__ = ["CypherAftermath"]
