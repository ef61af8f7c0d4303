"""The field errors of a 422 ``invalid_request``, in the answer's language.

Each pydantic error becomes ``{"path", "message", "type"}``: the path of the field
(``body.stats.vit``), a message that starts with the path without its ``body.`` / ``query.``
part (``stats.vit: debe ser mayor o igual que 1``) and pydantic's error type. Spanish messages
are written here per error type, with the numbers and values of its context; English keeps
pydantic's own message. A type this table lacks falls back to a generic Spanish message with
pydantic's text, so nothing is ever left untranslated without a reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from shared.narration.words import Lang, Unit, counted, number

SPANISH: Final[dict[str, str]] = {
    "missing": "es obligatorio",
    "extra_forbidden": "no es un campo admitido",
    "string_type": "debe ser un texto",
    "string_too_short": "debe tener al menos {min_length}",
    "string_too_long": "debe tener como mucho {max_length}",
    "string_pattern_mismatch": "no tiene el formato esperado ({pattern})",
    "string_unicode": "debe ser un texto Unicode válido",
    "int_type": "debe ser un número entero",
    "int_parsing": "debe ser un número entero",
    "int_from_float": "debe ser un número entero, sin decimales",
    "float_type": "debe ser un número",
    "float_parsing": "debe ser un número",
    "finite_number": "debe ser un número finito",
    "bool_type": "debe ser true o false",
    "bool_parsing": "debe ser true o false",
    "greater_than": "debe ser mayor que {gt}",
    "greater_than_equal": "debe ser mayor o igual que {ge}",
    "less_than": "debe ser menor que {lt}",
    "less_than_equal": "debe ser menor o igual que {le}",
    "multiple_of": "debe ser múltiplo de {multiple_of}",
    "literal_error": "debe ser {expected}",
    "enum": "debe ser {expected}",
    "list_type": "debe ser una lista",
    "tuple_type": "debe ser una lista",
    "set_type": "debe ser una lista sin repetidos",
    "dict_type": "debe ser un objeto",
    "model_type": "debe ser un objeto",
    "model_attributes_type": "debe ser un objeto",
    "too_short": "debe tener al menos {min_length}",
    "too_long": "debe tener como mucho {max_length}",
    "none_required": "debe ser null",
    "union_tag_invalid": "el tipo {tag} no existe; debe ser {expected_tags}",
    "union_tag_not_found": "falta el campo {discriminator}",
    "json_invalid": "no es JSON válido",
    "json_type": "debe ser JSON",
    "datetime_parsing": "debe ser una fecha y hora RFC 3339",
    "datetime_type": "debe ser una fecha y hora RFC 3339",
    "date_parsing": "debe ser una fecha",
    "url_parsing": "debe ser una URL válida",
    "url_scheme": "debe ser una URL {expected_schemes}",
    "uuid_parsing": "debe ser un UUID",
    "frozen_field": "no se puede cambiar",
    "value_error": "valor no válido: {error}",
    "stream_id": "debe ser un id de evento <ms>-<seq>, dos enteros sin signo de 64 bits",
    "cursor_invalid": "no es un cursor de esta lista (use el next_cursor de la página anterior)",
    "assertion_error": "valor no válido: {error}",
}
GENERIC: Final = "valor no válido ({msg})"

# English for the errors the gateway finds itself (headers, stream ids), as pydantic says them.
ENGLISH: Final[dict[str, str]] = {
    "int_parsing": "Input should be a valid integer",
    "string_too_short": "String should have at least {min_length} characters",
    "string_too_long": "String should have at most {max_length} characters",
    "string_pattern_mismatch": "String should match pattern '{pattern}'",
    "value_error": "Value error, {error}",
    "stream_id": "a stream id <ms>-<seq>, each part an unsigned 64-bit integer",
    "cursor_invalid": "not a cursor of this list (pass the previous page's next_cursor)",
}


CHARACTERS: Final = Unit(("carácter", "caracteres"), ("character", "characters"))
ITEMS: Final = Unit(("elemento", "elementos"), ("item", "items"))


def _shown(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "null"
    if isinstance(value, int | float):
        return number(value, "es")
    return str(value)


def _spanish_or(text: str) -> str:
    """pydantic's ``'a', 'b' or 'c'`` as ``'a', 'b' o 'c'``."""
    return text.replace(" or ", " o ")


