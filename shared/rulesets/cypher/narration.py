"""cypher (seed 001) narration: declarations and resolutions of its actions (ATACAR, ACCIÓN,
RECUPERAR, DISTANCIA, the GM's damage). Turns, initiative, movement and rests are told in
:mod:`.narration_turns`, the words both use in :mod:`.narration_words`;
:data:`CYPHER_NARRATION` joins them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from shared.narration.said import Narrations, Said
from shared.narration.words import T, Unit, pick
from shared.rulesets.cypher.narration_turns import TURNS
from shared.rulesets.cypher.narration_words import POINTS, ROUNDS, pool, track

RESOLUTIONS: Final = Narrations(
    {
        "combat.started/challenge": "cypher ASALTO",
        "combat.started/skill": "cypher ASALTO",
        "combat.ended/defeat": "cypher INDICADOR (incapacitado)",
        "combatant.down/damage": "cypher INDICADOR (muerto)",
        "initiative.rolled": "cypher ASALTO",
        "turn.started/skipped": "cypher DAÑO ESPECIAL, B-18",
        "rest.interrupted": "cypher RECUPERAR",
        "initiative.reroll_requested": "cypher ASALTO",
    },
    {"round": T("asalto", "round"), "the round": T("el asalto", "round")},
)
N: Final = RESOLUTIONS

ACTIONS: Final = {
    "cypher.attack": T("{who} ataca a {target}", "{who} attacks {target}"),
    "cypher.action": T("{who} intenta una acción", "{who} attempts an action"),
    "cypher.recover": T(
        "{who} se toma un respiro para recuperarse", "{who} takes a breather to recover"
    ),
    "cypher.move": T("{who} intenta un movimiento largo", "{who} attempts a long move"),
    "cypher.inflict": T("El DJ aplica daño a {target}", "The GM deals damage to {target}"),
}


@N.on("action.declared")
def action_declared(e: Said) -> str:
    targets = e.get("targets") or []
    phrase = pick(ACTIONS, e.get("skill"), T("{who} actúa", "{who} acts"))
    return e.t(phrase, who=e.who("attacker"), target=e.names(targets))


def roll_text(e: Said, p: Mapping[str, Any]) -> str:
    """``saca 14 contra 9 y lo consigue`` (or the automatic outcome)."""
    automatic = p.get("automatic")
    if automatic == "difficulty_0" or automatic == "waived":
        return e.t(T("lo consigue sin tirar", "succeeds without rolling"))
    if automatic == "darkness_not_located":
        return e.t(
            T(
                "falla: no localiza al objetivo en la oscuridad",
                "fails: cannot find the target in the dark",
            )
        )
    if automatic == "minimum_spend_not_met":
        return e.t(
            T(
                "falla: no llega al gasto mínimo de {n}",
                "fails: cannot pay the minimum spend of {n}",
            ),
            n=e.count(p.get("minimum_spend"), POINTS),
        )
    outcome = T("y lo consigue", "and succeeds") if p.get("success") else T("y falla", "and fails")
    text = e.t(
        T(
            "saca {roll} contra {tn} (dificultad {d}) ",
            "rolls {roll} against {tn} (difficulty {d}) ",
        ),
        roll=e.num(p.get("roll")),
        tn=e.num(p.get("target_number")),
        d=e.num(p.get("difficulty")),
    ) + e.t(outcome)
    effect = {
        "minor": T(", con efecto menor", ", with a minor effect"),
        "major": T(", con efecto mayor", ", with a major effect"),
    }.get(str(p.get("effect")))
    return text + (e.t(effect) if effect else "")


def effort_text(e: Said, effort: Mapping[str, Any] | None) -> str:
    if not effort or not effort.get("levels"):
        return ""
    return e.t(
        T(" con {n} de Esfuerzo ({cost} de {pool})", " with {n} of Effort ({cost} of {pool})"),
        n=e.count(effort.get("levels"), Unit(("nivel", "niveles"), ("level", "levels"))),
        cost=e.count(effort.get("cost"), POINTS),
        pool=pool(e, effort.get("pool")),
    )


def damage_text(e: Said, who: str, d: Mapping[str, Any]) -> str:
    """``Bruno recibe 4 de daño (Vigor 10 → 6)`` and a step down the damage track."""
    if "health_before" in d:
        where = e.t(
            T("salud {b} → {a}", "health {b} → {a}"),
            b=e.num(d.get("health_before")),
            a=e.num(d.get("health_after")),
        )
    else:
        kind = d.get("damage_type", "might")
        before, after = d.get("pools_before") or {}, d.get("pools_after") or {}
        where = f"{pool(e, kind)} {e.num(before.get(kind))} → {e.num(after.get(kind))}"
    text = e.t(
        T("{who} recibe {n} de daño ({where})", "{who} takes {n} damage ({where})"),
        who=who,
        n=e.num(d.get("damage")),
        where=where,
    )
    if d.get("armor"):
        text += e.t(T(", tras {n} de Armadura", ", after {n} Armor"), n=e.num(d.get("armor")))
    if d.get("track_after") and d.get("track_after") != d.get("track_before"):
        text += e.t(
            T(", y pasa a {state}", ", and is now {state}"), state=track(e, d.get("track_after"))
        )
    return text


SPECIALS: Final = {
    "stunned": T(
        "{who} queda sin su próximo turno por aturdimiento",
        "{who} is stunned and loses the next turn",
    ),
    "paralyzed": T("{who} sufre parálisis", "{who} is paralyzed"),
    "paralysis_ended": T("{who} se libra de la parálisis", "{who} is no longer paralyzed"),
}


def special_text(e: Said, who: str, s: Mapping[str, Any]) -> str:
    effect = s.get("effect")
    if effect == "dazed":
        return e.t(
            T("{who} sufre desorientación durante {n}", "{who} is dazed for {n}"),
            who=who,
            n=e.count(s.get("rounds"), ROUNDS),
        )
    if effect == "track_steps":
        return e.t(
            T("{who} baja {n} en el indicador de daño", "{who} moves {n} down the damage track"),
            who=who,
            n=e.count(s.get("steps"), Unit(("peldaño", "peldaños"), ("step", "steps"))),
        )
    if effect == "poison":
        defense = s.get("defense") or {}
        resisted = (
            T("resiste el veneno", "resists the poison")
            if defense.get("success")
            else T("no resiste el veneno", "fails to resist the poison")
        )
        text = (
            e.t(T("{who} ", "{who} "), who=who)
            + e.t(resisted)
            + e.t(T(" (nivel {n})", " (level {n})"), n=e.num(s.get("level")))
        )
        if isinstance(s.get("damage"), Mapping):
            text += ": " + damage_text(e, who, s["damage"])
        return text
    return e.t(
        pick(SPECIALS, effect, T("{who}: {effect}", "{who}: {effect}")), who=who, effect=effect
    )


def result_texts(e: Said, results: list[Any]) -> list[str]:
    parts: list[str] = []
    for r in results:
        if not isinstance(r, Mapping):
            continue
        who = e.name(r.get("target"))
        if isinstance(r.get("damage"), Mapping):
            parts.append(damage_text(e, who, r["damage"]))
        elif "raw" in r:
            parts.append(damage_text(e, who, r))
        parts += [special_text(e, who, s) for s in r.get("special") or [] if isinstance(s, Mapping)]
    return parts


def _attack(e: Said) -> str:
    target = e.names([r.get("target") for r in e.get("results") or [] if isinstance(r, Mapping)])
    if e.get("defense_roll"):
        head = e.t(
            T(
                "{target} se defiende de {attack} de {who} con Velocidad: ",
                "{target} defends against {who}'s {attack} with Speed: ",
            ),
            target=target,
            attack=e.get("attack"),
            who=e.who("attacker"),
        ) + roll_text(e, {**e.data, "success": e.get("defended")})
    else:
        head = e.t(
            T(
                "{who} ataca a {target} con {attack} ({pool}){effort}: ",
                "{who} attacks {target} with {attack} ({pool}){effort}: ",
            ),
            who=e.who("attacker"),
            target=target,
            attack=e.get("attack"),
            pool=pool(e, e.get("stat")),
            effort=effort_text(e, e.get("effort")),
        ) + roll_text(e, e.data)
    rest = result_texts(e, e.get("results") or [])
    return "; ".join([head, *rest]) + " (cypher ATACAR)"


def _action(e: Said) -> str:
    what = e.get("description") or e.t(T("una acción", "an action"))
    return (
        e.t(
            T(
                "{who} intenta {what} con {pool}{effort}: ",
                "{who} attempts {what} with {pool}{effort}: ",
            ),
            who=e.who("attacker"),
            what=what,
            pool=pool(e, e.get("stat")),
            effort=effort_text(e, e.get("effort")),
        )
        + roll_text(e, e.data)
        + " (cypher ACCIÓN)"
    )


def _recover(e: Said) -> str:
    rec = e.get("recovery") or {}
    if rec.get("option") == "special_damage":
        return (
            e.t(
                T("{who} se recupera y pasa a {state}", "{who} recovers and is now {state}"),
                who=e.who("attacker"),
                state=track(e, rec.get("track_after")),
            )
            + " (cypher RECUPERAR)"
        )
    applied = rec.get("applied") or {}
    spread = ", ".join(f"{pool(e, k)} +{e.num(v)}" for k, v in applied.items()) or "—"
    return (
        e.t(
            T(
                "{who} tira {roll} y recupera {n} ({spread})",
                "{who} rolls {roll} and recovers {n} ({spread})",
            ),
            who=e.who("attacker"),
            roll=e.num(rec.get("roll")),
            n=e.count(rec.get("points"), POINTS),
            spread=spread,
        )
        + " (cypher RECUPERAR)"
    )


def _move(e: Said) -> str:
    return (
        e.t(
            T("{who} intenta un movimiento largo: ", "{who} attempts a long move: "),
            who=e.who("attacker"),
        )
        + roll_text(e, e.data)
        + " (cypher DISTANCIA)"
    )


def _inflict(e: Said) -> str:
    parts = result_texts(e, e.get("results") or [])
    reasons = [
        r.get("reason")
        for r in e.get("results") or []
        if isinstance(r, Mapping) and r.get("reason")
    ]
    head = e.t(T("Decisión del DJ", "The GM rules"))
    if reasons:
        head += f" («{reasons[0]}»)" if e.lang == "es" else f" (“{reasons[0]}”)"
    return f"{head}: {'; '.join(parts) or e.t(T('sin efecto', 'no effect'))} (cypher DAÑO)"


@N.on("action.resolved")
def action_resolved(e: Said) -> str:
    tell = {
        "cypher.attack": _attack,
        "cypher.action": _action,
        "cypher.recover": _recover,
        "cypher.move": _move,
        "cypher.inflict": _inflict,
    }.get(str(e.get("skill")), _action)
    return tell(e)


CYPHER_NARRATION: Final = Narrations.combine(RESOLUTIONS, TURNS)
