"""l5r narration of the Void and its uses (Vacío), initiative (Paso 1), the tide of battle
(Curso de combate), pacts, and the Void points a combat leaves (services/states)."""

from __future__ import annotations

from typing import Final

from shared.narration.said import Narrations, Said
from shared.narration.words import T, label, pick
from shared.rulesets.l5r.narration_words import VOID, VOID_USES, dice, rank

VOIDS: Final = Narrations()
N: Final = VOIDS


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


N.says(
    "initiative.swap_offered",
    T(
        "{who} ofrece cambiar la iniciativa con {partner}",
        "{who} offers to swap initiative with {partner}",
    ),
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


N.says(
    "tn.raised",
    T(
        "{who} sube en {bonus} su NO para ser impactado",
        "{who} raises their TN to be hit by {bonus}",
    ),
)


N.says(
    "turn.delayed",
    T("{actor} retrasa su turno", "{actor} delays the turn"),
)


N.says(
    "action.gained",
    T("{who} obtiene una acción más", "{who} gains an extra action"),
)


@N.on("golpe_final.declared")
def golpe_final(e: Said) -> str:
    if e.get("rank") is None:  # the player view hides wound ranks (docs/views.md)
        phrase = T("{who} gasta {cost} en un golpe final", "{who} spends {cost} on a final blow")
        return e.t(phrase, who=e.who(), cost=e.count(e.get("cost"), VOID)) + e.cite()
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
                "{who} gasta {cost} en {use}; {left}",
                "{who} spends {cost} on {use}; {left}",
            ),
            who=e.who(),
            cost=e.count(e.get("cost"), VOID),
            use=use,
            left=e.remaining(e.num(e.get("void_points")), one=e.get("void_points") == 1),
        )
        + e.cite()
    )


N.says(
    "void.encouraged",
    T(
        "{who} alienta a {partner} (ánimo recibido: {received})",
        "{who} encourages {partner} (encouragement received: {received})",
    ),
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
    if e.get("reason") == "two_exploding_dice":
        text += e.t(
            T(
                " (dos dados relanzables; la moderación puede vetarlo)",
                " (two exploding dice; a moderator may veto it)",
            )
        )
    return text + e.cite()


@N.on("void.vetoed")
def void_vetoed(e: Said) -> str:
    return (
        e.t(
            T(
                "La moderación veta el punto de Vacío de {who}: tiene {n}",
                "A moderator vetoes {who}'s Void point: now {n}",
            ),
            who=e.who(),
            n=e.num(e.get("void_points")),
        )
        + e.cite()
    )


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


N.says(
    "pact.offered",
    T("{who} propone dejar de luchar", "{who} offers to stop fighting"),
)
