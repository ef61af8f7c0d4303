"""The rulesets services/turns referees, by name: the only place this service lists them.

Adding one is a folder ``domain/<ruleset>/`` whose ``ruleset.py`` implements
:mod:`services.turns.interface`, and one line here (docs/DESIGN.md "Rulesets").
"""

from __future__ import annotations

from services.turns.domain.cypher import CypherTurns
from services.turns.domain.l5r import L5rTurns
from services.turns.domain.umh.ruleset import UmhTurns
from services.turns.interface import State, TurnsRuleset
from shared.errors import RuleViolation

RULESETS: dict[str, TurnsRuleset] = {
    "umh": UmhTurns(),
    "cypher": CypherTurns(),
    "l5r": L5rTurns(),
}


def register(ruleset: TurnsRuleset) -> None:
    """Add a ruleset that lives outside this package (a test's toy), under its ``name``."""
    if ruleset.name in RULESETS:
        raise ValueError(f"a ruleset named {ruleset.name!r} is already registered")
    RULESETS[ruleset.name] = ruleset


def ruleset_named(name: str) -> TurnsRuleset:
    ruleset = RULESETS.get(name)
    if ruleset is not None:
        return ruleset
    raise RuleViolation("unsupported_ruleset", None, ruleset=name)


def ruleset_of(state: State) -> TurnsRuleset:
    return ruleset_named(str(state.get("ruleset", "")))
