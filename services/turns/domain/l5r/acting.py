"""One l5r action (``combat.act``): who may act when, then the action itself.

Order of the common checks: ``combat_ended``; a moderator's ``annul`` / ``resume`` /
``l5r.grant_void`` / ``l5r.veto_void``;
``not_in_combat``; preparation-only actions (``wrong_phase``); reactions allowed outside the
turn (speaking, Curso de combate's choice, Cambiar iniciativa, Golpe final, Reducción de
heridas, fleeing); ``action_pending``; ``not_your_turn``; ``character_down``;
``stance_not_declared`` (Paso 2: the stance comes first).
"""

from __future__ import annotations

from typing import Any

from services.turns.domain.l5r import flow, joining, moving, resuming, void_dice, voiding
from services.turns.domain.l5r.fighter import Fighter, GolpeFinal, Stance, Status
from services.turns.domain.l5r.in_turn import in_turn
from services.turns.domain.l5r.state import L5rCombat, TurnEnd
from shared.actions_base import (
    AnnulAction,
    FleeAction,
    PactAction,
    PassTurnAction,
    ReadyAction,
    ResumeAction,
)
from shared.errors import RuleViolation
from shared.messages import COMBATANT_FLED
from shared.outcome import Outcome
from shared.payloads import ActOnCombat
from shared.rulesets.l5r.actions import (
    L5rFlee,
    L5rFullDefense,
    L5rGrantVoid,
    L5rPass,
    L5rReady,
    L5rSpeak,
    L5rStance,
    L5rTide,
    L5rVetoVoid,
    L5rVoid,
)
from shared.rulesets.umh.actions import JoinAction
from shared.vocabulary import EndReason, Phase

OUT_OF_TURN = (L5rSpeak, L5rTide, L5rFlee)
OUT_OF_TURN_VOID = ("cambiar_iniciativa", "golpe_final", "reduccion_heridas", "velocidad")


def act(state: L5rCombat, cmd: ActOnCombat, now_ms: int) -> Outcome:
    """One action, its checks in the module's order."""
    cmd = shared_words(cmd)
    action: Any = cmd.action
    if state.ended:
        raise RuleViolation("combat_ended", None)
    out = Outcome()
    if isinstance(action, AnnulAction):
        if not cmd.moderator:
            raise RuleViolation("forbidden", None, needs="moderator")
        flow.end_combat(state, out, now_ms, None, EndReason.ANNULLED, action.reason)
    elif isinstance(action, ResumeAction):
        resuming.resume(state, out, action, cmd, now_ms)
    elif isinstance(action, L5rGrantVoid):
        voiding.grant(state, out, action, moderator=cmd.moderator)
    elif isinstance(action, L5rVetoVoid):
        void_dice.veto(state, out, action, moderator=cmd.moderator)
    elif isinstance(action, JoinAction):
        joining.join(state, out, cmd, now_ms)
    elif isinstance(action, PactAction):
        stop_fighting(state, out, state.participant(action.actor), action.actor, now_ms)
    elif not str(action.type).startswith("l5r."):
        raise RuleViolation("invalid_request", None, reason=f"{action.type} is not an l5r action")
    else:
        by_phase(state, out, cmd, now_ms)
    return out


def shared_words(cmd: ActOnCombat) -> ActOnCombat:
    """One vocabulary for every ruleset: ``pass_turn``, ``flee`` and ``ready`` are
    ``l5r.pass`` (no delay), ``l5r.flee`` and ``l5r.ready``. An escape skill is umh's
    (umh 4.1.1): an l5r flight names none."""
    action: Any = cmd.action
    if isinstance(action, FleeAction) and action.skill is not None:
        raise RuleViolation("invalid_request", None, reason="an l5r flight names no skill")
    body: L5rPass | L5rFlee | L5rReady
    if isinstance(action, PassTurnAction):
        body = L5rPass(type="l5r.pass", actor=action.actor)
    elif isinstance(action, FleeAction):
        body = L5rFlee(type="l5r.flee", actor=action.actor)
    elif isinstance(action, ReadyAction):
        body = L5rReady(type="l5r.ready", actor=action.actor)
    else:
        return cmd
    return cmd.model_copy(update={"action": body})


def by_phase(state: L5rCombat, out: Outcome, cmd: ActOnCombat, now_ms: int) -> None:
    """Paso 1 (preparation), reactions out of turn, then the actor's own turn (Paso 2)."""
    action: Any = cmd.action
    p = state.participant(action.actor)
    if state.phase == Phase.PREPARATION:
        preparation(state, out, action, p, now_ms)
    elif isinstance(action, OUT_OF_TURN) or (
        isinstance(action, L5rVoid) and action.use in OUT_OF_TURN_VOID
    ):
        out_of_turn(state, out, action, p, now_ms)
    else:
        own_turn(state, out, cmd, p, now_ms)


