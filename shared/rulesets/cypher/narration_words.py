"""The words of cypher's narration: pools as the seed names them (Vigor, Velocidad, Intelecto),
the damage track (ileso, lesionado, incapacitado, muerto), distances."""

from __future__ import annotations

from typing import Final

from shared.narration.said import Said
from shared.narration.words import T, Unit, pick

POOLS: Final = {
    "might": T("Vigor", "Might"),
    "speed": T("Velocidad", "Speed"),
    "intellect": T("Intelecto", "Intellect"),
}
TRACK: Final = {
    "unhurt": T("ileso", "hale"),
    "hale": T("ileso", "hale"),
    "impaired": T("lesionado", "impaired"),
    "debilitated": T("incapacitado", "debilitated"),
    "dead": T("muerto", "dead"),
}
DISTANCES: Final = {
    "immediate": T("a distancia inmediata", "an immediate distance"),
    "short": T("a distancia corta", "a short distance"),
    "long": T("a distancia larga", "a long distance"),
}
POINTS: Final = Unit(("punto", "puntos"), ("point", "points"))
ROUNDS: Final = Unit(("asalto", "asaltos"), ("round", "rounds"))


def pool(e: Said, name: object) -> str:
    return e.t(pick(POOLS, name, T(str(name), str(name))))


def track(e: Said, name: object) -> str:
    return e.t(pick(TRACK, name, T(str(name), str(name))))
