"""cypher narration of turns, initiative (001 ASALTO), movement (DISTANCIA), deaths and rests
(RECUPERAR)."""

from __future__ import annotations

from typing import Final

from shared.narration.said import Narrations, Said
from shared.narration.words import T, pick
from shared.rulesets.cypher.narration_words import DISTANCES, POINTS, pool, track

TURNS: Final = Narrations()
N: Final = TURNS


@N.on("combatant.moved")
def combatant_moved(e: Said) -> str:
    where = e.t(
        pick(DISTANCES, e.get("distance"), T(str(e.get("distance")), str(e.get("distance"))))
    )
    phrase = T("{who} se mueve {where}", "{who} moves {where}")
    if e.get("free"):
        phrase = T(
            "{who} se mueve {where} sin gastar su acción",
            "{who} moves {where} without spending the action",
        )
    return e.t(phrase, who=e.who(), where=where) + " (cypher DISTANCIA)"


@N.on("combatant.down")
def combatant_down(e: Said) -> str:
    return e.t(T("{who} muere", "{who} dies"), who=e.who()) + e.cite("combatant.down/damage")


@N.on("initiative.rolled")
def initiative_rolled(e: Said) -> str:
    rolls = e.get("rolls") or {}
    shown = ", ".join(f"{e.name(c)} {e.num(v)}" for c, v in rolls.items())
    text = e.t(
        T("Iniciativa del asalto {n}: {rolls}", "Initiative for round {n}: {rolls}"),
        n=e.num(e.get("round")),
        rolls=shown,
    )
    if e.get("npc_target_number") is not None:
        text += e.t(
            T(" contra {tn} de los PNJ", " against the NPCs' {tn}"),
            tn=e.num(e.get("npc_target_number")),
        )
    return (
        text
        + e.t(T("; orden: {order}", "; order: {order}"), order=e.names(e.get("order")))
        + e.cite()
    )


N.says(
    "initiative.reroll_requested",
    T(
        "{by} pide repetir la iniciativa desde el asalto {from_round}",
        "{by} asks to reroll initiative from round {from_round}",
    ),
)


@N.on("turn.started")
def turn_started(e: Said) -> str:
    if e.get("skipped"):
        return e.t(
            T("{who} pierde su turno por aturdimiento", "{who} loses the turn to being stunned"),
            who=e.who("actor"),
        ) + e.cite("turn.started/skipped")
    return e.t(
        T("Turno de {who} (asalto {n}), hasta {at}", "{who}'s turn (round {n}), until {at}"),
        who=e.who("actor"),
        n=e.num(e.get("round")),
        at=e.clock(e.get("deadline_ms")),
    )


@N.on("rest.started")
def rest_started(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} empieza su descanso n.º {n}, hasta {at}",
                "{who} starts rest number {n}, until {at}",
            ),
            who=e.who(),
            n=e.num(e.get("rest")),
            at=e.clock(e.get("due_ms")),
        )
        + e.cite()
    )


@N.on("rest.recovered")
def rest_recovered(e: Said) -> str:
    if e.get("option") == "special_damage":
        return (
            e.t(
                T("{who} descansa y pasa a {state}", "{who} rests and is now {state}"),
                who=e.who(),
                state=track(e, e.get("track_after")),
            )
            + e.cite()
        )
    if e.get("points") is None:  # the player view hides what he recovers (docs/views.md)
        return e.t(T("{who} descansa y se recupera", "{who} rests and recovers"), who=e.who()) + (
            e.cite()
        )
    applied = e.get("applied") or {}
    spread = ", ".join(f"{pool(e, k)} +{e.num(v)}" for k, v in applied.items()) or "—"
    return (
        e.t(
            T(
                "{who} descansa y recupera {n} ({spread})",
                "{who} rests and recovers {n} ({spread})",
            ),
            who=e.who(),
            n=e.count(e.get("points"), POINTS),
            spread=spread,
        )
        + e.cite()
    )


N.says(
    "rest.interrupted",
    T("Se interrumpe el descanso n.º {rest} de {who}", "{who}'s rest number {rest} is interrupted"),
)


N.says(
    "defense_effort.declared",
    T(
        "{who} pondrá {levels} nivel(es) de Esfuerzo en su próxima tirada de defensa",
        "{who} will put {levels} level(s) of Effort on his next defense roll",
    ),
)

N.says(
    "gm.intrusion",
    T(
        "El DJ interviene por {who}: su próximo ataque en la oscuridad se tira",
        "The GM intrudes for {who}: his next attack in the dark is rolled",
    ),
)

N.says(
    "disease.contracted",
    T("{who} contrae {disease} (nivel {level})", "{who} catches {disease} (level {level})"),
)

N.says("disease.cured", T("{who} se cura de {disease}", "{who} is cured of {disease}"))


@N.on("disease.rolled")
def disease_rolled(e: Said) -> str:
    if e.get("success"):
        phrase = T(
            "{who} resiste hoy {disease} (tirada de Vigor)",
            "{who} resists {disease} today (Might roll)",
        )
        return e.t(phrase, who=e.who(), disease=str(e.get("disease"))) + e.cite()
    disease = str(e.get("disease"))
    if e.get("damage") is None:  # the player view hides the numbers
        phrase = T("{who} no resiste hoy {disease}", "{who} fails against {disease} today")
        return e.t(phrase, who=e.who(), disease=disease) + e.cite()
    phrase = T(
        "{who} no resiste hoy {disease}: sufre {damage} de daño",
        "{who} fails against {disease} today: {damage} damage",
    )
    shown = e.t(phrase, who=e.who(), disease=disease, damage=e.num(e.get("damage")))
    return shown + e.cite()
