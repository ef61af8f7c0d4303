"""l5r (seed 004) narration: attacks and wounds (C-7), movement, stances, simple and complex
actions. The Void, initiative and the tide of battle are told in :mod:`.narration_void`, the
words both use in :mod:`.narration_words`; :data:`L5R_NARRATION` joins them."""

from __future__ import annotations

from typing import Final

from shared.narration.said import Narrations, Said, fill
from shared.narration.words import T, Unit, label, pick
from shared.rulesets.l5r.narration_void import VOIDS
from shared.rulesets.l5r.narration_words import LOCATIONS, STANCES, WHY, WOUNDS, rank

ATTACKS: Final = Narrations(
    {
        "combat.phase_changed/preparation": "l5r Paso 1",
        "combat.phase_changed/fighting": "l5r Paso 2",
        "combat.ended/defeat": "l5r C-7",
        "turn.timed_out": "l5r Paso 2",
        "combatant.fled": "l5r Huir",
    },
    {"round": T("asalto", "round"), "the round": T("el asalto", "round")},
)
N: Final = ATTACKS


@N.on("action.declared")
def action_declared(e: Said) -> str:
    return e.t(
        T("{who} ataca a {target} con {skill}", "{who} attacks {target} with {skill}"),
        who=e.who("attacker"),
        target=e.names(e.get("targets")),
        skill=e.get("skill"),
    )


@N.on("action.resolved")
def action_resolved(e: Said) -> str:
    target = e.who("target")
    aim = e.t(LOCATIONS[e.get("called_shot")]) if e.get("called_shot") in LOCATIONS else ""
    text = e.t(
        T(
            "{who} ataca a {target}{aim} con {skill}: saca {total} contra NO {tn} ",
            "{who} attacks {target}{aim} with {skill}: rolls {total} against TN {tn} ",
        ),
        who=e.who("attacker"),
        target=target,
        aim=f" {aim}" if aim else "",
        skill=e.get("skill"),
        total=e.num(e.get("total")),
        tn=e.num(e.get("tn")),
    )
    if not e.get("success"):
        return text + e.t(T("y falla (l5r C-1)", "and misses (l5r C-1)"))
    text += e.t(T("y acierta", "and hits"))
    if int(e.get("hits") or 1) > 1:
        text += e.t(T(" {n} veces", " {n} times"), n=e.get("hits"))
    if e.get("feint"):
        return text + e.t(
            T(": es una finta, sin daño (l5r Finta)", ": a feint, no damage (l5r Finta)")
        )
    if "wounds_dealt" not in e.data:  # the player view hides the numbers (docs/views.md)
        hurt = T("; {target} recibe heridas", "; {target} is wounded")
        unhurt = T("; {target} no recibe heridas", "; {target} is not wounded")
        text += e.t(hurt if e.get("hurt") else unhurt, target=target)
    else:
        text += e.t(
            T("; {target} sufre {n} ({b} → {a})", "; {target} takes {n} ({b} → {a})"),
            target=target,
            n=e.count(e.get("wounds_dealt", 0), WOUNDS),
            b=e.num(e.get("wounds_before")),
            a=e.num(e.get("wounds_after")),
        )
    if e.get("rank") and e.get("rank") != e.get("rank_before"):
        text += e.t(T(" y pasa a {rank}", " and is now {rank}"), rank=rank(e, e.get("rank")))
    if e.get("knocked_down"):
        text += e.t(T("; {target} acaba en el suelo", "; {target} is knocked down"), target=target)
    if e.get("disarmed"):
        text += e.t(T("; {target} pierde su arma", "; {target} is disarmed"), target=target)
    return text + " (l5r C-7)"


DOWNS: Final = {
    "dead": T("{who} muere", "{who} dies"),
    "out": T("{who} pierde el conocimiento", "{who} is knocked out"),
    "down": T("{who} cae y ya no puede luchar", "{who} is down and can no longer fight"),
}


@N.on("combatant.down")
def combatant_down(e: Said) -> str:
    phrase = pick(DOWNS, e.get("rank"), DOWNS["down"])
    text = e.t(phrase, who=e.who())
    if e.get("rank") != "dead":
        text += e.t(T(" (rango {rank})", " (rank {rank})"), rank=rank(e, e.get("rank")))
    return text + e.cite()


