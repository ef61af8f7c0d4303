"""Narrators of the events every ruleset shares: the combat's frame (start, phases, rounds,
turns, end), dice, rejections, and the fallbacks a ruleset may refine with its own.

A ruleset's narrator of the same type wins (:mod:`shared.narration.narrate`); the rule these
cite comes from the event (``rule``) or from the ruleset's :class:`Narrations` ``rules``.
"""

from __future__ import annotations

from typing import Final

from shared.errors import kind_of
from shared.narration.said import Narrations, Said
from shared.narration.words import T, pick

COMMON: Final = Narrations()

ROUND: Final = T("ronda", "round")
THE_ROUND: Final = T("la ronda", "round")


@COMMON.on("combat.started")
def combat_started(e: Said) -> str:
    sides = e.get("sides") or {}
    opening = e.get("opening") or {}
    defenders = e.names(sides.get("defenders"))
    room = e.get("room", "")
    if opening.get("kind") == "skill":
        return e.t(
            T(
                "{attacker} ataca a {targets} con {skill}: empieza el combate en {room}",
                "{attacker} attacks {targets} with {skill}: the combat starts in {room}",
            ),
            attacker=e.who("initiator"),
            targets=e.names(opening.get("targets")) if opening.get("targets") else defenders,
            skill=opening.get("skill"),
            room=room,
        ) + e.cite("combat.started/skill")
    return e.t(
        T(
            "{attacker} reta a {defenders}: empieza el combate en {room}",
            "{attacker} challenges {defenders}: the combat starts in {room}",
        ),
        attacker=e.who("initiator"),
        defenders=defenders,
        room=room,
    ) + e.cite("combat.started/challenge")


PHASES: Final = {
    "opening": T("Se abre el combate", "The combat opens"),
    "preparation": T("Empieza la ronda de preparación", "The preparation round starts"),
    "fighting": T(
        "Termina la preparación: empieza la lucha", "Preparation is over: the fight starts"
    ),
    "ended": T("El combate ha terminado", "The combat is over"),
}


@COMMON.on("combat.phase_changed")
def phase_changed(e: Said) -> str:
    to = str(e.get("to"))
    text = e.t(
        pick(PHASES, to, T("El combate pasa a la fase {to}", "The combat moves to {to}")), to=to
    )
    deadline = e.get("deadline_ms")
    if deadline is not None:
        text += e.t(T(", hasta {at}", ", until {at}"), at=e.clock(deadline))
    return text + e.cite(f"combat.phase_changed/{to}")


ENDINGS: Final = {
    "defeat": T("Fin del combate: ganan {winners}", "The combat is over: {winners} win"),
    "fled": T(
        "Fin del combate: el bando rival ha huido, ganan {winners}",
        "The combat is over: the other side fled, {winners} win",
    ),
    "pact": T(
        "Fin del combate: los dos bandos pactan la retirada",
        "The combat is over: both sides agree to withdraw",
    ),
    "stalemate": T(
        "Fin del combate por estancamiento: pierden los dos bandos",
        "The combat ends in a stalemate: both sides lose",
    ),
    "disconnected": T(
        "Fin del combate: el bando rival no volvió a tiempo, ganan {winners}",
        "The combat is over: the other side did not come back in time, {winners} win",
    ),
    "annulled": T(
        "Un moderador anula el combate: «{why}»",
        "A moderator annuls the combat: “{why}”",
    ),
}
NO_WINNER: Final = T(
    "Fin del combate ({reason}), sin vencedor", "The combat is over ({reason}), with no winner"
)


@COMMON.on("combat.ended")
def combat_ended(e: Said) -> str:
    reason = str(e.get("reason"))
    winner = e.get("winner")
    people = e.get("participants") or {}
    side = [c for c, p in people.items() if isinstance(p, dict) and p.get("side") == winner]
    winners = f"{e.side(winner)} ({e.names(side)})" if side else e.side(winner)
    phrase = ENDINGS.get(reason)
    if phrase is None or (winner is None and "{winners}" in phrase.es):
        phrase = NO_WINNER
    return e.t(phrase, winners=winners, why=e.get("annul_reason") or "", reason=reason) + e.cite(
        f"combat.ended/{reason}"
    )