def spanish(error: Mapping[str, Any]) -> str:
    """The Spanish message of one pydantic error (without its path)."""
    kind = str(error.get("type", ""))
    context = {k: _shown(v) for k, v in (error.get("ctx") or {}).items()}
    if "expected" in context:
        context["expected"] = _spanish_or(context["expected"])
    if "expected_tags" in context:
        context["expected_tags"] = _spanish_or(context["expected_tags"])
    unit = CHARACTERS if kind.startswith("string_") else ITEMS
    for bound in ("min_length", "max_length"):
        raw = (error.get("ctx") or {}).get(bound)
        if isinstance(raw, int):
            context[bound] = counted(raw, unit, "es")
    template = SPANISH.get(kind, GENERIC)
    try:
        return template.format(msg=error.get("msg", ""), **context)
    except (KeyError, IndexError):
        return GENERIC.format(msg=error.get("msg", ""))


def found_error(
    path: str, kind: str, *, english: str | None = None, **context: Any
) -> dict[str, Any]:
    """A field error whose message is written in the answer's language when the error is
    rendered (:func:`localize`): one the gateway finds itself, or pydantic's where no request
    is at hand (``english``: pydantic's own message)."""
    found: dict[str, Any] = {"path": path, "type": kind, "ctx": context}
    if english is not None:
        found["en"] = english
    return found


def pending_errors(errors: Sequence[Mapping[str, Any]], prefix: str) -> list[dict[str, Any]]:
    """pydantic's errors, to be written in the answer's language later (:func:`localize`)."""
    return [
        found_error(
            field_path([prefix, *e.get("loc", ())]),
            str(e.get("type", "")),
            english=str(e.get("msg", "")),
            **{k: v for k, v in (e.get("ctx") or {}).items() if isinstance(v, int | float | str)},
        )
        for e in errors
    ]


def localize(errors: Sequence[Mapping[str, Any]], lang: Lang) -> list[dict[str, Any]]:
    """Write the message of every error made by :func:`found_error`; others are kept."""
    shown: list[dict[str, Any]] = []
    for error in errors:
        if "message" in error or "type" not in error:
            shown.append(dict(error))
            continue
        kind = str(error["type"])
        context = dict(error.get("ctx") or {})
        if lang == "es":
            text = spanish({"type": kind, "ctx": context, "msg": error.get("en", "")})
        elif "en" in error:
            text = str(error["en"])
        else:
            text = ENGLISH.get(kind, kind).format(**{k: str(v) for k, v in context.items()})
        path = str(error.get("path", ""))
        shown.append({"path": path, "message": f"{short_path(path)}: {text}", "type": kind})
    return shown


def short_path(path: str) -> str:
    """``body.stats.vit`` -> ``stats.vit`` (the part a client wrote)."""
    head, _, rest = path.partition(".")
    return rest if head in ("body", "query", "path", "header") and rest else path


def field_path(loc: Iterable[Any]) -> str:
    return ".".join(str(p) for p in loc)


def _untagged(loc: Sequence[Any], body: Any) -> list[Any]:
    """``body.umh.stats.vit`` -> ``body.stats.vit``: pydantic names the member of a tagged
    union (a sheet's ``ruleset``, an action's ``type``) in the path; the client did not."""
    tagged = len(loc) > 2 and loc[0] == "body" and isinstance(body, Mapping)
    if tagged and loc[1] in (body.get("ruleset"), body.get("type")):
        return [loc[0], *loc[2:]]
    return list(loc)


def field_errors(
    errors: Sequence[Mapping[str, Any]], lang: Lang, *, prefix: str = "", body: Any = None
) -> list[dict[str, str]]:
    """The ``details.errors`` of a 422, each message in ``lang``."""
    shown: list[dict[str, str]] = []
    for error in errors:
        loc = _untagged([p for p in (prefix, *error.get("loc", ())) if p != ""], body)
        path = field_path(loc)
        text = spanish(error) if lang == "es" else str(error.get("msg", ""))
        where = short_path(path)
        message = f"{where}: {text}" if where else text
        shown.append({"path": path, "message": message, "type": str(error.get("type", ""))})
    return shown


def summary(errors: Sequence[Mapping[str, str]], headline: str, lang: Lang) -> str:
    """The error's ``message``: the catalogue's sentence and the first field's problem."""
    if not errors:
        return headline
    more = len(errors) - 1
    tail = ""
    if more:
        tail = f" (y {more} más)" if lang == "es" else f" (and {more} more)"
    return f"{headline.rstrip('.')}: {errors[0]['message']}{tail}."
