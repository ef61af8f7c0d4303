"""The rulesets services/resolution computes, by name: the only place this service lists them.

Adding one is a folder ``domain/<ruleset>/`` whose ``ruleset.py`` implements
:mod:`services.resolution.interface`, and one line here (docs/DESIGN.md "Rulesets").
"""

from __future__ import annotations

from services.resolution.domain.cypher import CypherResolution
from services.resolution.domain.l5r import L5rResolution
from services.resolution.domain.umh.ruleset import UmhResolution
from services.resolution.interface import ResolutionRuleset, State
from shared.errors import RuleViolation

RULESETS: dict[str, ResolutionRuleset] = {
    "umh": UmhResolution(),
    "cypher": CypherResolution(),
    "l5r": L5rResolution(),
}


def register(ruleset: ResolutionRuleset) -> None:
    """Add a ruleset that lives outside this package (a test's toy), under its ``name``."""
    if ruleset.name in RULESETS:
        raise ValueError(f"a ruleset named {ruleset.name!r} is already registered")
    RULESETS[ruleset.name] = ruleset


def ruleset_named(name: str) -> ResolutionRuleset:
    ruleset = RULESETS.get(name)
    if ruleset is None:
        raise RuleViolation("unsupported_ruleset", None, ruleset=name)
    return ruleset


def ruleset_of(state: State) -> ResolutionRuleset:
    return ruleset_named(str(state.get("ruleset", "")))