@COMMON.on("round.started")
def round_started(e: Said) -> str:
    order = e.get("turn_order") or e.get("order")
    text = e.t(
        T("Empieza {round} {n}", "{round} {n} starts"),
        round=e.term("the round", THE_ROUND),
        n=e.num(e.get("round")),
    )
    if order:
        text += e.t(T(". Orden: {order}", ". Order: {order}"), order=e.names(order))
    return text + e.cite()


@COMMON.on("round.ended")
def round_ended(e: Said) -> str:
    return (
        e.t(
            T("Termina {round} {n}", "{round} {n} ends"),
            round=e.term("the round", THE_ROUND),
            n=e.num(e.get("round")),
        )
        + e.cite()
    )


@COMMON.on("turn.started")
def turn_started(e: Said) -> str:
    text = e.t(
        T("Turno de {actor} ({round} {n})", "{actor}'s turn ({round} {n})"),
        actor=e.who("actor"),
        round=e.term("round", ROUND),
        n=e.num(e.get("round")),
    )
    if e.get("deadline_ms") is not None:
        text += e.t(T(", hasta {at}", ", until {at}"), at=e.clock(e.get("deadline_ms")))
    return text + e.cite()


TURN_ENDS: Final = {
    "passed": T("{actor} pasa turno", "{actor} passes the turn"),
    "pass": T("{actor} pasa turno", "{actor} passes the turn"),
    "timeout": T("Se acaba el tiempo del turno de {actor}", "{actor}'s turn runs out of time"),
    "stunned": T(
        "{actor} pierde el turno por aturdimiento", "{actor} loses the turn to being stunned"
    ),
    "down": T("{actor} cae y su turno termina", "{actor} falls and the turn ends"),
    "fled": T("{actor} huye y su turno termina", "{actor} flees and the turn ends"),
    "resumed": T(
        "Termina el turno de {actor}: su acción queda abandonada",
        "{actor}'s turn ends: the action is abandoned",
    ),
}
TURN_OVER: Final = T("Termina el turno de {actor}", "{actor}'s turn ends")


@COMMON.on("turn.ended")
def turn_ended(e: Said) -> str:
    reason = str(e.get("reason"))
    phrase = pick(TURN_ENDS, reason, TURN_OVER)
    return e.t(phrase, actor=e.who("actor")) + e.cite(f"turn.ended/{reason}")


@COMMON.on("turn.resumed")
def turn_resumed(e: Said) -> str:
    """The turn's clock starts again in full (a moderator resumed a stalled combat)."""
    return (
        e.t(
            T(
                "El turno de {actor} vuelve a empezar, hasta {at}",
                "{actor}'s turn starts again, until {at}",
            ),
            actor=e.who("actor"),
            at=e.clock(e.get("deadline_ms")),
        )
        + e.cite()
    )


STALLS: Final = {
    "no_clock": T("nada lo hacía avanzar", "nothing was moving it on"),
    "resolution_overdue": T("una resolución no llegaba", "a resolution never came back"),
}


@COMMON.on("combat.resumed")
def combat_resumed(e: Said) -> str:
    """A moderator's ``resume`` of a stalled combat (docs/api.md)."""
    stall = str(e.get("stall"))
    return e.t(
        T(
            "Se reanuda el combate detenido ({stall}) por decisión de {by}: «{why}»",
            "The stalled combat is resumed ({stall}) by {by}: “{why}”",
        ),
        stall=e.t(pick(STALLS, stall, T(stall, stall))),
        by=e.get("by", "?"),
        why=e.get("reason", ""),
    )


COMMON.says(
    "turn.timed_out",
    T("{actor} agota el tiempo de su turno", "{actor} runs out of time for the turn"),
)


