"""The rulesets services/turns referees, by name. Adding one touches only this table."""

from __future__ import annotations

from services.turns.cypher import CypherTurns
from services.turns.l5r import L5rTurns
from services.turns.ruleset import State, TurnsRuleset
from services.turns.umh import UmhTurns
from shared.errors import RuleViolation

RULESETS: dict[str, TurnsRuleset] = {
    "umh": UmhTurns(),
    "cypher": CypherTurns(),
    "l5r": L5rTurns(),
}


def ruleset_named(name: str) -> TurnsRuleset:
    ruleset = RULESETS.get(name)
    if ruleset is not None:
        return ruleset
    raise RuleViolation("unsupported_ruleset", None, ruleset=name)


def ruleset_of(state: State) -> TurnsRuleset:
    return ruleset_named(str(state.get("ruleset", "")))
