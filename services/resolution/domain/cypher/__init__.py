"""The cypher ruleset of services/resolution (seed 001)."""

from __future__ import annotations

from services.resolution.domain.cypher.ruleset import CypherResolution

__all__ = ["CypherResolution"]
