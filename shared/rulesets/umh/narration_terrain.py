"""umh narration of the skills kept on squares of the grid (umh 4.1.5.1, 11.4.1 - 11.4.1.2,
11.3.3): placed, ended, and a hazard hurting whoever starts his turn on it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from shared.narration.said import Narrations, Said
from shared.narration.words import T, Unit, pick
from shared.rulesets.umh.narration_hits import hidden_harm

TERRAIN: Final = Narrations()

ROUNDS: Final = Unit(("ronda", "rondas"), ("round", "rounds"))
KINDS: Final = {
    "obstacle": T("un obstáculo", "an obstacle"),
    "hazard": T("un peligro", "a hazard"),
    "defense": T("una defensa externa", "an external defense"),
}
ENDINGS: Final = {
    "expired": T("{skill} de {who} se agota en {squares}", "{who}'s {skill} runs out on {squares}"),
    "broken": T(
        "{skill} de {who} se deshace en {squares}: ya no puede mantenerlo",
        "{who}'s {skill} on {squares} breaks: they can no longer keep it up",
    ),
}
ENDED: Final = T("{skill} de {who} termina en {squares}", "{who}'s {skill} ends on {squares}")


def squares(value: object) -> str:
    cells = value if isinstance(value, Iterable) and not isinstance(value, str) else []
    return ", ".join(
        f"({c[0]}, {c[1]})" for c in cells if isinstance(c, list | tuple) and len(c) == 2
    )


def _kind(e: Said) -> str:
    kind = str(e.get("kind"))
    return e.t(pick(KINDS, kind, T(kind, kind)))


@TERRAIN.on("terrain.placed")
def placed(e: Said) -> str:
    return (
        e.t(
            T(
                "{skill} de {who} deja {kind} en {squares} durante {rounds}",
                "{who}'s {skill} leaves {kind} on {squares} for {rounds}",
            ),
            skill=e.get("skill"),
            who=e.who("keeper"),
            kind=_kind(e),
            squares=squares(e.get("squares")),
            rounds=e.count(e.get("rounds", 0), ROUNDS),
        )
        + e.cite()
    )


@TERRAIN.on("terrain.ended")
def ended(e: Said) -> str:
    return (
        e.t(
            pick(ENDINGS, e.get("reason"), ENDED),
            skill=e.get("skill"),
            who=e.who("keeper"),
            squares=squares(e.get("squares")),
        )
        + e.cite()
    )


@TERRAIN.on("terrain.hurt")
def hurt(e: Said) -> str:
    head = e.t(
        T(
            "{who} empieza su turno sobre {skill} de {keeper}",
            "{who} starts their turn on {keeper}'s {skill}",
        ),
        who=e.who(),
        skill=e.get("skill"),
        keeper=e.who("keeper"),
    )
    if "damage" not in e.data and "hurt" in e.data:  # the player view: no numbers
        return head + ": " + hidden_harm(e, e.who(), e.data) + e.cite()
    harm = e.t(
        T(
            "recibe {damage} de daño, VIT {before} → {after}",
            "takes {damage} damage, VIT {before} → {after}",
        ),
        damage=e.num(e.get("damage", 0)),
        before=e.num(e.get("vit_before", 0)),
        after=e.num(e.get("vit_after", 0)),
    )
    return head + ": " + harm + e.cite()
