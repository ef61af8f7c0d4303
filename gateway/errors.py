"""docs/api.md "Errors": one body for every error, in the answer's language (gateway/language.py:
``Accept-Language``, else the community's ``language``, Spanish by default)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

from gateway.allow import allow_header
from gateway.field_errors import field_errors, localize, summary
from gateway.language import answer_language, language_headers
from shared.bus import BusUnavailableError
from shared.errors import error_body, kind_of
from shared.logging import get_logger
from shared.narration.words import DEFAULT_LANGUAGE, Lang

log = get_logger(__name__)


class ErrorDetail(BaseModel):
    code: str = Field(description="stable machine code (docs/rules.md section 9)")
    message: str = Field(
        description="in the answer's language: Accept-Language (es or en), else the community's "
        "language setting (Spanish by default); see Content-Language"
    )
    rule: str | None = Field(None, description="the seed reference that forbids it")
    details: dict[str, Any] = Field(default_factory=dict)


class ErrorBody(BaseModel):
    """docs/api.md "Errors": the body of every error."""

    error: ErrorDetail


def _documented(description: str) -> dict[str, Any]:
    return {"model": ErrorBody, "description": description}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _documented("malformed JSON"),
    401: _documented("missing or wrong key"),
    403: _documented("a frontend key on a moderator-only call"),
    404: _documented("unknown id (or another community's)"),
    409: _documented("If-Match differs, or the same Idempotency-Key is still in flight"),
    408: _documented("the declared body did not arrive in time (the connection is closed)"),
    413: _documented("body too large"),
    422: _documented("schema violation (invalid_request) or rule violation (its own code)"),
    429: _documented("rate limit (see Retry-After)"),
    500: _documented("unexpected error"),
    503: _documented("RabbitMQ or Redis is down: nothing was changed"),
}


class ApiError(Exception):
    def __init__(
        self,
        code: str,
        *,
        rule: str | None = None,
        details: dict[str, Any] | None = None,
        status: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(code)
        self.code = code
        self.rule = rule
        self.details = details or {}
        self.status = status or kind_of(code).status
        self.headers = headers


async def error_response(
    request: Request,
    code: str,
    *,
    rule: str | None = None,
    details: dict[str, Any] | None = None,
    status: int | None = None,
    headers: dict[str, str] | None = None,
    message: str | None = None,
) -> JSONResponse:
    """The docs/api.md error body in the answer's language, with ``Content-Language`` and
    ``Vary``."""
    lang = await request_language(request)
    body = localized_body(code, lang, rule=rule, details=details, message=message)
    return JSONResponse(
        body, status_code=status or kind_of(code).status, headers=with_language(headers, lang)
    )


def localized_body(
    code: str,
    lang: Lang,
    *,
    rule: str | None = None,
    details: dict[str, Any] | None = None,
    message: str | None = None,
) -> dict[str, Any]:
    """The error body in ``lang``; a schema violation's message names its first bad field."""
    kind = kind_of(code)
    headline = kind.es if lang == "es" else kind.en
    errors = (details or {}).get("errors")
    if isinstance(errors, list):
        fields = localize([e for e in errors if isinstance(e, dict)], lang)
        details = {**(details or {}), "errors": fields}
        if message is None and code == "invalid_request":
            message = summary(fields, headline, lang)
    return error_body(code, spanish=lang == "es", rule=rule, details=details, message=message)


async def request_language(request: Request) -> Lang:
    """The answer's language: ``Accept-Language``, else the caller's community's setting."""
    principal = getattr(request.state, "principal", None)
    gw = getattr(request.app.state, "gateway", None)
    tenant = getattr(principal, "community_id", None)
    try:
        return await answer_language(request, gw, tenant)
    except (RedisConnectionError, RedisTimeoutError):
        return DEFAULT_LANGUAGE  # the error itself may be that Redis is down


def with_language(headers: dict[str, str] | None, lang: Lang) -> dict[str, str]:
    merged = dict(headers or {})
    vary = merged.get("Vary")
    merged.update(language_headers(lang))
    if vary and "accept-language" not in vary.lower():
        merged["Vary"] = f"{vary}, Accept-Language"
    return merged


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def on_api_error(request: Request, exc: ApiError) -> JSONResponse:
        return await error_response(
            request,
            exc.code,
            rule=exc.rule,
            details=exc.details,
            status=exc.status,
            headers=exc.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def on_validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return await error_response(request, "malformed_json", status=400)
        fields = field_errors(errors, await request_language(request), body=exc.body)
        return await error_response(request, "invalid_request", details={"errors": fields})

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 405:
            allow = allow_header(request.app.router.routes, request.scope)
            return await error_response(request, "method_not_allowed", headers={"Allow": allow})
        code = {
            400: "malformed_json",
            401: "unauthorized",
            403: "forbidden",
            404: "not_found",
            408: "request_timeout",
            413: "payload_too_large",
            429: "rate_limited",
        }.get(exc.status_code)
        if code is None:
            lang = await request_language(request)
            return JSONResponse(
                {
                    "error": {
                        "code": "http_error",
                        "message": str(exc.detail),
                        "rule": None,
                        "details": {},
                    }
                },
                status_code=exc.status_code,
                headers=with_language(getattr(exc, "headers", None), lang),
            )
        return await error_response(
            request, code, status=exc.status_code, headers=getattr(exc, "headers", None)
        )

    async def on_dependency(request: Request, exc: Exception) -> JSONResponse:
        log.warning("dependency_unavailable", error=repr(exc))
        return await error_response(
            request, "dependency_unavailable", status=503, headers={"Retry-After": "1"}
        )

    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("request_failed", path=request.url.path)
        return await error_response(request, "internal_error", status=500)

    app.add_exception_handler(Exception, on_unexpected)
    for exc_type in (BusUnavailableError, RedisConnectionError, RedisTimeoutError):
        app.add_exception_handler(exc_type, on_dependency)
