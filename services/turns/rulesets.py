"""The rulesets services/turns referees, by name. Adding one touches only this table."""

from __future__ import annotations

from services.turns.ruleset import State, TurnsRuleset
from services.turns.umh import UmhTurns
from shared.errors import RuleViolation

RULESETS: dict[str, TurnsRuleset] = {"umh": UmhTurns()}
PLANNED = {"cypher": "cypher", "l5r": "l5r"}


def ruleset_named(name: str) -> TurnsRuleset:
    ruleset = RULESETS.get(name)
    if ruleset is not None:
        return ruleset
    if name in PLANNED:
        raise RuleViolation("not_implemented", f"{name} (RULES.md sections 3-4)", ruleset=name)
    raise RuleViolation("unsupported_ruleset", None, ruleset=name)


def ruleset_of(state: State) -> TurnsRuleset:
    return ruleset_named(str(state.get("ruleset", "")))
