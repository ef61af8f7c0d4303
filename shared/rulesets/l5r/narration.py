"""l5r (seed 004) narration: attacks and wounds (C-7), stances, the Void and its uses,
initiative and the tide of battle, simple and complex actions. Wound ranks keep their Spanish
names (Sano ... Muerto) as labels; rolls are written ``XgY`` in Spanish (tira X, guarda Y)."""

from __future__ import annotations

from typing import Final

from shared.narration.said import Narrations, Said
from shared.narration.words import T, Unit, label, pick

L5R_NARRATION: Final = Narrations(
    {
        "combat.phase_changed/preparation": "l5r Paso 1",
        "combat.phase_changed/fighting": "l5r Paso 2",
        "combat.ended/defeat": "l5r C-7",
        "turn.timed_out": "l5r Paso 2",
        "combatant.fled": "l5r Huir",
    },
    {"round": T("asalto", "round"), "the round": T("el asalto", "round")},
)
N: Final = L5R_NARRATION

VOID: Final = Unit(("punto de Vacío", "puntos de Vacío"), ("Void point", "Void points"))
WOUNDS: Final = Unit(("herida", "heridas"), ("wound", "wounds"))
RANKS: Final = {
    "healthy": T("Sano", "Healthy"),
    "nicked": T("Rasguñado", "Nicked"),
    "grazed": T("Magullado", "Grazed"),
    "hurt": T("Herido", "Hurt"),
    "injured": T("Malherido", "Injured"),
    "crippled": T("Lisiado", "Crippled"),
    "down": T("Caído", "Down"),
    "out": T("Inconsciente", "Out"),
    "dead": T("Muerto", "Dead"),
}
STANCES: Final = {
    "attack": T("la posición de ataque", "the attack stance"),
    "full_attack": T("la posición de ataque total", "the full attack stance"),
    "full_defense": T("la defensa total", "the full defense stance"),
}
VOID_USES: Final = {
    "incremento_no": T("Incremento del NO", "Raise the TN"),
    "obtener_accion": T("Obtener una acción", "Gain an action"),
    "cambiar_iniciativa": T("Cambiar iniciativa", "Swap initiative"),
    "alentar": T("Alentar", "Encourage"),
    "golpe_final": T("Golpe final", "Final blow"),
    "reduccion_heridas": T("Reducción de heridas", "Reduce wounds"),
    "velocidad": T("Velocidad", "Speed"),
}
WHY: Final = {
    "moved more than half": T(
        "por moverse más de la mitad de su movimiento", "for moving more than half the movement"
    ),
}
LOCATIONS: Final = {
    "torso": T("al torso", "at the torso"),
    "arm": T("a un brazo", "at an arm"),
    "leg": T("a una pierna", "at a leg"),
    "head": T("a la cabeza", "at the head"),
}


def rank(e: Said, name: object) -> str:
    return e.t(pick(RANKS, name, T(str(name), str(name))))


def dice(e: Said, spec: object) -> str:
    return str(spec).replace("k", "g") if e.lang == "es" else str(spec)


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
    text += e.t(
        T("; {target} sufre {n} ({b} → {a})", "; {target} takes {n} ({b} → {a})"),
        target=target,
        n=e.count(e.get("wounds_dealt", 0), WOUNDS),
        b=e.num(e.get("wounds_before")),
        a=e.num(e.get("wounds_after")),
    )
    if e.get("rank") != e.get("rank_before"):
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


@N.on("wounds.reduced")
def wounds_reduced(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} reduce las heridas del golpe de {hit} a {now}; heridas {b} → {a}",
                "{who} reduces the hit's wounds from {hit} to {now}; wounds {b} → {a}",
            ),
            who=e.who(),
            hit=e.num(e.get("wounds_of_hit")),
            now=e.num(e.get("now")),
            b=e.num(e.get("wounds_before")),
            a=e.num(e.get("wounds_after")),
        )
        + e.cite()
    )


@N.on("combatant.moved")
def combatant_moved(e: Said) -> str:
    phrase = T("{who} se mueve {m} m (máximo {max} m)", "{who} moves {m} m (at most {max} m)")
    if e.get("mode") == "run":
        phrase = T("{who} corre {m} m (máximo {max} m)", "{who} runs {m} m (at most {max} m)")
    return (
        e.t(phrase, who=e.who(), m=e.num(e.get("meters")), max=e.num(e.get("max")))
        + " (l5r Movimiento)"
    )


@N.on("combatant.spoke")
def combatant_spoke(e: Said) -> str:
    return e.t(
        T("{who} dice: «{text}»", "{who} says: “{text}”"), who=e.who(), text=e.get("text", "")
    )


@N.on("simple_action.taken")
def simple_action(e: Said) -> str:
    return (
        e.t(
            T("{who} hace una acción simple: {what}", "{who} takes a simple action: {what}"),
            who=e.who(),
            what=e.get("description"),
        )
        + e.cite()
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


@N.on("concentration.lost")
def concentration_lost(e: Said) -> str:
    return (
        e.t(T("{who} pierde la concentración", "{who} loses concentration"), who=e.who()) + e.cite()
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


@N.on("initiative.rolled")
def initiative_rolled(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} saca {total} de iniciativa ({spec})",
                "{who} rolls {total} for initiative ({spec})",
            ),
            who=e.who(),
            total=e.num(e.get("total")),
            spec=dice(e, e.get("spec")),
        )
        + e.cite()
    )


