"""umh narration of what outlives a combat (umh 4, services/states): ``aftermath.applied`` by
its ``change``, the end of each wall-clock state (``<state>.expired``, ``vigor.recovered``,
``weekly_uses.reset``) and a moderator's ``status.adjusted``. Every one of these events carries
its own ``rule``."""

from __future__ import annotations

from typing import Final

from shared.narration.said import Narrations, Said
from shared.narration.words import T, Unit, pick

AFTERMATH: Final = Narrations()

VIGOR: Final = Unit(("punto de vigor", "puntos de vigor"), ("vigor point", "vigor points"))
USES: Final = Unit(("uso", "usos"), ("use", "uses"))
BY_MODERATOR: Final = T(" (lo levanta un moderador)", " (lifted by a moderator)")


def _until(e: Said, key: str = "until") -> str:
    if e.get(key) is None:
        return e.t(T(" sin fecha de fin", " with no end date"))
    return e.t(T(" hasta {at}", " until {at}"), at=e.clock(e.get(key)))


def _vigor_lost(e: Said) -> str:
    return e.t(
        T(
            "{who} pierde {n} ({total} en total) y lo recupera todo a {at}",
            "{who} loses {n} ({total} in all) and gets it all back at {at}",
        ),
        who=e.who(),
        n=e.count(e.get("vigor_lost_delta", 0), VIGOR),
        total=e.num(e.get("vigor_lost", 0)),
        at=e.clock(e.get("recovers_at")),
    )


REQUIREMENTS: Final = {
    "general": T(
        "{who} gana un requisito de combate general", "{who} earns a general combat requirement"
    ),
    "profile": T(
        "{who} gana un requisito de combate de perfil ({name})",
        "{who} earns a profile combat requirement ({name})",
    ),
    "skill": T(
        "{who} gana un requisito de combate de la habilidad {name}",
        "{who} earns a combat requirement for {name}",
    ),
}


def _requirement(e: Said) -> str:
    phrase = pick(REQUIREMENTS, e.get("kind"), REQUIREMENTS["general"])
    return e.t(phrase, who=e.who(), name=e.get("name") or "—")


def _imprisoned(e: Said) -> str:
    skill = e.get("skill")
    how = (
        e.t(T("en su celda", "in a cell"))
        if skill in (None, "cell")
        else e.t(T("con {s}", "with {s}"), s=skill)
    )
    return e.t(
        T("{by} encarcela a {who} {how}", "{by} imprisons {who} {how}"),
        by=e.who("by"),
        who=e.who(),
        how=how,
    ) + _until(e)


def _post_combat_state(e: Said) -> str:
    return e.t(
        T(
            "{by} deja a {who} con el estado {state} ({skill})",
            "{by} leaves {who} with the state {state} ({skill})",
        ),
        by=e.who("by"),
        who=e.who(),
        state=str(e.get("state", "")).replace("_", " "),
        skill=e.get("skill"),
    ) + _until(e)


def _weekly_use(e: Said) -> str:
    return e.t(
        T(
            "{who} gasta un uso semanal de {skill}: {used} de {limit}, hasta {at}",
            "{who} spends a weekly use of {skill}: {used} of {limit}, until {at}",
        ),
        who=e.who(),
        skill=e.get("skill"),
        used=e.num(e.get("uses_this_week")),
        limit=e.count(e.get("weekly_limit"), USES),
        at=e.clock(e.get("resets_at")),
    )


def _carried(e: Said) -> str:
    """umh 4.1.7: what he keeps into his next combat (HERIDAS, MUERTES Y SUCESOS)."""
    effects = [str(f.get("type", "?")).replace("_", " ") for f in e.get("effects") or ()]
    vit = e.get("vit")
    if vit is None and not effects:
        return e.t(
            T("{who} acaba el combate sin heridas", "{who} ends the combat unhurt"), who=e.who()
        )
    parts: list[str] = []
    if vit is not None:
        parts.append(
            e.t(
                T("VIT {vit} de {top}", "VIT {vit} of {top}"),
                vit=e.num(vit),
                top=e.num(e.get("vit_max")),
            )
        )
    if effects:
        parts.append(", ".join(effects))
    text = e.t(
        T(
            "{who} se lleva al próximo combate {what}",
            "{who} takes into his next combat {what}",
        ),
        who=e.who(),
        what="; ".join(parts),
    )
    if e.get("recovers_at"):
        text += e.t(T(" (sana a {at})", " (healed at {at})"), at=e.clock(e.get("recovers_at")))
    return text


THEFT_REASONS: Final = {
    "lower_rank": T("su rango es inferior", "a lower rank"),
    "rank_unknown": T("no se conoce su rango", "the rank is unknown"),
    "annulled": T("el combate se anuló", "the combat was annulled"),
}


def _theft(e: Said) -> str:
    """umh 4.2.5: a stolen item kept (a rival of equal or higher rank) or given back."""
    fields = {"who": e.who(), "item": e.get("item"), "target": e.who("target")}
    if e.get("kept"):
        return e.t(
            T("{who} se queda {item} de {target}", "{who} keeps {target}'s {item}"), **fields
        )
    why = e.t(pick(THEFT_REASONS, e.get("reason"), THEFT_REASONS["lower_rank"]))
    return e.t(
        T("{who} devuelve {item} a {target}: {why}", "{who} gives {item} back to {target}: {why}"),
        why=why,
        **fields,
    )


SIMPLE_CHANGES: Final = {
    "immunity": T("{who} queda inmune a los retos{until}", "{who} cannot be challenged{until}"),
    "room_ban": T("{who} no puede volver a {room}{until}", "{who} may not return to {room}{until}"),
    "irrumpir_ban": T(
        "{who} no puede irrumpir en otros combates{until}",
        "{who} may not break into other combats{until}",
    ),
    "flee_cooldown": T("{who} no puede volver a huir{until}", "{who} may not flee again{until}"),
}


