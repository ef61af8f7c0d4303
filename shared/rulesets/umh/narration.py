"""umh (seed 000) narration of a combat's flow: declarations, defense windows, movement, joins,
preparation; and the rule references the platform's narrators cite in a umh combat. Who comes
and goes is told in :mod:`.narration_roster`, hits in :mod:`.narration_hits`, what outlives a
combat in :mod:`.narration_aftermath`, what is kept on the terrain in :mod:`.narration_terrain`;
:data:`UMH_NARRATION` joins the five."""

from __future__ import annotations

from typing import Final

from shared.narration.said import Narrations, Said
from shared.narration.words import T, Unit, pick
from shared.rulesets.umh.narration_aftermath import AFTERMATH
from shared.rulesets.umh.narration_hits import HITS
from shared.rulesets.umh.narration_roster import PA, ROSTER
from shared.rulesets.umh.narration_terrain import TERRAIN

RULES: Final = {
    "combat.started/skill": "umh 1.1.1.1",
    "combat.started/challenge": "umh 1.1.1.2",
    "combat.phase_changed/preparation": "umh 1.3.1",
    "combat.phase_changed/fighting": "umh 2.1.1",
    "combat.ended/defeat": "umh 4.1.1.2",
    "combat.ended/fled": "umh 4.1.1.1",
    "combat.ended/pact": "umh 4.1.1.3",
    "combat.ended/stalemate": "umh 2.3.3.1",
    "combat.ended/disconnected": "umh 4.3.3",
    "combat.ended/annulled": "umh 4.2.4",
    "round.started": "umh 2.2.5",
    "turn.ended/passed": "umh 2.3.3",
    "turn.ended/timeout": "umh 2.3.5",
    "turn.timed_out": "umh 2.3.5",
    "turn.started/bonus": "umh 1.2.6.2",
    "action.declared/interference": "umh 2.5.2",
    "turn.paused": "umh 2.4.2",
    "combatant.down/damage": "umh 4.1.1.2",
    "combatant.down/indirect": "umh 11.2",
    "combatant.down/fall": "umh 11.5.3",
    "combatant.down/collision": "umh 11.6.1",
    "combatant.fled": "umh 4.1.1.1",
    "combatant.ready": "umh 1.3.1",
    "combatant.stood_up": "umh 11.5.2",
    "skill.disputed": "umh 1.1.5",
    "combatant.moved": "umh 2.3.2",
    "reaction.requested": "umh 2.4.2",
    "reaction.timed_out": "umh 2.4.2",
    "round.ended/stalemate": "umh 2.3.3.1",
    "reaction.requested/anticipation": "umh 8.2.2.4",
    "reaction.requested/reflected": "umh 8.2.5.2",
    "reaction.answered/again": "umh 8.1.1.3",
    "join.requested": "umh 1.2.4.1",
    "join.veto_cast": "umh 1.2.4.1",
    "combatant.joined": "umh 1.2.4",
    "combatant.disconnected": "umh 4.3.3",
    "side.slots_raised": "umh 1.2.3",
    "turn_order.changed": "umh 2.2.2",
    "interference.started/free": "umh 2.5.3.1",
    "interference.started/predetermined": "umh 2.5.3.2",
    "item.equipped": "umh 1.3.2",
    "item.stolen": "umh 4.2.5",
    "pact.offered": "umh 4.1.1.3",
}

FLOW: Final = Narrations(RULES)

SQUARES: Final = Unit(("casilla", "casillas"), ("square", "squares"))

DEFENSE_KINDS: Final = {
    "evasion": T("una evasión", "an evasion"),
    "anticipation": T("una anticipación", "an anticipation"),
    "annulment": T("una anulación", "an annulment"),
    "counter": T("un contraataque", "a counterattack"),
    "reflection": T("una reflexión", "a reflection"),
    "internal": T("una defensa interna", "an internal defense"),
    "external": T("una defensa externa", "an external defense"),
}


def square(value: object) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"({value[0]}, {value[1]})"
    return str(value)