@N.on("wound_rank.changed")
def wound_rank_changed(e: Said) -> str:
    if e.get("to") is None:  # the player view hides wound ranks (docs/views.md)
        return e.t(
            T("Cambia el rango de heridas de {who}", "{who}'s wound rank changes"), who=e.who()
        )
    return (
        e.t(
            T(
                "{who} pasa de {frm} a {to}: penalización de {p}",
                "{who} goes from {frm} to {to}: penalty {p}",
            ),
            who=e.who(),
            frm=rank(e, e.get("from")),
            to=rank(e, e.get("to")),
            p=e.num(e.get("penalty")),
        )
        + e.cite()
    )


REDUCED: Final = T(
    "{who} reduce las heridas del golpe de {wounds_of_hit} a {now}; "
    "heridas {wounds_before} → {wounds_after}",
    "{who} reduces the hit's wounds from {wounds_of_hit} to {now}; "
    "wounds {wounds_before} → {wounds_after}",
)


@N.on("wounds.reduced")
def wounds_reduced(e: Said) -> str:
    if e.get("now") is None:  # the player view hides the numbers (docs/views.md)
        phrase = T("{who} reduce las heridas del golpe", "{who} reduces the hit's wounds")
        return e.t(phrase, who=e.who()) + e.cite()
    return fill(e, REDUCED) + e.cite()


@N.on("combatant.moved")
def combatant_moved(e: Said) -> str:
    phrase = T("{who} se mueve {m} m (máximo {max} m)", "{who} moves {m} m (at most {max} m)")
    if e.get("mode") == "run":
        phrase = T("{who} corre {m} m (máximo {max} m)", "{who} runs {m} m (at most {max} m)")
    return (
        e.t(phrase, who=e.who(), m=e.num(e.get("meters")), max=e.num(e.get("max")))
        + " (l5r Movimiento)"
    )


N.says(
    "combatant.spoke",
    T("{who} dice: «{text}»", "{who} says: “{text}”"),
)


@N.on("combatant.joined")
def joined(e: Said) -> str:
    phrase = T("{who} se une al combate con {side}", "{who} joins the fight with {side}")
    return e.t(phrase, who=e.who(), side=e.side(e.get("side"))) + " (l5r Paso 1)"


N.says(
    "simple_action.taken",
    T("{who} hace una acción simple: {description}", "{who} takes a simple action: {description}"),
)


@N.on("complex_action.taken")
def complex_action(e: Said) -> str:
    text = e.t(
        T("{who} hace una acción compleja: {what}", "{who} takes a complex action: {what}"),
        who=e.who(),
        what=e.get("description"),
    )
    if e.get("total") is not None:
        outcome = (
            T(" y lo consigue", " and succeeds")
            if e.get("success")
            else T(" y falla", " and fails")
        )
        text += e.t(
            T("; saca {total} contra NO {tn}", "; rolls {total} against TN {tn}"),
            total=e.num(e.get("total")),
            tn=e.num(e.get("tn")),
        ) + e.t(outcome)
    return text + e.cite()


@N.on("concentration.gained")
def concentration_gained(e: Said) -> str:
    return (
        e.t(
            T("{who} se concentra en {target} ({n})", "{who} concentrates on {target} ({n})"),
            who=e.who(),
            target=e.who("target"),
            n=e.count(e.get("rounds"), Unit(("asalto", "asaltos"), ("round", "rounds"))),
        )
        + e.cite()
    )


N.says(
    "concentration.lost",
    T("{who} pierde la concentración", "{who} loses concentration"),
)


@N.on("stance.declared")
def stance_declared(e: Said) -> str:
    stance = e.t(pick(STANCES, e.get("stance"), T(label(e.get("stance")), label(e.get("stance")))))
    text = e.t(T("{who} adopta {stance}", "{who} takes {stance}"), who=e.who(), stance=stance)
    if e.get("full_defense_bonus") is not None:
        text += e.t(
            T(": +{b} a su NO frente a {n}", ": +{b} to the TN against {n}"),
            b=e.num(e.get("full_defense_bonus")),
            n=e.count(e.get("covers"), Unit(("oponente", "oponentes"), ("opponent", "opponents"))),
        )
    return text + e.cite()


@N.on("stance.benefits_lost")
def stance_benefits_lost(e: Said) -> str:
    why = WHY.get(str(e.get("reason")))
    reason = e.t(why) if why else str(e.get("reason", ""))
    return (
        e.t(
            T("{who} pierde la defensa total {why}", "{who} loses the full defense {why}"),
            who=e.who(),
            why=reason,
        )
        + e.cite()
    )


L5R_NARRATION: Final = Narrations.combine(ATTACKS, VOIDS)