@AFTERMATH.on("aftermath.applied")
def aftermath_applied(e: Said) -> str:
    change = str(e.get("change"))
    special = {
        "vigor_lost": _vigor_lost,
        "requirement": _requirement,
        "imprisoned": _imprisoned,
        "post_combat_state": _post_combat_state,
        "weekly_use": _weekly_use,
        "carried": _carried,
        "theft": _theft,
    }.get(change)
    if special is not None:
        return special(e) + e.cite()
    until_key = "immune_until" if change == "immunity" else "until"
    phrase = pick(SIMPLE_CHANGES, change, T("{who}: {change}", "{who}: {change}"))
    return (
        e.t(phrase, who=e.who(), room=e.get("room"), until=_until(e, until_key), change=change)
        + e.cite()
    )


def _expiry(e: Said, phrase: T, **fields: object) -> str:
    text = e.t(phrase, who=e.who(), **fields)
    if e.get("reason") == "lifted_by_moderator":
        text += e.t(BY_MODERATOR)
    return text + e.cite()


@AFTERMATH.on("immunity.expired")
def immunity_expired(e: Said) -> str:
    if e.get("reason") == "offensive_action":
        return _expiry(
            e, T("{who} pierde su inmunidad al atacar", "{who} loses the immunity by attacking")
        )
    return _expiry(e, T("Termina la inmunidad de {who}", "{who}'s immunity ends"))


@AFTERMATH.on("room_ban.expired")
def room_ban_expired(e: Said) -> str:
    return _expiry(
        e, T("{who} ya puede volver a {room}", "{who} may return to {room}"), room=e.get("room")
    )


@AFTERMATH.on("irrumpir_ban.expired")
def irrumpir_ban_expired(e: Said) -> str:
    return _expiry(
        e, T("{who} ya puede irrumpir en combates", "{who} may break into combats again")
    )


@AFTERMATH.on("flee_cooldown.expired")
def flee_cooldown_expired(e: Said) -> str:
    return _expiry(e, T("{who} ya puede volver a huir", "{who} may flee again"))


@AFTERMATH.on("imprisonment.expired")
def imprisonment_expired(e: Said) -> str:
    if e.get("reason") == "won_challenge":
        return _expiry(
            e,
            T("{who} gana su reto y recupera la libertad", "{who} wins the challenge and is free"),
        )
    return _expiry(e, T("{who} recupera la libertad", "{who} is free again"))


@AFTERMATH.on("post_combat_state.expired")
def post_combat_state_expired(e: Said) -> str:
    state = str(e.get("state", "")).replace("_", " ")
    return _expiry(
        e, T("Termina el estado {state} de {who}", "{who}'s state {state} ends"), state=state
    )


@AFTERMATH.on("vigor.recovered")
def vigor_recovered(e: Said) -> str:
    return _expiry(
        e, T("{who} recupera {n}", "{who} recovers {n}"), n=e.count(e.get("recovered", 0), VIGOR)
    )


@AFTERMATH.on("carried_vit.recovered")
def carried_vit_recovered(e: Said) -> str:
    return _expiry(
        e,
        T(
            "{who} recupera toda su VIT del combate anterior",
            "{who} gets back all the VIT of his last combat",
        ),
    )


@AFTERMATH.on("weekly_uses.reset")
def weekly_uses_reset(e: Said) -> str:
    return _expiry(
        e,
        T(
            "Empieza una semana nueva para los usos semanales de {who}",
            "A new week starts for {who}'s weekly uses",
        ),
    )


KINDS: Final = {
    "immunity": T("la inmunidad", "immunity"),
    "room_ban": T("la prohibición de volver a {key}", "ban from {key}"),
    "irrumpir_ban": T("la prohibición de irrumpir", "ban on breaking in"),
    "flee_cooldown": T("la espera para volver a huir", "wait to flee again"),
    "imprisonment": T("el encarcelamiento", "imprisonment"),
    "vigor": T("la recuperación de vigor", "vigor recovery"),
    "post_combat_state": T("el estado {key}", "state {key}"),
    "carried": T("lo que se lleva al próximo combate", "what he takes into his next combat"),
}


@AFTERMATH.on("status.adjusted")
def status_adjusted(e: Said) -> str:
    what = e.t(
        pick(KINDS, e.get("kind"), T(str(e.get("kind")), str(e.get("kind")))), key=e.get("key")
    )
    if e.get("action") == "lift":
        phrase = T(
            "Un moderador levanta {what} de {who}: «{why}»",
            "A moderator lifts {who}'s {what}: “{why}”",
        )
    elif e.get("action") == "set_vit":
        after = e.get("after") or {}
        vit = after.get("vit") if isinstance(after, dict) else None
        phrase = T(
            "Un moderador deja en {vit} la VIT que {who} se lleva al próximo combate: «{why}»",
            "A moderator sets the VIT {who} takes into his next combat to {vit}: “{why}”",
        )
        full = T("entera", "whole")
        shown = e.num(vit) if vit is not None else e.t(full)
        return e.t(phrase, vit=shown, who=e.who(), why=e.get("reason")) + e.cite()
    else:
        phrase = T(
            "Un moderador cambia el fin de {what} de {who} a {at}: «{why}»",
            "A moderator moves the end of {who}'s {what} to {at}: “{why}”",
        )
    at = e.get("until") if e.get("kind") == "carried" else e.get("after")
    return e.t(phrase, what=what, who=e.who(), why=e.get("reason"), at=e.clock(at)) + e.cite()