@FLOW.on("action.declared")
def action_declared(e: Said) -> str:
    targets = e.get("targets") or []
    named = [t for t in targets if isinstance(t, str)]
    squares = [square(t) for t in targets if not isinstance(t, str)]
    aim = e.names(named) if named else ", ".join(squares)
    phrase = T("{actor} usa {skill}", "{actor} uses {skill}")
    if aim:
        phrase = T("{actor} usa {skill} contra {aim}", "{actor} uses {skill} on {aim}")
    if e.get("opening"):
        phrase = T(
            "{actor} abre el combate con {skill} contra {aim}",
            "{actor} opens with {skill} on {aim}",
        )
    text = e.t(phrase, actor=e.who("attacker"), skill=e.get("skill"), aim=aim)
    spent = e.get("pa_spent", 0)
    if spent:
        text += f" ({e.count(spent, PA)})"
    if e.get("interference"):
        text += e.t(T(" en su turno de interferencia", " in an interference turn"))
    return text + e.cite("action.declared/interference" if e.get("interference") else None)


@FLOW.on("reaction.requested")
def reaction_requested(e: Said) -> str:
    hits = int(e.get("hits") or 1)
    blow = (
        e.t(T(" (golpe {n} de {of})", " (hit {n} of {of})"), n=e.get("hit"), of=hits)
        if hits > 1
        else ""
    )
    if e.get("answer_to") == "anticipation":
        return e.t(
            T(
                "{reactor} puede responder a la anticipación de {by} hasta {at}",
                "{reactor} may answer {by}'s anticipation until {at}",
            ),
            reactor=e.who("reactor"),
            by=e.who("anticipation_by"),
            at=e.clock(e.get("deadline_ms")),
        ) + e.cite("reaction.requested/anticipation")
    if e.get("reflected_by"):
        return e.t(
            T(
                "{reactor} puede defenderse de {skill}, devuelto por {by}, hasta {at}",
                "{reactor} may defend against {skill}, sent back by {by}, until {at}",
            ),
            reactor=e.who("reactor"),
            skill=e.get("skill"),
            by=e.who("reflected_by"),
            at=e.clock(e.get("deadline_ms")),
        ) + e.cite("reaction.requested/reflected")
    return (
        e.t(
            T(
                "{reactor} puede defenderse de {skill} de {attacker}{blow} hasta {at}",
                "{reactor} may defend against {attacker}'s {skill}{blow} until {at}",
            ),
            reactor=e.who("reactor"),
            skill=e.get("skill"),
            attacker=e.who("attacker"),
            blow=blow,
            at=e.clock(e.get("deadline_ms")),
        )
        + e.cite()
    )


@FLOW.on("reaction.answered")
def reaction_answered(e: Said) -> str:
    reactor = e.who("reactor")
    if e.get("resist"):
        return e.t(T("{who} RESISTE el golpe", "{who} uses RESISTIR"), who=reactor) + e.cite(
            "umh 7.1.2.3"
        )
    again = int(e.get("answer") or 1) > 1  # umh 8.1.1.3: a skill reactable several times
    if not e.get("skill"):
        if again:
            return e.t(
                T("{who} no añade más defensas", "{who} adds no further defense"), who=reactor
            ) + e.cite("reaction.answered/again")
        return e.t(T("{who} no se defiende", "{who} does not defend"), who=reactor)
    kind = DEFENSE_KINDS.get(str(e.get("kind")))
    phrase = (
        T("{who} se defiende además con {skill}", "{who} also defends with {skill}")
        if again
        else T("{who} se defiende con {skill}", "{who} defends with {skill}")
    )
    text = e.t(phrase, who=reactor, skill=e.get("skill"))
    if kind is not None:
        text += e.t(T(", {kind}", ", {kind}"), kind=e.t(kind))
    if e.get("pa_spent"):
        text += f" ({e.count(e.get('pa_spent'), PA)})"
    left = int(e.get("answers_left") or 0)
    if left:
        text += e.t(T("; puede añadir {n} más", "; he may add {n} more"), n=e.num(left)) + e.cite(
            "reaction.answered/again"
        )
    return text


