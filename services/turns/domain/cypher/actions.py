"""One action in a cypher combat (seed 001): who may act, and what is handed to resolution.

Checks, in order (the first failing one is raised): the combat is not over
(``combat_ended``); moderator actions; the actor fights (``not_in_combat``) and is not dead
(``dead``, 001 INDICADOR muerto); no resolution is in flight (``resolution_pending``); it is
his turn (``not_your_turn``) and he has not acted (``one_action_per_turn``, 001 ACCIÓN);
then the action's own rules (debilitated, paralysis, range, stat, cover, water, Effort).
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.cypher.flow import PHASE_ENDED, end_combat, end_turn
from shared.dict_state import Out
from shared.domain import Decision
from shared.errors import RuleViolation
from shared.messages import ACTION_DECLARED, COMBATANT_FLED, RESOLUTION_REQUESTED
from shared.payloads import ActOnCombat
from shared.rulesets.cypher import difficulty as dif
from shared.rulesets.cypher.actions import (
    CypherAttack,
    CypherGenericAction,
    CypherInflict,
    CypherMove,
    CypherPass,
    CypherRecover,
    CypherRerollInitiative,
)
from shared.rulesets.cypher.conditions import impaired, pools_at_zero
from shared.rulesets.cypher.damage import effort_cost
from shared.rulesets.cypher.sheet import CypherSheet

State = dict[str, Any]
MOVED = "combatant.moved"
REROLL_REQUESTED = "initiative.reroll_requested"
GENERIC = frozenset({"annul", "flee", "pass_turn"})
"""API.md actions that cypher referees too; the other umh ones are ``not_implemented``."""


def sheet(state: State, character: str) -> CypherSheet:
    return CypherSheet.model_validate(state["sheets"][character])


def act(state: State, cmd: ActOnCombat, now_ms: int) -> Decision[State]:
    action = cmd.action
    if state["phase"] == PHASE_ENDED:
        raise RuleViolation("combat_ended", "cypher ASALTO")
    if not action.type.startswith("cypher.") and action.type not in GENERIC:
        raise RuleViolation("not_implemented", "cypher (RULES.md section 3)", type=action.type)
    out = Out()
    if action.type == "annul":
        if not cmd.moderator:
            raise RuleViolation("forbidden", None, needs="moderator")
        reason = str(getattr(action, "reason", ""))
        end_combat(state, out, now_ms, winner=None, reason="annulled", annul=reason)
        return out.decision(state)
    if isinstance(action, CypherRerollInitiative):
        if not cmd.moderator:
            raise RuleViolation("forbidden", None, needs="moderator")
        state["reroll_next_round"] = True
        out.emit(REROLL_REQUESTED, {"by": action.actor, "from_round": state["round"] + 1})
        return out.decision(state)
    if state["turn"] is not None and state["turn"].get("pending"):
        raise RuleViolation(
            "resolution_pending", "cypher ACCIÓN", action_id=state["turn"]["pending"]["action_id"]
        )
    if isinstance(action, CypherInflict):
        return inflict(state, cmd, action, out)
    actor = action.actor
    part = state["participants"].get(actor)
    if part is None or part["status"] == "fled":
        raise RuleViolation("not_in_combat", "cypher ACCIÓN", character=actor)
    if part["status"] == "dead":
        raise RuleViolation("dead", "cypher INDICADOR (muerto)", character=actor)
    turn = state["turn"]
    if turn is None or turn["actor"] != actor:
        raise RuleViolation("not_your_turn", "cypher ACCIÓN (turn)", turn=turn and turn["actor"])
    if isinstance(action, CypherMove) and action.distance == "immediate":
        return free_move(state, action, part, out)
    if turn["acted"]:
        raise RuleViolation("one_action_per_turn", "cypher ACCIÓN (turn)")
    if isinstance(action, CypherPass) or action.type == "pass_turn":
        turn["acted"] = True
        end_turn(state, out, now_ms, "passed")
        return out.decision(state)
    if part["status"] == "debilitated":
        raise RuleViolation(
            "debilitated", "cypher INDICADOR (incapacitado)", allowed="cypher.move immediate"
        )
    if isinstance(action, CypherMove):
        return move(state, cmd, action, part, out, now_ms)
    if action.type == "flee":
        return flee(state, actor, part, out, now_ms)
    if isinstance(action, CypherAttack):
        check_attack(state, action, part)
    elif isinstance(action, CypherGenericAction):
        check_generic(state, action, part)
    elif isinstance(action, CypherRecover):
        check_recover(state, action, part)
    else:
        raise RuleViolation("not_implemented", "cypher (RULES.md section 3)", type=action.type)
    turn["acted"] = True
    return handoff(state, cmd, out, ends_turn=True)


def free_move(state: State, action: CypherMove, part: dict[str, Any], out: Out) -> Decision[State]:
    """001 DISTANCIA, B-20: a move within immediate range is part of another action (once a
    turn, before or after it); a debilitated character may crawl it, not with Speed 0."""
    if part.get("paralyzed"):
        raise RuleViolation("paralyzed", "cypher DAÑO ESPECIAL (parálisis)")
    if part["status"] == "debilitated" and part["kind"] == "pc" and part["pools"]["speed"] <= 0:
        raise RuleViolation("debilitated", "cypher INDICADOR (incapacitado)", speed=0)
    if state["turn"]["free_moved"]:
        raise RuleViolation("one_action_per_turn", "cypher DISTANCIA (free move), B-20")
    state["turn"]["free_moved"] = True
    out.emit(MOVED, {"character": action.actor, "distance": "immediate", "free": True})
    return out.decision(state)


def move(
    state: State,
    cmd: ActOnCombat,
    action: CypherMove,
    part: dict[str, Any],
    out: Out,
    now_ms: int,
) -> Decision[State]:
    """001 DISTANCIA: a short move is the whole turn; a long move a Speed roll (B-21)."""
    if part.get("paralyzed"):
        raise RuleViolation("paralyzed", "cypher DAÑO ESPECIAL (parálisis)")
    if action.distance == "short" or not action.roll:
        state["turn"]["acted"] = True
        out.emit(MOVED, {"character": action.actor, "distance": action.distance, "free": False})
        end_turn(state, out, now_ms, "moved")
        return out.decision(state)
    state["turn"]["acted"] = True
    return handoff(state, cmd, out, ends_turn=True)


def flee(state: State, actor: str, part: dict[str, Any], out: Out, now_ms: int) -> Decision[State]:
    """Leaving the fight is the turn's action (a move away); the combat may end (fled)."""
    if part.get("paralyzed"):
        raise RuleViolation("paralyzed", "cypher DAÑO ESPECIAL (parálisis)")
    part["status"] = "fled"
    state["turn"]["acted"] = True
    out.emit(
        COMBATANT_FLED,
        {
            "combat_id": state["id"],
            "ruleset": "cypher",
            "character": actor,
            "side": part["side"],
            "fled_at_ms": now_ms,
        },
    )
    end_turn(state, out, now_ms, "fled")
    return out.decision(state)