@COMMON.on("action.declared")
def action_declared(e: Said) -> str:
    targets = [t for t in e.get("targets") or [] if isinstance(t, str)]
    if targets:
        return (
            e.t(
                T("{actor} usa {skill} contra {targets}", "{actor} uses {skill} on {targets}"),
                actor=e.who("attacker"),
                skill=e.get("skill"),
                targets=e.names(targets),
            )
            + e.cite()
        )
    return (
        e.t(
            T("{actor} usa {skill}", "{actor} uses {skill}"),
            actor=e.who("attacker"),
            skill=e.get("skill"),
        )
        + e.cite()
    )


@COMMON.on("action.completed")
def action_completed(e: Said) -> str:
    if e.get("attacker"):
        return e.t(
            T("Termina la acción de {actor}", "{actor}'s action is complete"),
            actor=e.who("attacker"),
        )
    return e.t(T("La acción ha terminado", "The action is complete"))


DOWN_CAUSES: Final = {
    "damage": T("{by} deja fuera de combate a {who}", "{by} takes {who} out of the fight"),
    "indirect": T("{who} cae por el daño indirecto", "{who} falls to damage over time"),
    "fall": T("{who} cae por una caída", "{who} falls from a height and is down"),
    "collision": T("{who} cae por un choque", "{who} is down after a collision"),
}


@COMMON.on("combatant.down")
def combatant_down(e: Said) -> str:
    cause = str(e.get("cause", "damage"))
    phrase = pick(DOWN_CAUSES, cause, T("{who} cae", "{who} is down"))
    if cause == "damage" and not e.get("by"):
        phrase = T("{who} cae", "{who} is down")
    return e.t(phrase, who=e.who(), by=e.who("by")) + e.cite(f"combatant.down/{cause}")


@COMMON.on("combatant.fled")
def combatant_fled(e: Said) -> str:
    if e.get("skill"):
        return (
            e.t(
                T("{who} huye del combate con {skill}", "{who} flees the combat with {skill}"),
                who=e.who(),
                skill=e.get("skill"),
            )
            + e.cite()
        )
    return e.t(T("{who} huye del combate", "{who} flees the combat"), who=e.who()) + e.cite()


@COMMON.on("combatant.ready")
def combatant_ready(e: Said) -> str:
    waiting = e.get("waiting")
    text = e.t(T("{who} termina de prepararse", "{who} is ready"), who=e.who())
    if waiting:
        missing = T("; falta {others}", "; still waiting for {others}")
        if len(waiting) > 1:
            missing = T("; faltan {others}", "; still waiting for {others}")
        text += e.t(missing, others=e.names(waiting))
    return text + e.cite()


COMMON.says(
    "combatant.stood_up",
    T("{who} se pone en pie", "{who} stands up"),
)


@COMMON.on("dice.rolled")
def dice_rolled(e: Said) -> str:
    kept = [k for k in e.get("kept") or [] if isinstance(k, int | float)]
    spec = str(e.get("spec", "")).replace("k", "g") if e.lang == "es" else e.get("spec", "")
    text = e.t(
        T("{who} tira {spec} y saca {total}", "{who} rolls {spec} for {total}"),
        who=e.who("roller") if e.get("roller") else e.t(T("El árbitro", "The referee")),
        spec=spec,
        total=e.num(e.get("total")),
    )
    if len(kept) > 1:
        text += f" ({' + '.join(e.num(k) for k in kept)})"
    return text


@COMMON.on("command.rejected")
def command_rejected(e: Said) -> str:
    """The catalogue's message of the rejection's code, and the rule that forbade it."""
    kind = kind_of(str(e.get("code")))
    message = (kind.es if e.lang == "es" else kind.en).rstrip(".")
    if len(message) > 1 and message[1].islower():
        message = message[0].lower() + message[1:]  # not a sentence of its own here
    return e.t(T("Acción rechazada: {message}", "Action refused: {message}"), message=message) + (
        e.cite()
    )
