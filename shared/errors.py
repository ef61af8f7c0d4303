"""Error codes, their HTTP status and their messages in English and Spanish.

Rule violation codes are docs/rules.md section 9 in lower case without the ``E_`` prefix, plus
the codes docs/api.md adds. This module holds the platform's codes and the rule codes more than one
ruleset raises; each ruleset's own codes (``shared/rulesets/<ruleset>/errors.py``) join the
catalogue through :mod:`shared.rulesets.registry`. A domain function raises
:class:`RuleViolation`; the service answers ``command.rejected``; the gateway renders the
docs/api.md error body from this catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from shared.rulesets.registry import RULESETS


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
    # --- transport and contract (docs/api.md "Errors") ---
    "malformed_json": ErrorKind(400, "The body is not valid JSON.", "El cuerpo no es JSON válido."),
    "unauthorized": ErrorKind(
        401, "Missing or wrong API key.", "Falta la clave de API o no es válida."
    ),
    "forbidden": ErrorKind(
        403, "This key may not make this call.", "Esta clave no puede hacer esta llamada."
    ),
    "origin_not_allowed": ErrorKind(
        403,
        "No community allows this browser origin (settings cors.origins).",
        "Ninguna comunidad permite este origen de navegador (ajustes cors.origins).",
    ),
    "webhook_url_forbidden": _rule(
        "Webhooks may only call http or https URLs on public addresses.",
        "Los webhooks solo pueden llamar a URL http o https de direcciones públicas.",
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
    "request_timeout": ErrorKind(
        408,
        "The request body did not arrive in time.",
        "El cuerpo de la petición no llegó a tiempo.",
    ),
    "settings_invalid": ErrorKind(
        409,
        "The community's stored settings are not valid; PATCH /v1/settings repairs them.",
        "Los ajustes guardados de la comunidad no son válidos; PATCH /v1/settings los repara.",
    ),
    "sheet_invalid": ErrorKind(
        409,
        "The stored character sheet is not valid; PUT it again to replace it.",
        "La ficha guardada del personaje no es válida; vuelve a enviarla con PUT.",
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
    # --- implicit rule codes (docs/api.md) ---
    "not_in_combat": _rule(
        "That character is not in this combat.", "Ese personaje no está en este combate."
    ),
    "already_in_combat": _rule(
        "That character is already in a combat.", "Ese personaje ya está en un combate."
    ),
    "unknown_skill": _rule(
        "The character has no such skill.", "El personaje no tiene esa habilidad."
    ),
    "unknown_character": _rule("No character with that id.", "No hay ningún personaje con ese id."),
    "wrong_phase": _rule(
        "That is not possible in the current phase of the combat.",
        "No es posible en la fase actual del combate.",
    ),
    "join_vetoed": _rule("The side vetoed this entry.", "El bando ha denegado la entrada."),
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
    # --- the aftermath (services/states) ---
    "no_such_state": _rule(
        "The character does not hold that state now.", "El personaje no tiene ese estado ahora."
    ),
    # --- docs/rules.md section 9 ---
    "dead": _rule("The character is dead.", "El personaje está muerto."),
    "not_your_turn": _rule("It is not your turn.", "No es tu turno."),
    "paralyzed": _rule("The character is paralyzed.", "El personaje está paralizado."),
    "rounds": _rule("Round limit reached.", "Límite de rondas alcanzado."),
    "stunned": _rule("The character is stunned.", "El personaje está aturdido."),
    "zero_pa_limit": _rule(
        "At most two 0-PA actions per own turn.",
        "Como máximo dos acciones de 0 PA por turno propio.",
    ),
}


def _merge_ruleset_codes() -> None:
    """Each registered ruleset's own codes (``shared/rulesets/<ruleset>/errors.py``) join the
    catalogue; a code two of them define alike stays one entry, defined differently it fails."""
    for ruleset in RULESETS:
        for code, (status, en, es) in ruleset.errors.items():
            kind = ErrorKind(status, en, es)
            if CATALOGUE.setdefault(code, kind) != kind:
                raise ValueError(f"error code {code!r} of {ruleset.name} is already defined")


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
    """The docs/api.md error body."""
    kind = kind_of(code)
    text = message or (kind.es if spanish else kind.en)
    return {"error": {"code": code, "message": text, "rule": rule, "details": details or {}}}
