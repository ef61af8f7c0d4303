"""Error codes only the cypher ruleset raises: code -> (HTTP status, English, Spanish).

Merged into :data:`shared.errors.CATALOGUE` through :mod:`shared.rulesets.registry`; a code more
than one ruleset raises lives in :mod:`shared.errors` instead.
"""

from __future__ import annotations

from typing import Final

CODES: Final[dict[str, tuple[int, str, str]]] = {
    "resolution_pending": (
        422,
        "The previous action is still being resolved; try again in a moment.",
        "La acción anterior aún se está resolviendo; inténtalo de nuevo en un momento.",
    ),
    "effort_too_high": (
        422,
        "The character cannot declare that many levels of Effort.",
        "El personaje no puede declarar tantos niveles de Esfuerzo.",
    ),
    "insufficient_pool": (
        422,
        "The pool does not have the points that Effort costs.",
        "La Reserva no tiene los puntos que cuesta el Esfuerzo.",
    ),
    "rest_in_progress": (
        422,
        "The character is already resting.",
        "El personaje ya está descansando.",
    ),
    "attack_impossible_underwater": (
        422,
        "That attack is impossible underwater.",
        "Ese ataque es imposible bajo el agua.",
    ),
    "debilitated": (422, "The character is debilitated.", "El personaje está incapacitado."),
    "invalid_stat_for_attack": (
        422,
        "That stat cannot be used for this attack.",
        "Esa reserva no sirve para este ataque.",
    ),
    "no_rests_left": (
        422,
        "No recovery rolls left today.",
        "No quedan tiradas de recuperación hoy.",
    ),
    "one_action_per_turn": (422, "Only one action per turn.", "Solo una acción por turno."),
    "out_of_range": (422, "Out of range.", "Fuera de alcance."),
    "recovery_option_invalid": (
        422,
        "That recovery option is not valid.",
        "Esa opción de recuperación no es válida.",
    ),
    "target_full_cover": (422, "That target is in full cover.", "Ese objetivo está a cubierto."),
}
