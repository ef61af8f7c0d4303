"""The rulesets services/states keeps the aftermath of, by name: the only place it lists them.

Adding one is a folder ``domain/<ruleset>/`` whose ``ruleset.py`` implements
:mod:`services.states.interface`, and one line here (docs/DESIGN.md "Rulesets").
"""

from __future__ import annotations

from services.states.domain.cypher import CypherAftermath
from services.states.domain.l5r import L5rAftermath
from services.states.domain.umh.ruleset import UmhAftermath
from services.states.interface import AftermathRuleset
from shared.errors import RuleViolation

RULESETS: dict[str, AftermathRuleset] = {
    "umh": UmhAftermath(),
    "cypher": CypherAftermath(),
    "l5r": L5rAftermath(),
}


def register(ruleset: AftermathRuleset) -> None:
    """Add a ruleset that lives outside this package (a test's toy), under its ``name``."""
    if ruleset.name in RULESETS:
        raise ValueError(f"a ruleset named {ruleset.name!r} is already registered")
    RULESETS[ruleset.name] = ruleset


def ruleset_named(name: str) -> AftermathRuleset:
    ruleset = RULESETS.get(name)
    if ruleset is None:
        raise RuleViolation("unsupported_ruleset", None, ruleset=name)
    return ruleset
