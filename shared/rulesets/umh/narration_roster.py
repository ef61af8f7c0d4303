"""umh narration of who comes and goes: joins and their vetoes (umh 1.2.4), slots (1.2.3),
disconnections (4.3.3), pacts (4.1.1.3), interference turns (2.5), items and refunded PA."""

from __future__ import annotations

from typing import Final

from shared.narration.said import Narrations, Said
from shared.narration.words import T, Unit

ROSTER: Final = Narrations()


PA: Final = Unit(("PA", "PA"), ("AP", "AP"))
SLOTS: Final = Unit(("cupo", "cupos"), ("slot", "slots"))
VETOES: Final = Unit(("veto", "vetos"), ("veto", "vetoes"))
JOIN_WAYS: Final = {
    "irrumpir": T("irrumpiendo", "by IRRUMPIR"),
    "llamada_de_auxilio": T("por llamada de auxilio", "answering a call for help"),
}


@ROSTER.on("combatant.disconnected")
def disconnected(e: Said) -> str:
    if e.get("out"):
        return (
            e.t(
                T(
                    "{who} no volvió a tiempo y queda fuera del combate",
                    "{who} did not come back in time and is out",
                ),
                who=e.who(),
            )
            + e.cite()
        )
    return (
        e.t(
            T(
                "{who} se desconecta; tiene hasta {at} para volver",
                "{who} disconnects and has until {at} to return",
            ),
            who=e.who(),
            at=e.clock(e.get("deadline_ms")),
        )
        + e.cite()
    )


ROSTER.says(
    "combatant.reconnected",
    T("{who} vuelve al combate", "{who} is back in the combat"),
)


@ROSTER.on("combatant.joined")
def joined(e: Said) -> str:
    way = JOIN_WAYS.get(str(e.get("via")))
    how = e.t(way) if way else e.t(T("con {skill}", "with {skill}"), skill=e.get("skill"))
    return (
        e.t(
            T("{who} se une a {side} {how}", "{who} joins {side} {how}"),
            who=e.who(),
            side=e.side(e.get("side")),
            how=how,
        )
        + e.cite()
    )


@ROSTER.on("join.requested")
def join_requested(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} quiere irrumpir con {side}: {needed} lo impiden, hasta {at}",
                "{who} wants to break in on the side of {side}: {needed} stop it, until {at}",
            ),
            who=e.who("joiner"),
            side=e.side(e.get("side")),
            needed=e.count(e.get("vetoes_needed", 0), VETOES),
            at=e.clock(e.get("deadline_ms")),
        )
        + e.cite()
    )


@ROSTER.on("join.veto_cast")
def join_veto_cast(e: Said) -> str:
    return (
        e.t(
            T(
                "{by} veta la entrada de {who} ({n} en total)",
                "{by} vetoes {who}'s entry ({n} so far)",
            ),
            by=e.who("by"),
            who=e.who("joiner"),
            n=e.count(e.get("vetoes", 0), VETOES),
        )
        + e.cite()
    )


@ROSTER.on("join.vetoed")
def join_vetoed(e: Said) -> str:
    return (
        e.t(
            T(
                "{side} impiden la entrada de {who} (vetan {by})",
                "{side} keep {who} out (vetoed by {by})",
            ),
            side=e.side(e.get("side")),
            who=e.who("joiner"),
            by=e.names(e.get("vetoes")),
        )
        + e.cite()
    )


@ROSTER.on("side.slots_raised")
def slots_raised(e: Said) -> str:
    return (
        e.t(
            T("{by} amplía en {n} el bando de {side}", "{by} adds {n} to the side of {side}"),
            by=e.who("by"),
            n=e.count(e.get("slots", 0), SLOTS),
            side=e.side(e.get("side")),
        )
        + e.cite()
    )


ROSTER.says(
    "turn_order.changed",
    T(
        "Nuevo orden de turnos de la ronda {round}: {turn_order}",
        "New turn order for round {round}: {turn_order}",
    ),
)


@ROSTER.on("interference.started")
def interference_started(e: Said) -> str:
    kind = str(e.get("kind"))
    if kind == "predetermined":
        phrase = T(
            "{who} tiene un turno de interferencia para usar {skill}, hasta {at}",
            "{who} gets an interference turn to use {skill}, until {at}",
        )
    else:
        phrase = T(
            "{who} tiene un turno de interferencia libre, hasta {at}",
            "{who} gets a free interference turn, until {at}",
        )
    return e.t(
        phrase, who=e.who("holder"), skill=e.get("skill"), at=e.clock(e.get("deadline_ms"))
    ) + (e.cite(f"interference.started/{kind}"))


@ROSTER.on("interference.ended")
def interference_ended(e: Said) -> str:
    if e.get("reason") == "passed":
        return e.t(
            T("{who} pasa su turno de interferencia", "{who} passes the interference turn"),
            who=e.who("holder"),
        )
    return e.t(
        T("Termina el turno de interferencia de {who}", "{who}'s interference turn ends"),
        who=e.who("holder"),
    )


ROSTER.says(
    "item.equipped",
    T("{who} se equipa {item}", "{who} equips {item}"),
)


@ROSTER.on("item.stolen")
def item_stolen(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} roba {item} a {target} con {skill}",
                "{who} steals {item} from {target} with {skill}",
            ),
            who=e.who(),
            item=e.get("item"),
            target=e.who("target"),
            skill=e.get("skill"),
        )
        + e.cite()
    )


@ROSTER.on("pa.refunded")
def pa_refunded(e: Said) -> str:
    return (
        e.t(
            T("{who} recupera {pa}", "{who} gets back {pa}"),
            who=e.who(),
            pa=e.count(e.get("pa", 0), PA),
        )
        + e.cite()
    )


@ROSTER.on("pact.offered")
def pact_offered(e: Said) -> str:
    missing = e.get("missing") or []
    text = e.t(
        T("{by} propone un pacto de retirada", "{by} offers a pact to withdraw"), by=e.who("by")
    )
    if missing:
        verb = T("; falta {who}", "; still missing {who}")
        if len(missing) > 1:
            verb = T("; faltan {who}", "; still missing {who}")
        text += e.t(verb, who=e.names(missing))
    return text + e.cite()