def check_effort(
    state: State, actor: str, stat: str, levels: int, part: dict[str, Any], *, minimum: int = 0
) -> None:
    """B-7: Effort up to the sheet's ``effort``, PCs only, paid from the stat's pool; with an
    action's minimum spend (001 ACCIÓN) the pool must pay both, the minimum first."""
    if levels <= 0:
        return
    me = sheet(state, actor)
    if me.kind == "npc" or levels > me.effort:
        raise RuleViolation(
            "effort_too_high",
            "cypher INDICADOR (lesionado), B-7",
            max=me.effort if me.kind == "pc" else 0,
        )
    cost = effort_cost(levels, int(getattr(me.edges, stat)), impaired=impaired(part))
    if part["pools"][stat] < minimum + cost:
        raise RuleViolation(
            "insufficient_pool",
            "cypher ACCIÓN, B-7",
            pool=stat,
            cost=cost,
            minimum_spend=minimum,
            have=part["pools"][stat],
        )


def check_attack(state: State, action: CypherAttack, part: dict[str, Any]) -> None:
    """001 ATACAR / ALCANCE / COBERTURA / AGUA: a known attack on another fighter, the stat
    allowed, within reach; paralysed: only attacks that need no movement (ranged Intellect)."""
    me = sheet(state, action.actor)
    attack = me.attack(action.attack)
    if attack is None:
        raise RuleViolation("unknown_skill", "cypher ATACAR", attack=action.attack)
    target = state["participants"].get(action.target)
    if target is None or action.target == action.actor or target["status"] in ("dead", "fled"):
        raise RuleViolation("invalid_target", "cypher ATACAR", target=action.target)
    stat = dif.attack_stat(attack, action.stat)
    if part.get("paralyzed") and not (attack.kind == "ranged" and stat == "intellect"):
        raise RuleViolation("paralyzed", "cypher DAÑO ESPECIAL (parálisis)")
    dif.attack_steps(me, attack, action.circumstances)
    check_effort(state, action.actor, stat, action.effort, part)


