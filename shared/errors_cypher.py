"""Error codes only the cypher ruleset raises: code -> (HTTP status, English, Spanish).

Merged into :data:`shared.errors.CATALOGUE`; a code already there is not repeated here.
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
}
