"""Void uses that are not part of a roll (004 "Vacío", "Usos"; T004-04, T004-07 - T004-10).

Mejora and Persistencia ride on a roll (``l5r.attack`` / ``l5r.complex`` ``void``); the rest
are ``l5r.void``: Velocidad before initiative, Cambiar iniciativa right after it, Golpe
final when fallen, Reducción de heridas right after a hit, Incremento del NO, Obtener una
acción and Alentar in the player's turn.
"""

from __future__ import annotations

from services.turns.domain.l5r import rules
from services.turns.domain.l5r.attack import spend
from services.turns.domain.l5r.fighter import Fighter, GolpeFinal
from services.turns.domain.l5r.state import L5rCombat
from services.turns.domain.l5r.wounds import set_wounds
from shared.errors import RuleViolation
from shared.outcome import Outcome
from shared.rulesets.l5r.actions import L5rGrantVoid, L5rVoid


def pay(out: Outcome, actor: str, p: Fighter, use: str, cost: int | None = None) -> None:
    """T004-04: a use costs its points, which he must have."""
    cost = rules.VOID_COSTS[use] if cost is None else cost
    rules.check_void(p.void, cost, use)
    spend(out, p, actor, cost, use, None)


def velocidad(out: Outcome, actor: str, p: Fighter) -> None:
    """Velocidad (C-6, T004-11): 2 points before the initiative roll for +1k1 on it."""
    if p.velocidad:
        raise RuleViolation("void_use_unavailable", "l5r Velocidad", reason="already spent")
    pay(out, actor, p, "velocidad")
    p.velocidad = True


def reaction(state: L5rCombat, out: Outcome, action: L5rVoid, p: Fighter) -> None:
    """Void uses allowed outside the player's turn."""
    if action.use == "cambiar_iniciativa":
        swap(state, out, action, p)
    elif action.use == "golpe_final":
        golpe_final(out, action.actor, p)
    elif action.use == "velocidad":
        raise RuleViolation("initiative_already_rolled", "l5r Velocidad")
    else:
        reduction(state, out, action.actor, p)


def ally_of(state: L5rCombat, p: Fighter, actor: str, partner: str, rule: str) -> Fighter:
    """A companion on his side, not himself (``not_an_ally``)."""
    q = state.participants.get(partner)
    if q is None or q.side != p.side or partner == actor:
        raise RuleViolation("not_an_ally", rule, partner=partner)
    return q


def swap(state: L5rCombat, out: Outcome, action: L5rVoid, p: Fighter) -> None:
    """Cambiar iniciativa (T004-10): right after initiative is rolled (round 1, before anyone
    acts), two companions each pay 1 and swap; the first to ask waits for the other."""
    if not state.swap_open or state.round != 1:
        raise RuleViolation("swap_window_closed", "l5r Cambiar iniciativa")
    partner = str(action.partner)
    q = ally_of(state, p, action.actor, partner, "l5r Cambiar iniciativa")
    rules.check_void(p.void, 1, "cambiar_iniciativa")
    offers = state.swap_offers
    if offers.get(partner) != action.actor:
        offers[action.actor] = partner
        out.emit(
            "initiative.swap_offered",
            {"character": action.actor, "partner": partner, "rule": "l5r Cambiar iniciativa"},
        )
        return
    rules.check_void(q.void, 1, "cambiar_iniciativa")
    del offers[partner]
    pay(out, action.actor, p, "cambiar_iniciativa")
    pay(out, partner, q, "cambiar_iniciativa")
    p.initiative, q.initiative = q.initiative, p.initiative
    from services.turns.domain.l5r.flow import round_order

    acted = state.order[: state.turn_index + 1]
    state.order = acted + [c for c in round_order(state) if c not in acted]
    out.emit(
        "initiative.swapped",
        {
            "characters": [action.actor, partner],
            "initiative": {action.actor: p.initiative, partner: q.initiative},
            "order": list(state.order),
            "rule": "l5r Cambiar iniciativa",
        },
    )


