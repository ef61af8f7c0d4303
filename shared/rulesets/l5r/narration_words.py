"""The words of l5r's narration: wound ranks keep their Spanish names (Sano ... Muerto) as
labels; rolls are written ``XgY`` in Spanish (tira X, guarda Y); stances and Void uses."""

from __future__ import annotations

from typing import Final

from shared.narration.said import Said
from shared.narration.words import T, Unit, pick

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