def check_generic(state: State, action: CypherGenericAction, part: dict[str, Any]) -> None:
    if part.get("paralyzed") and action.physical:
        raise RuleViolation("paralyzed", "cypher DAÑO ESPECIAL (parálisis)")
    check_effort(
        state, action.actor, action.stat, action.effort, part, minimum=action.minimum_spend
    )


def check_recover(state: State, action: CypherRecover, part: dict[str, Any]) -> None:
    """001 RECUPERAR, B-10: in combat only the day's first rest (once a combat, and not after
    a rest taken earlier that day, which services/states reported at the start); the special
    damage option needs every pool above 0 and special damage to heal
    (E_RECOVERY_OPTION_INVALID)."""
    if part["kind"] != "pc":
        raise RuleViolation("invalid_target", "cypher RECUPERAR", reason="NPCs do not rest")
    taken = int(part.get("rests_taken", 0)) + int(part.get("rested_today", 0))
    if part.get("recovered_this_combat") or taken >= 1:
        raise RuleViolation("no_rests_left", "cypher RECUPERAR, B-10", rests_today=taken)
    if action.special_damage and (pools_at_zero(part) or int(part["special_steps"]) <= 0):
        raise RuleViolation(
            "recovery_option_invalid",
            "cypher RECUPERAR (special damage)",
            pools_at_zero=pools_at_zero(part),
            special_steps=part["special_steps"],
        )


def inflict(state: State, cmd: ActOnCombat, action: CypherInflict, out: Out) -> Decision[State]:
    """Moderator: special damage the GM declares (001 DAÑO automatic steps, DAÑO ESPECIAL)."""
    if not cmd.moderator:
        raise RuleViolation("forbidden", None, needs="moderator")
    target = state["participants"].get(action.target)
    if target is None or target["status"] in ("dead", "fled"):
        raise RuleViolation("invalid_target", "cypher DAÑO ESPECIAL", target=action.target)
    return handoff(state, cmd, out, ends_turn=False)


def handoff(state: State, cmd: ActOnCombat, out: Out, *, ends_turn: bool) -> Decision[State]:
    """``action.declared`` for everyone and ``resolution.requested`` with the conditions
    involved; the turn waits for ``action.resolved``."""
    action = cmd.action
    involved = [action.actor]
    target = getattr(action, "target", None)
    if target and target not in involved:
        involved.append(target)
    involved = [c for c in involved if c in state["participants"]]
    state["turn"]["pending"] = {"action_id": cmd.action_id, "ends_turn": ends_turn}
    out.emit(
        ACTION_DECLARED,
        {
            "ruleset": "cypher",
            "action_id": cmd.action_id,
            "attacker": action.actor,
            "skill": action.type,
            "targets": [target] if target else [],
            "round": state["round"],
            "offensive": isinstance(action, CypherAttack),
            "general_action": True,
        },
    )
    out.emit(
        RESOLUTION_REQUESTED,
        {
            "ruleset": "cypher",
            "action_id": cmd.action_id,
            "action": action.model_dump(mode="json"),
            "conditions": {c: state["participants"][c] for c in involved},
            "round": state["round"],
            "literal_low_light": bool(state["settings"].get("literal_low_light", False)),
        },
    )
    return out.decision(state)
