"""What a cypher combatant or the GM declares ahead of a roll, outside any turn: a PC's
Effort on his next defense roll (001 ATACAR with B-7) and a GM intrusion for an attack in
total darkness (001 ILUMINACIÓN, oscuridad; B-12). Neither is an action of the turn."""

from __future__ import annotations

from typing import Any

from services.turns.domain.cypher.state import CypherCombat
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.payloads import ActOnCombat
from shared.rulesets.cypher.actions import CypherAttack, CypherDefend, CypherIntrusion
from shared.rulesets.cypher.conditions import Status

DEFENSE_EFFORT = "defense_effort.declared"
INTRUSION = "gm.intrusion"


def declare(state: CypherCombat, cmd: ActOnCombat, out: Outcome) -> None:
    """``cypher.defend`` (the PC himself, any time) or ``cypher.intrusion`` (a moderator)."""
    action = cmd.action
    part = state.fighter(action.actor)
    if part.status == Status.DEAD:
        raise RuleViolation("dead", "cypher INDICADOR (muerto)", character=action.actor)
    if isinstance(action, CypherIntrusion):
        if not cmd.moderator:
            raise RuleViolation("forbidden", None, needs="moderator")
        state.intrusions[action.actor] = action.reason
        out.emit(
            INTRUSION,
            {
                "character": action.actor,
                "reason": action.reason,
                "rule": "cypher ILUMINACIÓN (oscuridad), B-12",
            },
        )
        return
    assert isinstance(action, CypherDefend)
    sheet = state.sheets[action.actor]
    if sheet.kind == "npc" or action.effort > sheet.effort:
        raise RuleViolation(
            "effort_too_high",
            "cypher ATACAR (defense), B-7",
            max=sheet.effort if sheet.kind == "pc" else 0,
        )
    if action.effort:
        state.defense_effort[action.actor] = action.effort
    else:
        state.defense_effort.pop(action.actor, None)
    out.emit(
        DEFENSE_EFFORT,
        {"character": action.actor, "levels": action.effort, "rule": "cypher ATACAR, B-7"},
    )


def for_request(state: CypherCombat, action: Any) -> dict[str, Any]:
    """What the resolution of an attack needs of these declarations: the target's defense
    Effort, the attacker's intrusion."""
    if not isinstance(action, CypherAttack):
        return {}
    extra: dict[str, Any] = {}
    if action.target in state.defense_effort:
        extra["defense_effort"] = {action.target: state.defense_effort[action.target]}
    if action.actor in state.intrusions:
        extra["intrusion"] = True
    return extra


def used(state: CypherCombat, payload: dict[str, Any]) -> None:
    """After ``action.resolved``: a defense Effort paid, or an intrusion that let the attack
    be rolled, is spent."""
    effort = payload.get("defense_effort")
    if isinstance(effort, dict) and effort.get("rolled"):
        state.defense_effort.pop(str(effort.get("character")), None)
    if payload.get("intrusion_used"):
        state.intrusions.pop(str(payload.get("attacker")), None)
