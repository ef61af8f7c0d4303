"""Which language an answer speaks, and field errors in Spanish (docs/events.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from gateway.field_errors import GENERIC, field_errors, found_error, localize, summary
from gateway.language import Voice, requested, stored_voice
from gateway.narration import RULESET_FIELD, names_in


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, None),
        ("", None),
        ("es", "es"),
        ("en", "en"),
        ("es-ES,es;q=0.9,en;q=0.5", "es"),
        ("en-GB,es;q=0.5", "en"),
        ("fr-FR,en;q=0.3,es;q=0.7", "es"),
        ("fr", None),
        ("*", None),
        ("es;q=0, en;q=0", None),
        ("EN-us", "en"),
        ("es;q=nonsense, en;q=0.1", "en"),
    ],
)
def test_accept_language_picks_the_supported_language_of_highest_weight(
    header: str | None, lang: str | None
) -> None:
    assert requested(header) == lang


def test_the_community_default_is_read_tolerantly_and_is_spanish_unless_english() -> None:
    assert stored_voice(None) == Voice("es", "Europe/Madrid")
    assert stored_voice('{"language": "en", "timezone": "America/Mexico_City"}') == Voice(
        "en", "America/Mexico_City"
    )
    assert stored_voice('{"language": "fr"}').language == "es"
    assert stored_voice("not json") == Voice()
    assert stored_voice("[1, 2]") == Voice()


class Stats(BaseModel):
    model_config = ConfigDict(extra="forbid")
    vit: int = Field(ge=1)
    vel: float = Field(gt=0, allow_inf_nan=False)


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, StringConstraints(min_length=1, max_length=5)]
    room: Annotated[str, StringConstraints(pattern=r"^[a-z]+$")]
    ruleset: Literal["umh", "cypher", "l5r"]
    stats: Stats
    skills: list[str] = Field(max_length=1)


def errors_of(document: dict[str, Any]) -> list[dict[str, Any]]:
    with pytest.raises(ValidationError) as caught:
        Body.model_validate(document)
    return [dict(e) for e in caught.value.errors()]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"stats": {"vit": 0}}, "body.stats.vit: debe ser mayor o igual que 1"),
        ({"stats": {"vit": "x"}}, "body.stats.vit: debe ser un número entero"),
        ({"stats": {"vel": 0}}, "body.stats.vel: debe ser mayor que 0"),
        ({"stats": {"vel": float("inf")}}, "body.stats.vel: debe ser un número finito"),
        ({"name": "larguísimo"}, "body.name: debe tener como mucho 5 caracteres"),
        ({"name": ""}, "body.name: debe tener al menos 1 carácter"),
        ({"room": "No Vale"}, "body.room: no tiene el formato esperado (^[a-z]+$)"),
        ({"ruleset": "dnd"}, "body.ruleset: debe ser 'umh', 'cypher' o 'l5r'"),
        ({"stats": {"vit": 1, "fue": 2}}, "body.stats.fue: no es un campo admitido"),
        ({"skills": ["a", "b"]}, "body.skills: debe tener como mucho 1 elemento"),
        ({}, "body.stats: es obligatorio"),
    ],
)
def test_field_errors_are_told_in_spanish_with_their_path(
    document: dict[str, Any], message: str
) -> None:
    base = {"name": "Ana", "room": "plaza", "ruleset": "umh", "stats": {"vit": 1, "vel": 1}}
    patched = {**base, **document} if document else {}
    errors = field_errors(errors_of(patched), "es", prefix="body")
    messages = [f"{e['path']}: {e['message'].partition(': ')[2]}" for e in errors]
    assert message in messages, messages
    assert all(GENERIC.split("(")[0] not in m for m in messages), messages


def test_english_keeps_pydantics_message_and_the_summary_names_the_first_field() -> None:
    errors = field_errors(errors_of({"name": "Ana"}), "en", prefix="body")
    assert errors[0]["message"].startswith("room: Field required"), errors
    told = summary(errors, "The request does not match the schema.", "en")
    assert told.startswith("The request does not match the schema: room: Field required")
    assert told.endswith(f" (and {len(errors) - 1} more).")


def test_errors_the_gateway_finds_itself_are_written_in_the_answers_language() -> None:
    found = [found_error("header.If-Match", "int_parsing")]
    assert localize(found, "es")[0]["message"] == "If-Match: debe ser un número entero"
    assert localize(found, "en")[0]["message"] == "If-Match: Input should be a valid integer"


def test_the_recorder_learns_names_and_the_ruleset_from_starts_and_joins() -> None:
    started = {
        "ruleset": "umh",
        "sheets": {"ana_01": {"name": "Ana"}, "bruno_02": {"name": "Bruno"}, "x": {}},
    }
    assert names_in("combat.started", started) == {
        "ana_01": "Ana",
        "bruno_02": "Bruno",
        RULESET_FIELD: "umh",
    }
    joined = {"ruleset": "umh", "character": "carla_03", "sheet": {"name": "Carla"}}
    assert names_in("combatant.joined", joined) == {"carla_03": "Carla", RULESET_FIELD: "umh"}
    assert names_in("turn.started", {"actor": "ana_01"}) == {}
