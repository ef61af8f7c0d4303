"""The OpenAPI document is a contract generators accept (docs/api.md "The contract"): it
validates as OpenAPI 3.1, openapi-python-client generates a client from it without a warning,
and every operation has its id, its security, its headers and an example."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from openapi_spec_validator import validate

import gateway.routes
from gateway.app import create_app
from gateway.openapi import IDEMPOTENT, MINTING, PUBLIC

APP = create_app()
SPEC: dict[str, Any] = APP.openapi()
OPERATIONS = [
    (path, method, op) for path, item in SPEC["paths"].items() for method, op in item.items()
]
ROUTES = {
    route.name: route
    for module in pkgutil.iter_modules(gateway.routes.__path__)
    for route in importlib.import_module(f"gateway.routes.{module.name}").router.routes
    if isinstance(route, APIRoute)
}


def test_the_document_validates_as_openapi_3_1() -> None:
    assert SPEC["openapi"].startswith("3.1")
    validate(SPEC)
    assert "itemSchema" not in str(SPEC)


def test_openapi_python_client_generates_a_client_without_warnings(tmp_path: Path) -> None:
    document = tmp_path / "openapi.json"
    document.write_text(__import__("json").dumps(SPEC), encoding="utf-8")
    config = tmp_path / "config.yml"
    config.write_text("post_hooks: []\n", encoding="utf-8")
    tool = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run(
        [
            str(tool),
            "generate",
            "--path",
            str(document),
            "--config",
            str(config),
            "--meta",
            "none",
            "--output-path",
            str(tmp_path / "client"),
        ],
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert not re.search(r"(?i)warning|unable|error|skipping", said), said
    generated = {p.stem for p in (tmp_path / "client" / "api").rglob("*.py")}
    missing = {op["operationId"] for _, _, op in OPERATIONS} - generated
    assert not missing, f"operations the generated client lacks: {sorted(missing)}"


def test_schema_names_are_unique_and_readable() -> None:
    names = list(SPEC["components"]["schemas"])
    assert not [n for n in names if "__" in n or "-" in n], names


@pytest.mark.parametrize(("path", "method", "op"), OPERATIONS, ids=lambda v: str(v)[:40])
def test_every_operation_is_named_secured_and_exemplified(
    path: str, method: str, op: dict[str, Any]
) -> None:
    name = op["operationId"]
    assert re.fullmatch(r"[a-z]+(_[a-z]+)*", name) and "v1" not in name, name
    if name in PUBLIC:
        assert op["security"] == []
    else:
        assert "security" not in op  # the document's own: bearer
    if name not in PUBLIC and not path.startswith("/v1/admin"):  # a community key's call
        for status, answer in op["responses"].items():
            if status != "401":
                assert {"RateLimit", "RateLimit-Policy"} <= set(answer.get("headers", {})), status
    assert "Retry-After" in op["responses"]["429"]["headers"]
    for status in ("201", "202"):
        if status in op["responses"] and name in MINTING:
            assert "Location" in op["responses"][status]["headers"], (name, status)
    examples = [
        content
        for status, answer in op["responses"].items()
        if status.startswith("2")
        for content in answer.get("content", {}).values()
        if "example" in content
    ]
    path_examples = [p for p in op.get("parameters", []) if p["schema"].get("examples")]
    assert examples or (method == "delete" and path_examples), name


def test_the_calls_that_honour_an_idempotency_key_declare_it() -> None:
    honours = {name for name, r in ROUTES.items() if "idempotent(" in inspect.getsource(r.endpoint)}
    assert len(ROUTES) == len(OPERATIONS)
    assert honours == IDEMPOTENT
    for _, _, op in OPERATIONS:
        declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "header"}
        assert ("Idempotency-Key" in declared) == (op["operationId"] in IDEMPOTENT), op


def test_if_match_is_declared_on_actions_and_the_bearer_scheme_exists() -> None:
    act = SPEC["paths"]["/v1/combats/{combat_id}/actions"]["post"]
    assert "If-Match" in {p["name"] for p in act["parameters"]}
    assert SPEC["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": SPEC["components"]["securitySchemes"]["bearer"]["description"],
    }
    assert SPEC["security"] == [{"bearer": []}]


def test_events_are_a_union_discriminated_by_type() -> None:
    event = SPEC["components"]["schemas"]["Event"]
    assert event["discriminator"]["propertyName"] == "type"
    mapping = event["discriminator"]["mapping"]
    assert {"turn.started", "action.resolved", "command.rejected", "combat.ended"} <= set(mapping)
    for ref in mapping.values():
        assert ref.rsplit("/", 1)[-1] in SPEC["components"]["schemas"], ref
    answer = SPEC["components"]["schemas"]["ActionAnswer"]["properties"]["events"]["items"]
    assert answer["discriminator"]["propertyName"] == "type"
