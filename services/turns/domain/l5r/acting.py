"""One l5r action (``combat.act``): who may act when, then the action itself.

Order of the common checks: ``combat_ended``; a moderator's ``annul`` / ``l5r.grant_void``;
``not_in_combat``; preparation-only actions (``wrong_phase``); reactions allowed outside the
turn (speaking, Curso de combate's choice, Cambiar iniciativa, Golpe final, Reducción de
heridas, fleeing); ``action_pending``; ``not_your_turn``; ``character_down``;
``stance_not_declared`` (Paso 2: the stance comes first).
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import attack, complex, flow, rules, voiding
from services.turns.domain.l5r.state import (
    ENDED,
    PREPARATION,
    State,
    can_fight,
    participant,
    use_slot,
)
from shared.actions_base import AnnulAction, PactAction
from shared.dice.combat import keep_draws, stream_of
from shared.dice.notation import roll_and_keep
from shared.dice.rolls import roll
from shared.dict_state import Out
from shared.errors import RuleViolation
from shared.messages import COMBATANT_FLED
from shared.payloads import ActOnCombat
from shared.rulesets.l5r.actions import (
    L5rAttack,
    L5rComplex,
    L5rConcentrate,
    L5rFlee,
    L5rFullDefense,
    L5rGrantVoid,
    L5rMove,
    L5rPass,
    L5rReady,
    L5rSimple,
    L5rSpeak,
    L5rStance,
    L5rStandUp,
    L5rTide,
    L5rVoid,
)

OUT_OF_TURN = (L5rSpeak, L5rTide, L5rFlee)
OUT_OF_TURN_VOID = ("cambiar_iniciativa", "golpe_final", "reduccion_heridas", "velocidad")


def act(state: State, cmd: ActOnCombat, now_ms: int) -> Out:
    action: Any = cmd.action
    if state["phase"] == ENDED:
        raise RuleViolation("combat_ended", None)
    out = Out()
    if isinstance(action, AnnulAction):
        if not cmd.moderator:
            raise RuleViolation("forbidden", None, needs="moderator")
        flow.end_combat(state, out, now_ms, None, "annulled", action.reason)
        return out
    if isinstance(action, L5rGrantVoid):
        voiding.grant(state, out, action, moderator=cmd.moderator)
        return out
    if isinstance(action, PactAction):
        stop_fighting(state, out, participant(state, action.actor), action.actor, now_ms)
        return out
    if not str(action.type).startswith("l5r."):
        raise RuleViolation("invalid_request", None, reason=f"{action.type} is not an l5r action")
    p = participant(state, action.actor)
    if state["phase"] == PREPARATION:
        preparation(state, out, action, p, now_ms)
        return out
    if isinstance(action, OUT_OF_TURN) or (
        isinstance(action, L5rVoid) and action.use in OUT_OF_TURN_VOID
    ):
        out_of_turn(state, out, action, p, now_ms)
        return out
    if state.get("pending"):
        raise RuleViolation("action_pending", "l5r Paso 2")
    turn = state.get("turn")
    if turn is None or turn["actor"] != action.actor:
        raise RuleViolation("not_your_turn", "l5r Paso 2", actor=turn["actor"] if turn else None)
    if not can_fight(p):
        raise RuleViolation("character_down", "l5r C-7", rank=p["rank"])
    if isinstance(action, L5rPass):
        if not (action.delay and flow.delay_turn(state, out, now_ms)):
            flow.end_turn(state, out, now_ms, "pass")
        return out
    if isinstance(action, L5rStance | L5rFullDefense):
        stance = "full_defense" if isinstance(action, L5rFullDefense) else action.stance
        declare_stance(state, out, action.actor, p, stance)
        return out
    if not turn["stance_declared"]:
        raise RuleViolation("stance_not_declared", "l5r Paso 2 (order/stance)")
    if p["round"]["ran"]:
        raise RuleViolation("no_other_action_while_running", "l5r Correr")
    in_turn(state, out, cmd.action_id, action, p, now_ms)
    if p.get("golpe_final") == "pending" and not state.get("pending"):
        flow.end_turn(state, out, now_ms, "golpe_final")  # G23: one action, then he falls
    return out


def stop_fighting(state: State, out: Out, p: dict[str, Any], actor: str, now_ms: int) -> None:
    """Paso 3: "if no one wants to keep fighting, the combat ends" (the generic ``pact``):
    once every combatant still in the fight has said so, it ends with no winner; an attack
    withdraws every such word."""
    if not can_fight(p):
        raise RuleViolation("character_down", "l5r Paso 3", rank=p["rank"])
    p["stop"] = True
    out.emit("pact.offered", {"character": actor, "rule": "l5r Paso 3"})
    if all(q.get("stop") for q in state["participants"].values() if can_fight(q)):
        flow.end_combat(state, out, now_ms, None, "pact")


def preparation(state: State, out: Out, action: Any, p: dict[str, Any], now_ms: int) -> None:
    """Before the initiative roll: Velocidad (C-6), speaking, ready."""
    if isinstance(action, L5rVoid) and action.use == "velocidad":
        voiding.velocidad(out, action.actor, p)
    elif isinstance(action, L5rSpeak):
        speak(out, action)
    elif isinstance(action, L5rReady):
        p["ready"] = True
        out.emit("combatant.ready", {"character": action.actor})
        if all(q["ready"] for q in state["participants"].values()):
            flow.roll_initiative(state, out, now_ms)
    else:
        raise RuleViolation("wrong_phase", "l5r Paso 1", phase=PREPARATION)


def out_of_turn(state: State, out: Out, action: Any, p: dict[str, Any], now_ms: int) -> None:
    if isinstance(action, L5rSpeak):
        speak(out, action)
    elif isinstance(action, L5rTide):
        if not can_fight(p):
            raise RuleViolation("character_down", "l5r Curso de combate", rank=p["rank"])
        if action.against is not None and action.against not in [
            c for c, q in state["participants"].items() if q["side"] != p["side"]
        ]:
            raise RuleViolation("not_an_opponent", "l5r Curso de combate", target=action.against)
        p["tide_against"] = action.against
        out.emit("tide.chosen", {"character": action.actor, "against": action.against})
    elif isinstance(action, L5rFlee):
        if not can_fight(p):
            raise RuleViolation("character_down", "l5r Paso 3", rank=p["rank"])
        p["status"] = "fled"
        out.emit(
            COMBATANT_FLED,
            {
                "combat_id": state["id"],
                "character": action.actor,
                "side": p["side"],
                "fled_at_ms": now_ms,
                "ruleset": "l5r",
            },
        )
        turn = state.get("turn")
        if turn and turn["actor"] == action.actor:
            flow.end_turn(state, out, now_ms, "fled")
        else:
            flow.end_if_beaten(state, out, now_ms)
    else:
        voiding.reaction(state, out, action, p)


def speak(out: Out, action: L5rSpeak) -> None:
    """Hablar: always allowed, free (T004-27)."""
    out.emit("combatant.spoke", {"character": action.actor, "text": action.text})


def declare_stance(state: State, out: Out, actor: str, p: dict[str, Any], stance: str) -> None:
    """Paso 2: the stance first; riding limits (T004-28, C-17); Full Defense rolls
    (Agility + Defense) k Agility (C-2), unskilled without ranks in Defense."""
    turn = state["turn"]
    if turn["stance_declared"]:
        raise RuleViolation("stance_already_declared", "l5r Paso 2")
    if p["mounted"] and not rules.mounted_stance_allowed(
        stance,
        int(p["skills"].get("horsemanship", 0)),
        len(p["riding_techniques"]),
        int(state["settings"]["horsemanship_for_stances"]),
    ):
        raise RuleViolation("action_not_allowed_in_stance", "l5r Montar a caballo", stance=stance)
    p["stance"] = stance
    turn["stance_declared"] = True
    payload: dict[str, Any] = {"character": actor, "stance": stance, "round": state["round"]}
    if stance == "full_defense":
        agility, rank = int(p["traits"]["agility"]), int(p["skills"].get("defense", 0))
        stream = stream_of(state, "turns")
        result = roll(
            roll_and_keep(agility + rank, agility, explode=rank > 0),
            stream,
            purpose=f"full defense {actor}",
        )
        keep_draws(state, stream)
        out.rolled(state, result, actor)
        bonus = max(0, result.total - int(p["penalty"]))  # Paso 1 (wounds): every roll
        p["full_defense"] = {"bonus": bonus, "opponents": [], "lost": False}
        payload["full_defense_bonus"] = bonus
        payload["wound_penalty"] = p["penalty"]
        payload["covers"] = p["insight"]
    out.emit("stance.declared", {**payload, "rule": "l5r Posiciones de combate"})


def lose_full_defense(out: Out, actor: str, p: dict[str, Any], why: str) -> None:
    """Defensa Total (C-15): an illegal action or moving more than half loses its benefits."""
    if p["full_defense"] and not p["full_defense"]["lost"]:
        p["full_defense"]["lost"] = True
        out.emit(
            "stance.benefits_lost",
            {"character": actor, "reason": why, "rule": "l5r Posición: Defensa Total"},
        )


def move(state: State, out: Out, action: L5rMove, p: dict[str, Any]) -> None:
    """Mover / Correr (T004-16, C-16): Water x 3 m as the round's movement simple action,
    Water x 9 m running (the whole turn); Full Defense keeps its benefits up to half."""
    stance = p["stance"] or "attack"
    counters = p["round"]
    limit, half = rules.move_limit(int(p["rings"]["water"]), action.mode, stance)
    if action.mode == "run":
        rules.check_allowed(stance, "run")
        if counters["acted"]:
            raise RuleViolation("no_other_action_while_running", "l5r Correr")
        counters["ran"] = True
    else:
        if stance != "full_defense":
            rules.check_allowed(stance, "move")
        if counters["move_actions"] >= 1:
            raise RuleViolation("movement_limit", "l5r Acción simple")
        use_slot(p, "simple")
        counters["move_actions"] += 1
    if action.meters > limit:
        raise RuleViolation("movement_exceeded", "l5r Mover", meters=action.meters, max=limit)
    if stance == "full_defense" and action.meters > half:
        lose_full_defense(out, action.actor, p, "moved more than half")
    counters["moved"] += action.meters
    counters["acted"] = True
    for cid, q in state["participants"].items():  # C-26: either one moving ends it
        c = q.get("concentration")
        if c and (cid == action.actor or c["target"] == action.actor):
            q["concentration"] = None
            out.emit("concentration.lost", {"character": cid, "rule": "l5r Concentración"})
    out.emit(
        "combatant.moved",
        {"character": action.actor, "mode": action.mode, "meters": action.meters, "max": limit},
    )


def in_turn(
    state: State, out: Out, action_id: str, action: Any, p: dict[str, Any], now_ms: int
) -> None:
    stance = p["stance"] or "attack"
    actor = action.actor
    if isinstance(action, L5rAttack):
        attack.declare(state, out, action_id, action)
    elif isinstance(action, L5rMove):
        move(state, out, action, p)
    elif isinstance(action, L5rSimple):
        rules.check_allowed(stance, "simple")
        use_slot(p, "simple")
        p["round"]["acted"] = True
        out.emit("simple_action.taken", {"character": actor, "description": action.description})
    elif isinstance(action, L5rComplex):
        complex.complex_action(state, out, action, p)
    elif isinstance(action, L5rStandUp):
        if not p["prone"]:
            raise RuleViolation("not_prone", "l5r Ponerte en pie")
        rules.check_allowed(stance, "stand_up")
        use_slot(p, "complex")
        p["round"]["attacks"] += 1  # T004-25: standing is the action
        p["round"]["acted"] = True
        p["prone"] = False
        out.emit("combatant.stood_up", {"character": actor, "rule": "l5r Ponerte en pie"})
    elif isinstance(action, L5rConcentrate):
        foe = state["participants"].get(action.target)
        if foe is None or foe["side"] == p["side"]:
            raise RuleViolation("not_an_opponent", "l5r Concentración", target=action.target)
        rules.check_allowed(stance, "complex")
        if p["round"]["attacks"]:
            raise RuleViolation("attack_limit", "l5r Concentración")
        use_slot(p, "complex")
        p["round"]["attacks"] += 1  # the round is spent concentrating
        p["round"]["acted"] = True
        c = p.get("concentration")
        before = int(c["rounds"]) if c and c["target"] == action.target else 0
        rounds = rules.concentration_rounds(before, int(p["rings"]["void"]))
        p["concentration"] = {"target": action.target, "rounds": rounds}
        out.emit(
            "concentration.gained",
            {
                "character": actor,
                "target": action.target,
                "rounds": rounds,
                "rule": "l5r Concentración",
            },
        )
    elif isinstance(action, L5rVoid):
        voiding.on_turn(state, out, action, p)
    elif isinstance(action, L5rReady):
        raise RuleViolation("wrong_phase", "l5r Paso 1", phase=state["phase"])
    else:
        raise RuleViolation("invalid_request", None, reason=f"{action.type} not handled")