@FLOW.on("skill.disputed")
def skill_disputed(e: Said) -> str:
    if e.get("disputed"):
        phrase = T(
            "{skill} de {who} queda en disputa: no se puede usar hasta que un moderador decida",
            "{who}'s {skill} is disputed: it cannot be used until a moderator rules",
        )
    else:
        phrase = T(
            "Un moderador resuelve {skill} de {who}: se puede usar",
            "A moderator rules on {who}'s {skill}: it may be used",
        )
    return e.t(phrase, who=e.who(), skill=e.get("skill")) + e.cite()


FLOW.says(
    "reaction.timed_out",
    T("Se acaba el tiempo de {reactor} para defenderse", "{reactor} runs out of time to defend"),
)


@FLOW.on("round.ended")
def round_ended(e: Said) -> str:
    text = e.t(T("Termina la ronda {n}", "Round {n} ends"), n=e.num(e.get("round")))
    idle = int(e.get("stalemate_rounds") or 0)
    if idle == 1:
        text += e.t(T("; 1 ronda sin intención de combatir", "; 1 round with no intent to fight"))
    elif idle > 1:
        text += e.t(
            T(
                "; {n} rondas seguidas sin intención de combatir",
                "; {n} rounds in a row with no intent to fight",
            ),
            n=idle,
        )
    return text + (e.cite("round.ended/stalemate") if idle else "")


@FLOW.on("turn.started")
def turn_started(e: Said) -> str:
    text = e.t(
        T("Turno de {actor} (ronda {n}), hasta {at}", "{actor}'s turn (round {n}), until {at}"),
        actor=e.who("actor"),
        n=e.num(e.get("round")),
        at=e.clock(e.get("deadline_ms")),
    )
    bonus = e.get("pa_bonus") or 0
    if bonus:
        text += e.t(T("; recupera {pa}", "; regains {pa}"), pa=e.count(bonus, PA)) + e.cite(
            "turn.started/bonus"
        )
    return text


@FLOW.on("turn.paused")
def turn_paused(e: Said) -> str:
    return (
        e.t(
            T(
                "Se pausa el turno de {actor}; {left}",
                "{actor}'s turn is paused; {left}",
            ),
            actor=e.who("actor"),
            left=e.remaining(
                e.span(e.get("remaining_ms")), one=e.span(e.get("remaining_ms"))[:2] == "1 "
            ),
        )
        + e.cite()
    )


@FLOW.on("turn.resumed")
def turn_resumed(e: Said) -> str:
    return e.t(
        T("Sigue el turno de {actor}, hasta {at}", "{actor}'s turn resumes, until {at}"),
        actor=e.who("actor"),
        at=e.clock(e.get("deadline_ms")),
    ) + e.cite("turn.paused")


@FLOW.on("combatant.moved")
def combatant_moved(e: Said) -> str:
    return (
        e.t(
            T(
                "{who} se mueve de {frm} a {to} ({cost}; {left})",
                "{who} moves from {frm} to {to} ({cost}; {left})",
            ),
            who=e.who(),
            frm=square(e.get("from")),
            to=square(e.get("to")),
            cost=e.count(e.get("cost", 0), SQUARES),
            left=e.remaining(e.num(e.get("movement_left", 0)), one=e.get("movement_left") == 1),
        )
        + e.cite()
    )


HEIGHTS: Final = {
    "suelo": T("en el suelo", "on the ground"),
    "alzada": T("en una posición alzada", "at a raised height"),
    "voladora": T("en el aire", "in the air"),
}


@FLOW.on("combatant.position_changed")
def position_changed(e: Said) -> str:
    height = e.t(pick(HEIGHTS, e.get("height"), T(str(e.get("height")), str(e.get("height")))))
    if e.get("square") is not None:
        return e.t(
            T("{who} queda en {sq}, {height}", "{who} is now at {sq}, {height}"),
            who=e.who(),
            sq=square(e.get("square")),
            height=height,
        )
    return e.t(T("{who} queda {height}", "{who} is now {height}"), who=e.who(), height=height)


UMH_NARRATION: Final = Narrations.combine(FLOW, ROSTER, HITS, AFTERMATH, TERRAIN)
