"""Error codes, their HTTP status and their messages in English and Spanish.

Rule violation codes are RULES.md section 9 in lower case without the ``E_`` prefix, plus
the codes API.md adds. A domain function raises :class:`RuleViolation`; the service
answers ``command.rejected``; the gateway renders the API.md error body from this catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from shared import errors_cypher, errors_l5r


class RuleViolation(Exception):  # noqa: N818 - a rule violation is not a program error
    """An action that the rules forbid: nothing is committed.

    ``rule`` is the seed reference (``"umh 2.4.1"``); ``details`` is JSON-ready context.
    """

    def __init__(self, code: str, rule: str | None = None, **details: Any) -> None:
        super().__init__(f"{code} ({rule})" if rule else code)
        self.code = code
        self.rule = rule
        self.details = details

    def as_payload(self) -> dict[str, Any]:
        return {"code": self.code, "rule": self.rule, "details": self.details}


@dataclass(frozen=True)
class ErrorKind:
    status: int
    en: str
    es: str
    extra: dict[str, Any] = field(default_factory=dict)


def _rule(en: str, es: str) -> ErrorKind:
    return ErrorKind(422, en, es)


CATALOGUE: Final[dict[str, ErrorKind]] = {
    # --- transport and contract (API.md "Errors") ---
    "malformed_json": ErrorKind(400, "The body is not valid JSON.", "El cuerpo no es JSON válido."),
    "unauthorized": ErrorKind(
        401, "Missing or wrong API key.", "Falta la clave de API o no es válida."
    ),
    "forbidden": ErrorKind(
        403, "This key may not make this call.", "Esta clave no puede hacer esta llamada."
    ),
    "not_found": ErrorKind(404, "Not found.", "No encontrado."),
    "method_not_allowed": ErrorKind(
        405, "This method is not allowed here (see Allow).", "Método no permitido aquí (ver Allow)."
    ),
    "version_mismatch": ErrorKind(
        409,
        "The combat changed since the version in If-Match.",
        "El combate ha cambiado desde la versión indicada en If-Match.",
    ),
    "request_in_progress": ErrorKind(
        409,
        "A request with this Idempotency-Key is still being processed.",
        "Una petición con esta Idempotency-Key todavía se está procesando.",
    ),
    "idempotency_key_reused": _rule(
        "This Idempotency-Key was used with a different body.",
        "Esta Idempotency-Key se usó con otro cuerpo.",
    ),
    "invalid_request": _rule(
        "The request does not match the schema.", "La petición no cumple el esquema."
    ),
    "payload_too_large": ErrorKind(413, "The body is too large.", "El cuerpo es demasiado grande."),
    "rate_limited": ErrorKind(429, "Too many requests.", "Demasiadas peticiones."),
    "dependency_unavailable": ErrorKind(
        503,
        "A dependency (RabbitMQ or Redis) is unavailable; nothing was changed.",
        "Una dependencia (RabbitMQ o Redis) no está disponible; no se cambió nada.",
    ),
    "internal_error": ErrorKind(
        500,
        "Unexpected error; nothing was changed unless the combat log shows it.",
        "Error inesperado; no se cambió nada salvo lo que muestre el registro del combate.",
    ),
    "not_implemented": _rule(
        "This part of the rules is not refereed yet.",
        "Esta parte de las reglas todavía no se arbitra.",
    ),
    # --- implicit rule codes (API.md) ---
    "insufficient_pa": _rule("Not enough action points.", "No tienes PA suficientes."),
    "not_in_combat": _rule(
        "That character is not in this combat.", "Ese personaje no está en este combate."
    ),
    "already_in_combat": _rule(
        "That character is already in a combat.", "Ese personaje ya está en un combate."
    ),
    "unknown_weapon": _rule(
        "The character has no such weapon (or names it twice).",
        "El personaje no tiene esa arma (o la nombra dos veces).",
    ),
    "unknown_skill": _rule(
        "The character has no such skill.", "El personaje no tiene esa habilidad."
    ),
    "unknown_character": _rule("No character with that id.", "No hay ningún personaje con ese id."),
    "wrong_phase": _rule(
        "That is not possible in the current phase of the combat.",
        "No es posible en la fase actual del combate.",
    ),
    "no_pending_reaction": _rule(
        "There is no pending reaction for that character and action.",
        "No hay ninguna reacción pendiente para ese personaje y acción.",
    ),
    "flee_on_cooldown": _rule("Fleeing is on cooldown.", "Huir está en tiempo de reutilización."),
    "join_vetoed": _rule("The side vetoed this entry.", "El bando ha denegado la entrada."),
    "reaction_pending": _rule(
        "A defense window is open: the turn waits for the defense.",
        "Hay una defensa pendiente: el turno espera a que se resuelva.",
    ),
    "combat_ended": _rule("The combat has ended.", "El combate ha terminado."),
    "combat_not_stalled": _rule(
        "The combat is not stalled: a clock, a defense window or a resolution will move it on.",
        "El combate no está detenido: un reloj, una defensa o una resolución lo hará avanzar.",
    ),
    "character_down": _rule(
        "That character can no longer fight in this combat.",
        "Ese personaje ya no puede combatir en este combate.",
    ),
    "invalid_target": _rule("That target is not valid here.", "Ese objetivo no es válido aquí."),
    "unsupported_ruleset": _rule("Unknown ruleset.", "Reglamento desconocido."),
    "ruleset_mismatch": _rule(
        "The character sheet belongs to another ruleset.",
        "La ficha del personaje pertenece a otro reglamento.",
    ),
    "duplicate_participant": _rule(
        "A character cannot be on both sides or twice.",
        "Un personaje no puede estar en ambos bandos ni dos veces.",
    ),
    "not_a_defense": _rule("That skill is not defensive.", "Esa habilidad no es defensiva."),
    "not_offensive": _rule(
        "Only an offensive skill can open a combat.",
        "Solo una habilidad ofensiva puede iniciar un combate.",
    ),
    # --- the aftermath (services/states) ---
    "requirement_already_earned": _rule(
        "That combat requirement was already earned in this combat.",
        "Ese requisito de combate ya se obtuvo en este combate.",
    ),
    "requirement_from_lower_rank": _rule(
        "No requirements from characters of a lower rank.",
        "No se obtienen requisitos de personajes de rango inferior.",
    ),
    "requirement_same_alliance": _rule(
        "No requirements from characters of the same group or alliance.",
        "No se obtienen requisitos de personajes de la misma agrupación o alianza.",
    ),
    "requirement_not_applicable": _rule(
        "That skill does not earn a requirement in this combat.",
        "Esa habilidad no otorga un requisito en este combate.",
    ),
    "requirement_not_available": _rule(
        "This combat grants no requirements.", "Este combate no otorga requisitos."
    ),
    "no_such_state": _rule(
        "The character does not hold that state now.", "El personaje no tiene ese estado ahora."
    ),
    "invalid_adjustment": _rule(
        "A moderator may lift or shorten a state, never lengthen it.",
        "Un moderador puede levantar o acortar un estado, nunca alargarlo.",
    ),
    # --- RULES.md section 9 ---
    "ability_already_used_this_round": _rule(
        "That skill was already used this round.", "Esa habilidad ya se usó en esta ronda."
    ),
    "ability_disputed": _rule(
        "That skill is disputed until a moderator rules on it.",
        "Esa habilidad está en disputa hasta que un moderador la resuelva.",
    ),
    "action_not_allowed_in_stance": _rule(
        "That action is not allowed in this stance.",
        "Esa acción no está permitida en esta posición.",
    ),
    "already_reacted": _rule(
        "You already reacted to that action.", "Ya reaccionaste a esa acción."
    ),
    "anticipation_chain": _rule(
        "An anticipation cannot be answered with another anticipation.",
        "Una anticipación no puede responderse con otra anticipación.",
    ),
    "attack_impossible_underwater": _rule(
        "That attack is impossible underwater.", "Ese ataque es imposible bajo el agua."
    ),
    "attack_limit": _rule(
        "Attack limit reached this round.", "Límite de ataques alcanzado en esta ronda."
    ),
    "bad_declaration_format": _rule(
        "The skill declaration is incomplete.", "La declaración de la habilidad está incompleta."
    ),
    "blind_cannot_evade": _rule(
        "A blind character cannot evade that.", "Un personaje ciego no puede evadir eso."
    ),
    "cannot_annul": _rule("That cannot be annulled.", "Eso no se puede anular."),
    "cannot_anticipate_defense": _rule(
        "Defensive skills cannot be anticipated.",
        "Las habilidades defensivas no se pueden anticipar.",
    ),
    "cannot_defend_indirect": _rule(
        "Indirect damage already received cannot be defended.",
        "El daño indirecto ya recibido no se puede defender.",
    ),
    "cannot_fight_mounted": _rule("Cannot fight mounted.", "No puede combatir montado."),
    "cannot_rejoin_fled_combat": _rule(
        "Nobody may rejoin a combat they fled.", "Nadie puede volver a un combate del que huyó."
    ),
    "challenge_out_of_range": _rule(
        "A challenge reaches at most 5 squares.", "Un reto alcanza como máximo 5 casillas."
    ),
    "complex_action_limit": _rule(
        "Complex action limit reached.", "Límite de acciones complejas alcanzado."
    ),
    "cone_diagonal": _rule(
        "Cones cannot be used diagonally.", "Los conos no se pueden usar en diagonal."
    ),
    "counter_needs_direct_damage": _rule(
        "A counterattack only answers direct damage.",
        "Un contraataque solo responde a daño directo.",
    ),
    "dead": _rule("The character is dead.", "El personaje está muerto."),
    "debilitated": _rule("The character is debilitated.", "El personaje está incapacitado."),
    "defense_not_applicable": _rule(
        "That defense does not apply to this attack.", "Esa defensa no se aplica a este ataque."
    ),
    "defense_type": _rule(
        "That type of defense is not allowed here.", "Ese tipo de defensa no está permitido aquí."
    ),
    "deny_not_allowed": _rule(
        "Only an IRRUMPIR entry can be denied.", "Solo se puede denegar una entrada con IRRUMPIR."
    ),
    "disarm_at_range": _rule("Cannot disarm at range.", "No se puede desarmar a distancia."),
    "enamored": _rule(
        "An enamored character cannot attack the one he loves.",
        "Un personaje enamorado no puede atacar a quien ama.",
    ),
    "evasion_direction": _rule(
        "Cannot evade in that direction.", "No se puede evadir en esa dirección."
    ),
    "evasion_insufficient": _rule(
        "That evasion does not leave the area.", "Esa evasión no sale del área."
    ),
    "evasion_overspend": _rule(
        "An evasion may not spend more speed than needed.",
        "Una evasión no puede gastar más velocidad de la necesaria.",
    ),
    "extra_action_cannot_attack": _rule(
        "The extra action cannot be an attack.", "La acción extra no puede ser un ataque."
    ),
    "firearm_block": _rule(
        "Firearms cannot block or be internal defenses.",
        "Las armas de fuego no pueden bloquear ni ser defensas internas.",
    ),
    "immobilized": _rule("The character is immobilized.", "El personaje está inmovilizado."),
    "immunity": _rule("The character is immune.", "El personaje es inmune."),
    "imprison_not_eligible": _rule(
        "That character cannot be imprisoned.", "Ese personaje no puede ser encarcelado."
    ),
    "initiator_incomplete": _rule(
        "The initiating skill is incomplete.", "La habilidad iniciadora está incompleta."
    ),
    "insufficient_speed": _rule("Not enough speed left.", "No queda velocidad suficiente."),
    "interference_action_not_allowed": _rule(
        "That action is not allowed in this interference turn.",
        "Esa acción no está permitida en este turno de interferencia.",
    ),
    "interference_limit": _rule(
        "A free interference turn allows one skill.",
        "Un turno de interferencia libre permite una habilidad.",
    ),
    "invalid_stat_for_attack": _rule(
        "That stat cannot be used for this attack.", "Esa reserva no sirve para este ataque."
    ),
    "irrumpir_locked": _rule(
        "IRRUMPIR is locked after fleeing.", "IRRUMPIR está bloqueado tras huir."
    ),
    "muted": _rule("A mute character cannot use that.", "Un personaje mudo no puede usar eso."),
    "not_allowed_in_prep": _rule(
        "That is not allowed in the preparation round.",
        "Eso no está permitido en la ronda de preparación.",
    ),
    "not_ambidextrous": _rule(
        "Only an ambidextrous character can use two weapons.",
        "Solo un personaje ambidiestro puede usar dos armas.",
    ),
    "not_eligible_for_postcombat": _rule(
        "Only an eligible winner can apply post-combat effects.",
        "Solo un ganador elegible puede aplicar efectos post-combate.",
    ),
    "not_reactable": _rule("That cannot be reacted to.", "A eso no se puede reaccionar."),
    "not_targeted": _rule(
        "You can only defend what targets you.",
        "Solo puedes defender lo que te tiene como objetivo.",
    ),
    "not_your_turn": _rule("It is not your turn.", "No es tu turno."),
    "no_effects_on_stalemate": _rule(
        "No effects apply after a stalemate.", "No se aplican efectos tras unas tablas."
    ),
    "no_other_action_while_running": _rule(
        "No other action while running.", "Ninguna otra acción mientras corres."
    ),
    "no_prep_for_late_joiner": _rule(
        "Late joiners have no preparation round.",
        "Quien entra tarde no tiene ronda de preparación.",
    ),
    "no_rests_left": _rule(
        "No recovery rolls left today.", "No quedan tiradas de recuperación hoy."
    ),
    "no_trigger": _rule(
        "Defensive skills only answer an incoming offensive skill.",
        "Las habilidades defensivas solo responden a una habilidad ofensiva recibida.",
    ),
    "once_per_round": _rule("Only once per round.", "Solo una vez por ronda."),
    "one_action_per_turn": _rule("Only one action per turn.", "Solo una acción por turno."),
    "one_void_use_per_roll": _rule("One Void point per roll.", "Un punto de Vacío por tirada."),
    "on_cooldown": _rule(
        "That skill is on cooldown.", "Esa habilidad está en tiempo de reutilización."
    ),
    "out_of_range": _rule("Out of range.", "Fuera de alcance."),
    "paralyzed": _rule("The character is paralyzed.", "El personaje está paralizado."),
    "pa_modification_forbidden": _rule(
        "Action points cannot be modified.", "Los PA no se pueden modificar."
    ),
    "postcombat_effect_stack": _rule(
        "Only one such post-combat effect applies.",
        "Solo se aplica uno de esos efectos post-combate.",
    ),
    "prisoner_action_forbidden": _rule(
        "A prisoner cannot do that.", "Un prisionero no puede hacer eso."
    ),
    "reaction_requirement": _rule(
        "The reaction requirements are not met.", "No se cumplen los requisitos de reacción."
    ),
    "reaction_uses_exhausted": _rule(
        "No uses of that reaction left in this combat.",
        "No quedan usos de esa reacción en este combate.",
    ),
    "recovery_option_invalid": _rule(
        "That recovery option is not valid.", "Esa opción de recuperación no es válida."
    ),
    "resist_not_allowed": _rule(
        "RESISTIR is not allowed here.", "RESISTIR no está permitido aquí."
    ),
    "room_locked": _rule(
        "The character cannot enter this room yet.",
        "El personaje todavía no puede entrar en esta sala.",
    ),
    "rounds": _rule("Round limit reached.", "Límite de rondas alcanzado."),
    "side_full": _rule("That side is full.", "Ese bando está completo."),
    "slot_boost_already_used": _rule(
        "This side already used a slot-raising skill.",
        "Este bando ya usó una habilidad que aumenta cupos.",
    ),
    "stance_not_declared": _rule("Declare a stance first.", "Declara una posición primero."),
    "stunned": _rule("The character is stunned.", "El personaje está aturdido."),
    "supplementary_affects_enemy": _rule(
        "Supplementary skills cannot affect enemies.",
        "Las habilidades suplementarias no pueden afectar a enemigos.",
    ),
    "swap_not_confirmed": _rule(
        "The initiative swap was not confirmed.", "El cambio de iniciativa no fue confirmado."
    ),
    "targets_not_declared": _rule("Declare the targets.", "Declara los objetivos."),
    "target_challenge_immune": _rule(
        "That character cannot be challenged right now.",
        "Ese personaje no puede ser retado ahora mismo.",
    ),
    "target_concealed": _rule("That target is concealed.", "Ese objetivo está oculto."),
    "target_full_cover": _rule("That target is in full cover.", "Ese objetivo está a cubierto."),
    "target_out_of_range": _rule(
        "The target is out of range.", "El objetivo está fuera de alcance."
    ),
    "target_unreachable_height": _rule(
        "The target is too high for that reach.",
        "El objetivo está demasiado alto para ese alcance.",
    ),
    "too_many_initial_targets": _rule(
        "At most two players can be attacked out of combat.",
        "Como máximo se puede atacar a dos jugadores fuera de combate.",
    ),
    "too_many_opponents": _rule("Too many opponents.", "Demasiados oponentes."),
    "too_many_raises": _rule("Too many raises.", "Demasiados aumentos."),
    "unskilled_no_raises": _rule(
        "Unskilled rolls cannot raise.", "Las tiradas sin habilidad no pueden hacer aumentos."
    ),
    "use_number_mismatch": _rule("The use number does not match.", "El número de uso no coincide."),
    "use_number_missing": _rule("State the use number.", "Indica el número de uso."),
    "zero_pa_limit": _rule(
        "At most two 0-PA actions per own turn.",
        "Como máximo dos acciones de 0 PA por turno propio.",
    ),
}


def _merge_ruleset_codes() -> None:
    """Each ruleset's own codes (``shared/errors_<ruleset>.py``) join the catalogue."""
    for codes in (errors_cypher.CODES, errors_l5r.CODES):
        for code, (status, en, es) in codes.items():
            CATALOGUE.setdefault(code, ErrorKind(status, en, es))


_merge_ruleset_codes()


def kind_of(code: str) -> ErrorKind:
    """The catalogue entry of a code; unknown codes are 422 rule violations."""
    return CATALOGUE.get(code, ErrorKind(422, code.replace("_", " "), code.replace("_", " ")))


def error_body(
    code: str,
    *,
    spanish: bool,
    rule: str | None = None,
    details: dict[str, Any] | None = None,
    message: str | None = None,
) -> dict[str, Any]:
    """The API.md error body."""
    kind = kind_of(code)
    text = message or (kind.es if spanish else kind.en)
    return {"error": {"code": code, "message": text, "rule": rule, "details": details or {}}}
