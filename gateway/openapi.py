"""The OpenAPI document as generators need it (docs/api.md "The contract").

FastAPI writes the document from the routes; :func:`refine` adds what it cannot know: the
bearer scheme and which calls need no key, the headers every answer carries (``RateLimit``,
``RateLimit-Policy``, ``Content-Language``), ``Retry-After`` on 429s, ``Location`` on what
mints a resource or answers 202, ``Idempotency-Key`` on the calls that honour it, an example
per operation (the answer model's own), and the event stream as plain OpenAPI 3.1 (the
events it carries are the ``Event`` schema, one per ``data:`` line).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

PUBLIC = frozenset({"healthz", "readyz", "metrics"})  # no key
IDEMPOTENT = frozenset(
    {
        "start_combat",
        "act",
        "post_combat",
        "claim_requirement",
        "adjust_status",
        "character_command",
        "create_webhook",
    }
)
MINTING = IDEMPOTENT  # what answers 201 or 202 with a Location

HEADERS: dict[str, dict[str, Any]] = {
    "RateLimit": {
        "description": 'where the key\'s bucket stands: `"key";r=<left>;t=<seconds to full>`',
        "schema": {"type": "string"},
        "example": '"key";r=97;t=1',
    },
    "RateLimit-Policy": {
        "description": 'the key\'s limit: `"key";q=<burst>;w=<seconds to refill it>`',
        "schema": {"type": "string"},
        "example": '"key";q=100;w=2',
    },
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 1},
        "example": 1,
    },
    "Location": {
        "description": "the resource minted, or where to poll a 202",
        "schema": {"type": "string"},
        "example": "/v1/combats/c_3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f",
    },
    "Content-Language": {
        "description": "the language of the answer's words (es or en)",
        "schema": {"type": "string", "enum": ["es", "en"]},
    },
    "Idempotent-Replayed": {
        "description": "true when this is the stored answer of an earlier request",
        "schema": {"type": "string", "enum": ["true"]},
    },
}

IDEMPOTENCY_KEY: dict[str, Any] = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "the same key and body within 24 h answer the stored answer (no repeat)",
    "schema": {"type": "string", "minLength": 1, "maxLength": 255},
}

STREAM = """One line group per event, as Server-Sent Events: `id:` (its position: send it back
as `Last-Event-ID` or `?since=` to resume), `event:` (its type) and `data:` (one `Event`
object as JSON, see components.schemas.Event). The stream opens with `stream.opened` or, when
the resume point is older than the retention, `stream.reset`; it sends `retry:` and a comment
line every few seconds."""


def _named_examples() -> dict[str, Any]:
    """Examples of the answers whose models carry none of their own, by schema name."""
    from gateway.routes.characters import UMH_EXAMPLE
    from gateway.routes.webhooks import DeliveryView, Webhook
    from shared.payloads import CharacterStatus
    from shared.settings import CommunitySettings

    key = "rk_Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg"
    COMBAT = "c_" + "3f" * 16  # noqa: N806 - a constant of the examples
    community = {"id": "cm_" + "a1" * 10, "name": "Plaza Mayor", "api_key": key}
    return {
        "CommunityCreated": community,
        "KeyRotated": {**community, "key_id": "k_" + "b2" * 10},
        "KeyCreated": {"key_id": "k_" + "c3" * 10, "scope": "frontend", "api_key": key},
        "RollAnswer": {
            "spec": "3d6+2",
            "dice": [[4], [2], [6]],
            "kept": [4, 2, 6],
            "total": 14,
            "purpose": "iniciativa",
        },
        "WebhookList": {"webhooks": Webhook.model_json_schema()["examples"]},
        "DeliveryList": {"deliveries": DeliveryView.model_json_schema()["examples"]},
        "CharacterStatus": CharacterStatus(vigor_lost=1).model_dump(mode="json"),
        "CommunitySettings": CommunitySettings().model_dump(mode="json"),
        "Character": {"id": "ana", **UMH_EXAMPLE},
        "CombatDice": {
            "combat_id": COMBAT,
            "commitment": "b3" * 32,
            "seed": None,
            "rolls": [
                {
                    "log_id": "1764619202100-0",
                    "occurred_at": "2026-12-01T20:00:02.100Z",
                    "spec": "1d20",
                    "dice": [[14]],
                    "kept": [14],
                    "total": 14,
                    "stream": "turns",
                    "first_draw": 0,
                    "draws": 1,
                    "purpose": "initiative",
                    "action_id": None,
                    "roller": "ana",
                    "combat_id": COMBAT,
                }
            ],
        },
    }


# Answers that are no component of their own: the schema name their example is kept under.
ANSWER_OF = {"put_character": "Character", "get_character": "Character"}

METRICS_EXAMPLE = (
    "# HELP referee_sse_viewers Event streams connected to this gateway process\n"
    "# TYPE referee_sse_viewers gauge\nreferee_sse_viewers 3.0\n"
)


def operation_id(route: APIRoute) -> str:
    """An operation's id is its function's name: ``act``, ``get_combat``, ``list_keys``."""
    return route.name


def refine(spec: dict[str, Any], event_schema: dict[str, Any]) -> dict[str, Any]:
    """What generators need beyond FastAPI's own document (see the module docstring)."""
    components = spec.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas["Event"] = event_schema
    components["securitySchemes"] = {
        "bearer": {
            "type": "http",
            "scheme": "bearer",
            "description": "a community key (rk_...), the operator token on /v1/admin",
        }
    }
    components["headers"] = copy.deepcopy(HEADERS)
    spec["security"] = [{"bearer": []}]
    examples = _named_examples()
    for path, item in spec["paths"].items():
        for op in item.values():
            _refine_operation(op, schemas, examples, limited=not path.startswith("/v1/admin"))
    return spec


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def _refine_operation(
    op: dict[str, Any], schemas: dict[str, Any], examples: dict[str, Any], *, limited: bool
) -> None:
    """``limited``: called with a community key, so its answers tell the key's rate limit."""
    name = op["operationId"]
    keyed = name not in PUBLIC and limited
    if name in PUBLIC:
        op["security"] = []
    if name in IDEMPOTENT:
        op.setdefault("parameters", []).append(copy.deepcopy(IDEMPOTENCY_KEY))
    for status, answer in op.get("responses", {}).items():
        headers = answer.setdefault("headers", {})
        if keyed and status not in ("401",):
            headers["RateLimit"] = _ref("RateLimit")
            headers["RateLimit-Policy"] = _ref("RateLimit-Policy")
        if status in ("429", "503"):
            headers["Retry-After"] = _ref("Retry-After")
        if status.startswith("4") or status.startswith("5"):
            headers["Content-Language"] = _ref("Content-Language")
        if (name in MINTING and status in ("201", "202")) or (name == "act" and status == "200"):
            headers["Location"] = _ref("Location")
        if name in IDEMPOTENT and status.startswith("2"):
            headers["Idempotent-Replayed"] = _ref("Idempotent-Replayed")
        if not headers:
            del answer["headers"]
        for media, content in answer.get("content", {}).items():
            if media == "text/event-stream":
                content.pop("itemSchema", None)
                content["schema"] = {"type": "string", "description": STREAM}
                content["example"] = (
                    "id: 1764619202100-0\nevent: turn.started\n"
                    'data: {"id": "m_1c", "type": "turn.started", ...}\n\n'
                )
                continue
            if media == "text/plain":
                content.setdefault("example", METRICS_EXAMPLE)
                continue
            schema = content.get("schema", {})
            if "$ref" in schema:
                content["schema"] = {"$ref": schema["$ref"]}  # no leftovers of a dict answer
            ref = str(schema.get("$ref", "")).rsplit("/", 1)[-1] or ANSWER_OF.get(name, "")
            example = _example_of(schemas.get(ref), examples.get(ref))
            if example is not None and status.startswith("2"):
                content.setdefault("example", example)


def _example_of(schema: Any, named: Any) -> Any:
    """The schema's own first example, else the one kept under its name."""
    if isinstance(schema, dict):
        own = schema.get("examples")
        if isinstance(own, list) and own:
            return own[0]
    return named


def contract(app: FastAPI, event_schema: Callable[[], dict[str, Any]]) -> Callable[[], Any]:
    """``app.openapi``: FastAPI's document, refined once and then kept."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = get_openapi(
                title=app.title,
                version=app.version,
                openapi_version=app.openapi_version,
                description=app.description,
                routes=app.routes,
                tags=app.openapi_tags,
                servers=app.servers,
            )
            app.openapi_schema = refine(spec, event_schema())
        return app.openapi_schema

    return openapi