def golpe_final(out: Outcome, actor: str, p: Fighter) -> None:
    """Golpe final (T004-08): at Down or Out 3 points, dead 5: one action on the next turn
    before falling."""
    if p.golpe_final:
        raise RuleViolation("void_use_unavailable", "l5r Golpe final", reason="already used")
    cost = rules.golpe_final_cost(str(p.rank))
    pay(out, actor, p, "golpe_final", cost)
    p.golpe_final = GolpeFinal.PENDING
    out.emit(
        "golpe_final.declared",
        {"character": actor, "cost": cost, "rank": str(p.rank), "rule": "l5r Golpe final"},
    )


def reduction(state: L5rCombat, out: Outcome, actor: str, p: Fighter) -> None:
    """Reducción de heridas (T004-07, C-10): right after a hit (the same turn), 10 of its
    Wounds never happen; once per character per round."""
    if p.reduction_round == state.round:
        raise RuleViolation("once_per_round", "l5r Reducción de heridas")
    hit = p.last_hit
    if hit is None or hit.turn_seq != state.turn_seq or hit.reduced:
        raise RuleViolation(
            "void_use_unavailable",
            "l5r Reducción de heridas",
            reason="only right after a hit that wounded you",
        )
    pay(out, actor, p, "reduccion_heridas")
    kept = rules.reduce_wounds(hit.wounds)
    hit.reduced = True
    p.reduction_round = state.round
    before = p.wounds
    set_wounds(state, out, actor, before - hit.wounds + kept, hit.action_id)
    out.emit(
        "wounds.reduced",
        {
            "character": actor,
            "action_id": hit.action_id,
            "wounds_of_hit": hit.wounds,
            "now": kept,
            "wounds_before": before,
            "wounds_after": p.wounds,
            "rule": "l5r Reducción de heridas",
        },
    )


def on_turn(state: L5rCombat, out: Outcome, action: L5rVoid, p: Fighter) -> None:
    """Incremento del NO (T004-06), Obtener una acción (C-9), Alentar (T004-09)."""
    actor = action.actor
    if action.use == "incremento_no":
        if p.tn_boost:
            raise RuleViolation("void_use_unavailable", "l5r Incremento del NO")
        pay(out, actor, p, "incremento_no")
        p.tn_boost = rules.TN_BOOST
        out.emit(
            "tn.raised",
            {"character": actor, "bonus": rules.TN_BOOST, "rule": "l5r Incremento del NO"},
        )
    elif action.use == "obtener_accion":
        pay(out, actor, p, "obtener_accion")
        p.round.extra_actions += 1
        out.emit("action.gained", {"character": actor, "rule": "l5r Obtener una acción"})
    elif action.use == "alentar":
        alentar(state, out, action, p)
    else:
        raise RuleViolation("void_use_unavailable", "l5r Vacío", use=action.use)


def alentar(state: L5rCombat, out: Outcome, action: L5rVoid, p: Fighter) -> None:
    """Alentar (T004-09, C-5): 2 points give a companion one die on his next roll; nobody
    receives more this way than his Void ring."""
    partner = str(action.partner)
    q = ally_of(state, p, action.actor, partner, "l5r Alentar")
    rules.check_alentar(q.alentar_received, q.void_max)
    pay(out, action.actor, p, "alentar")
    q.alentar_received += 1
    q.alentar_bonus += 1
    out.emit(
        "void.encouraged",
        {
            "character": action.actor,
            "partner": partner,
            "received": q.alentar_received,
            "rule": "l5r Alentar",
        },
    )


def grant(state: L5rCombat, out: Outcome, action: L5rGrantVoid, *, moderator: bool) -> None:
    """C-3: a moderator confirms 2 exploding dice on a story roll: +1 point, capped."""
    if not moderator:
        raise RuleViolation("forbidden", None, needs="moderator")
    p = state.participants.get(action.character)
    if p is None:
        raise RuleViolation("not_in_combat", None, character=action.character)
    p.void = min(p.void_max, p.void + 1)
    out.emit(
        "void.regained",
        {
            "character": action.character,
            "void_points": p.void,
            "reason": "dm_confirmed",
            "rule": "l5r Vacío (recovery)",
        },
    )