@N.on("initiative.swap_offered")
def swap_offered(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} ofrece cambiar la iniciativa con {partner}",
                "{who} offers to swap initiative with {partner}",
            ),
            who=e.who(),
            partner=e.who("partner"),
        )
        + e.cite()
    )


@N.on("initiative.swapped")
def swapped(e: Said) -> str:
    values = e.get("initiative") or {}
    shown = ", ".join(f"{e.name(c)} {e.num(v)}" for c, v in values.items())
    return (
        e.t(
            T(
                "{who} cambian su iniciativa ({shown}); orden: {order}",
                "{who} swap initiative ({shown}); order: {order}",
            ),
            who=e.names(e.get("characters")),
            shown=shown,
            order=e.names(e.get("order")),
        )
        + e.cite()
    )


@N.on("tide.chosen")
def tide_chosen(e: Said) -> str:
    if e.get("against"):
        return (
            e.t(
                T(
                    "{who} usará el curso del combate contra {foe}",
                    "{who} will turn the tide of battle against {foe}",
                ),
                who=e.who(),
                foe=e.who("against"),
            )
            + " (l5r Curso de combate)"
        )
    return (
        e.t(
            T(
                "{who} usará el curso del combate a su favor",
                "{who} will turn the tide of battle their way",
            ),
            who=e.who(),
        )
        + " (l5r Curso de combate)"
    )


@N.on("tide.rolled")
def tide_rolled(e: Said) -> str:
    if e.get("applied_to") == e.get("character"):
        phrase = T(
            "{who} saca {die} en el curso del combate y lo suma a su iniciativa",
            "{who} rolls {die} on the tide of battle and adds it to their initiative",
        )
    else:
        phrase = T(
            "{who} saca {die} en el curso del combate y lo resta a la iniciativa de {foe}",
            "{who} rolls {die} on the tide of battle and takes it from {foe}'s initiative",
        )
    return e.t(phrase, who=e.who(), die=e.num(e.get("die")), foe=e.who("applied_to")) + e.cite()


@N.on("tn.raised")
def tn_raised(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} sube en {b} su NO para ser impactado",
                "{who} raises their TN to be hit by {b}",
            ),
            who=e.who(),
            b=e.num(e.get("bonus")),
        )
        + e.cite()
    )


@N.on("turn.delayed")
def turn_delayed(e: Said) -> str:
    return e.t(T("{who} retrasa su turno", "{who} delays the turn"), who=e.who("actor")) + e.cite()


@N.on("action.gained")
def action_gained(e: Said) -> str:
    return (
        e.t(T("{who} obtiene una acción más", "{who} gains an extra action"), who=e.who())
        + e.cite()
    )


@N.on("golpe_final.declared")
def golpe_final(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} gasta {cost} en un golpe final (rango {rank})",
                "{who} spends {cost} on a final blow (rank {rank})",
            ),
            who=e.who(),
            cost=e.count(e.get("cost"), VOID),
            rank=rank(e, e.get("rank")),
        )
        + e.cite()
    )


@N.on("void.spent")
def void_spent(e: Said) -> str:
    use = e.t(pick(VOID_USES, e.get("use"), T(label(e.get("use")), label(e.get("use")))))
    return (
        e.t(
            T(
                "{who} gasta {cost} en {use}; le quedan {left}",
                "{who} spends {cost} on {use}; {left} left",
            ),
            who=e.who(),
            cost=e.count(e.get("cost"), VOID),
            use=use,
            left=e.num(e.get("void_points")),
        )
        + e.cite()
    )


@N.on("void.encouraged")
def void_encouraged(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} alienta a {partner} (ánimo recibido: {n})",
                "{who} encourages {partner} (encouragement received: {n})",
            ),
            who=e.who(),
            partner=e.who("partner"),
            n=e.num(e.get("received")),
        )
        + e.cite()
    )


@N.on("void.regained")
def void_regained(e: Said) -> str:
    text = e.t(
        T("{who} recupera un punto de Vacío: tiene {n}", "{who} regains a Void point: now {n}"),
        who=e.who(),
        n=e.num(e.get("void_points")),
    )
    if e.get("void_max") is not None:
        text += e.t(T(" de {max}", " of {max}"), max=e.num(e.get("void_max")))
    return text + e.cite()


@N.on("aftermath.applied")
def aftermath_applied(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} termina el combate con {n} de {max}; recupera uno a {at}",
                "{who} ends the combat with {n} of {max}; one comes back at {at}",
            ),
            who=e.who(),
            n=e.num(e.get("void_points")),
            max=e.count(e.get("void_max"), VOID),
            at=e.clock(e.get("regains_at")),
        )
        + e.cite()
    )


@N.on("pact.offered")
def pact_offered(e: Said) -> str:
    return (
        e.t(T("{who} propone dejar de luchar", "{who} offers to stop fighting"), who=e.who())
        + e.cite()
    )
