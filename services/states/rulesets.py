"""The rulesets services/states keeps the aftermath of, by name."""

from __future__ import annotations

from services.states.cypher import CypherAftermath
from services.states.l5r import L5rAftermath
from services.states.ruleset import AftermathRuleset
from services.states.umh import UmhAftermath
from shared.errors import RuleViolation

RULESETS: dict[str, AftermathRuleset] = {
    "umh": UmhAftermath(),
    "cypher": CypherAftermath(),
    "l5r": L5rAftermath(),
}


def ruleset_named(name: str) -> AftermathRuleset:
    ruleset = RULESETS.get(name)
    if ruleset is None:
        raise RuleViolation("unsupported_ruleset", None, ruleset=name)
    return ruleset
