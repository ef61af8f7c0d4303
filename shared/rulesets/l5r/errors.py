"""Error codes only the l5r ruleset raises: code -> (HTTP status, English, Spanish).

Merged into :data:`shared.errors.CATALOGUE` through :mod:`shared.rulesets.registry`; a code more
than one ruleset raises lives in :mod:`shared.errors` instead.
"""

from __future__ import annotations

from typing import Final

CODES: Final[dict[str, tuple[int, str, str]]] = {
    "no_void_to_veto": (
        422,
        "No Void point the referee gave for two exploding dice is left to veto.",
        "No queda ningún punto de vacío dado por dos dados relanzables que vetar.",
    ),
    "not_enough_void": (
        422,
        "Not enough Void points for that use.",
        "No tienes suficientes puntos de vacío para ese uso.",
    ),
    "alentar_cap": (
        422,
        "That companion cannot receive more Void points through Alentar (his Void ring).",
        "Ese compañero no puede recibir más puntos de vacío con Alentar (su anillo de vacío).",
    ),
    "extra_attack_limit": (
        422,
        "Only one extra-attack attempt per round.",
        "Sólo puedes intentar conseguir un ataque adicional por asalto.",
    ),
    "prone": (
        422,
        "You are lying down: standing up is your action.",
        "Estás tendido en el suelo: ponerte en pie es tu acción.",
    ),
    "not_prone": (422, "You are not lying down.", "No estás tendido en el suelo."),
    "not_fallen": (
        422,
        "A Golpe final needs you Down, Out or dead.",
        "El golpe final exige estar Caído, Inconsciente o muerto.",
    ),
    "movement_exceeded": (
        422,
        "That is farther than your movement allows this round.",
        "Eso supera tu capacidad de movimiento este asalto.",
    ),
    "movement_limit": (
        422,
        "Only one simple action per round can be used to move.",
        "Sólo puedes utilizar una acción simple para moverte por asalto.",
    ),
    "stance_already_declared": (
        422,
        "You already declared your stance this turn.",
        "Ya has declarado tu posición en este turno.",
    ),
    "not_an_opponent": (
        422,
        "That character is not an opponent.",
        "Ese personaje no es un adversario.",
    ),
    "not_an_ally": (422, "That character is not an ally.", "Ese personaje no es un aliado."),
    "initiative_already_rolled": (
        422,
        "Velocidad is spent before the initiative roll.",
        "Velocidad se gasta antes de lanzar la iniciativa.",
    ),
    "swap_window_closed": (
        422,
        "Initiative can only be swapped right after it is rolled.",
        "La iniciativa sólo se puede intercambiar justo después de calcularla.",
    ),
    "void_use_unavailable": (
        422,
        "That Void use is not available now.",
        "Ese uso del vacío no está disponible ahora.",
    ),
    "complex_after_full_move": (
        422,
        "A complex action allows at most half your movement.",
        "Una acción compleja sólo permite mover la mitad de tu capacidad de movimiento.",
    ),
    "action_pending": (
        422,
        "The previous attack is still being resolved.",
        "El ataque anterior todavía se está resolviendo.",
    ),
    "action_not_allowed_in_stance": (
        422,
        "That action is not allowed in this stance.",
        "Esa acción no está permitida en esta posición.",
    ),
    "attack_limit": (
        422,
        "Attack limit reached this round.",
        "Límite de ataques alcanzado en esta ronda.",
    ),
    "cannot_fight_mounted": (422, "Cannot fight mounted.", "No puede combatir montado."),
    "complex_action_limit": (
        422,
        "Complex action limit reached.",
        "Límite de acciones complejas alcanzado.",
    ),
    "disarm_at_range": (422, "Cannot disarm at range.", "No se puede desarmar a distancia."),
    "extra_action_cannot_attack": (
        422,
        "The extra action cannot be an attack.",
        "La acción extra no puede ser un ataque.",
    ),
    "no_other_action_while_running": (
        422,
        "No other action while running.",
        "Ninguna otra acción mientras corres.",
    ),
    "once_per_round": (422, "Only once per round.", "Solo una vez por ronda."),
    "one_void_use_per_roll": (422, "One Void point per roll.", "Un punto de Vacío por tirada."),
    "stance_not_declared": (422, "Declare a stance first.", "Declara una posición primero."),
    "swap_not_confirmed": (
        422,
        "The initiative swap was not confirmed.",
        "El cambio de iniciativa no fue confirmado.",
    ),
    "too_many_raises": (422, "Too many raises.", "Demasiados aumentos."),
    "unskilled_no_raises": (
        422,
        "Unskilled rolls cannot raise.",
        "Las tiradas sin habilidad no pueden hacer aumentos.",
    ),
}
