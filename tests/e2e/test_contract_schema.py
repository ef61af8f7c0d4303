"""The published JSON Schema (not only the pydantic models) describes a sheet's answers: a
umh sheet with a weapon (its field is ``class`` in the contract) comes back as documented."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema_rs
import pytest

from gateway.routes.characters import UMH_EXAMPLE
from tests.e2e.referee import Referee

pytestmark = [pytest.mark.e2e]

WEAPON = {"name": "Espada", "tier": 1, "arma": 10, "class": "long", "unique": False}


def errors(spec: dict[str, Any], path: str, method: str, status: int, body: Any) -> list[str]:
    """What the spec's schema for this answer finds wrong in the body."""
    answer = spec["paths"][path][method]["responses"][str(status)]
    schema = dict(answer["content"]["application/json"]["schema"])
    schema["components"] = spec["components"]
    validator = jsonschema_rs.Draft202012Validator(schema)
    return [f"{list(e.instance_path)}: {e.message[:200]}" for e in validator.iter_errors(body)]


async def test_a_sheet_with_a_weapon_is_answered_as_the_schema_documents(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    client = community.client
    spec = (await client.get("/openapi.json")).json()
    sheet = copy.deepcopy(UMH_EXAMPLE)
    sheet["weapons"] = [WEAPON]
    path = "/v1/characters/{character_id}"
    put = await client.put("/v1/characters/ana", json=sheet)
    assert put.status_code == 201, put.text
    assert put.json()["weapons"][0]["class"] == "long"
    assert errors(spec, path, "put", 201, put.json()) == []
    got = await client.get("/v1/characters/ana")
    assert got.status_code == 200, got.text
    assert errors(spec, path, "get", 200, got.json()) == []
    again = await client.put("/v1/characters/ana", json=sheet)
    assert again.status_code == 200, again.text