def own_turn(state: L5rCombat, out: Outcome, cmd: ActOnCombat, p: Fighter, now_ms: int) -> None:
    """Paso 2: nothing pending, his turn, still fighting, his stance first; then the action;
    a Golpe final's one action ends that turn (G23)."""
    action: Any = cmd.action
    if state.pending is not None:
        raise RuleViolation("action_pending", "l5r Paso 2")
    turn = state.turn
    if turn is None or turn.actor != action.actor:
        raise RuleViolation("not_your_turn", "l5r Paso 2", actor=turn.actor if turn else None)
    if not p.can_fight:
        raise RuleViolation("character_down", "l5r C-7", rank=str(p.rank))
    if isinstance(action, L5rPass):
        if not (action.delay and flow.delay_turn(state, out, now_ms)):
            flow.end_turn(state, out, now_ms, TurnEnd.PASS)
        return
    if isinstance(action, L5rStance | L5rFullDefense):
        stance = Stance(action.stance) if isinstance(action, L5rStance) else Stance.FULL_DEFENSE
        moving.declare_stance(state, out, action.actor, p, stance, cmd.action_id)
        return
    if not turn.stance_declared:
        raise RuleViolation("stance_not_declared", "l5r Paso 2 (order/stance)")
    if p.round.ran:
        raise RuleViolation("no_other_action_while_running", "l5r Correr")
    in_turn(state, out, cmd.action_id, action, p)
    if p.golpe_final == GolpeFinal.PENDING and state.pending is None:
        flow.end_turn(state, out, now_ms, TurnEnd.GOLPE_FINAL)  # G23: one action, then he falls


def stop_fighting(state: L5rCombat, out: Outcome, p: Fighter, actor: str, now_ms: int) -> None:
    """Paso 3: "if no one wants to keep fighting, the combat ends" (the generic ``pact``):
    once every combatant still in the fight has said so, it ends with no winner; an attack
    withdraws every such word."""
    if not p.can_fight:
        raise RuleViolation("character_down", "l5r Paso 3", rank=str(p.rank))
    p.stop = True
    out.emit("pact.offered", {"character": actor, "rule": "l5r Paso 3"})
    if all(q.stop for q in state.participants.values() if q.can_fight):
        flow.end_combat(state, out, now_ms, None, EndReason.PACT)


def preparation(state: L5rCombat, out: Outcome, action: Any, p: Fighter, now_ms: int) -> None:
    """Before the initiative roll: Velocidad (C-6), speaking, ready."""
    if isinstance(action, L5rVoid) and action.use == "velocidad":
        voiding.velocidad(out, action.actor, p)
    elif isinstance(action, L5rSpeak):
        speak(out, action)
    elif isinstance(action, L5rReady):
        p.ready = True
        out.emit("combatant.ready", {"character": action.actor})
        if all(q.ready for q in state.participants.values()):
            flow.roll_initiative(state, out, now_ms)
    else:
        raise RuleViolation("wrong_phase", "l5r Paso 1", phase=str(Phase.PREPARATION))


def out_of_turn(state: L5rCombat, out: Outcome, action: Any, p: Fighter, now_ms: int) -> None:
    """What he may do outside his turn: speak, choose Curso de combate's target, flee, and
    the Void uses that answer a moment (Cambiar iniciativa, Golpe final, Reducción)."""
    if isinstance(action, L5rSpeak):
        speak(out, action)
    elif isinstance(action, L5rTide):
        if not p.can_fight:
            raise RuleViolation("character_down", "l5r Curso de combate", rank=str(p.rank))
        if action.against is not None and action.against not in state.opponents(action.actor):
            raise RuleViolation("not_an_opponent", "l5r Curso de combate", target=action.against)
        p.tide_against = action.against
        out.emit("tide.chosen", {"character": action.actor, "against": action.against})
    elif isinstance(action, L5rFlee):
        flee(state, out, action.actor, p, now_ms)
    else:
        voiding.reaction(state, out, action, p)


def flee(state: L5rCombat, out: Outcome, actor: str, p: Fighter, now_ms: int) -> None:
    """Paso 3: a fighter still standing leaves; his turn ends, or the fight if his side is
    gone."""
    if not p.can_fight:
        raise RuleViolation("character_down", "l5r Paso 3", rank=str(p.rank))
    p.status = Status.FLED
    out.emit(
        COMBATANT_FLED,
        {
            "combat_id": state.id,
            "character": actor,
            "side": str(p.side),
            "fled_at_ms": now_ms,
            "ruleset": "l5r",
        },
    )
    if state.turn is not None and state.turn.actor == actor:
        flow.end_turn(state, out, now_ms, TurnEnd.FLED)
    else:
        flow.end_if_beaten(state, out, now_ms)


def speak(out: Outcome, action: L5rSpeak) -> None:
    """Hablar: always allowed, free (T004-27)."""
    out.emit("combatant.spoke", {"character": action.actor, "text": action.text})
