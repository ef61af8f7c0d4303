"""docs/api.md "Idempotency, versions and slow answers": ``Idempotency-Key`` on every POST.

The first request with a key takes a short lock, runs, and stores its answer for 24 h. The
same key with the same body replays that answer and changes nothing; with another body it is
422 ``idempotency_key_reused``; while the first one runs, 409 ``request_in_progress``. Ids
that a request mints (combat id, action id, command message id) are derived from the key, so
even a retry after a crash in the middle is recognised by the services as the same command.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from gateway.context import Gateway
from gateway.errors import ApiError, localized_body, request_language, with_language
from gateway.field_errors import found_error
from gateway.narration import storyteller

LOCK_SECONDS = 15  # longer than a request can take (a 5 s wait, a gate, the publish)
KEEP_SECONDS = 24 * 3600
MAX_KEY_LENGTH = 128


@dataclass
class Answer:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)

    def response(self, *, replayed: bool = False) -> JSONResponse:
        headers = dict(self.headers)
        if replayed:
            headers["Idempotent-Replayed"] = "true"
        return JSONResponse(self.body, status_code=self.status, headers=headers)


Operation = Callable[[str | None], Awaitable[Answer]]
Present = Callable[[Answer], Awaitable[Answer]]
"""What an answer becomes each time it is served (narration in the request's language): the
stored answer stays as the operation gave it, so a replay speaks the replaying request's."""


async def _as_is(answer: Answer) -> Answer:
    return answer


def narrated(request: Request, gw: Gateway, tenant: str) -> Present:
    """An answer with ``events`` gets each event's ``text`` in this request's language."""

    async def present(answer: Answer) -> Answer:
        if not isinstance(answer.body, dict) or not isinstance(answer.body.get("events"), list):
            return answer  # an error speaks its own language already
        teller, lang, headers = await storyteller(request, gw, tenant)
        events = await teller.tell_all(answer.body["events"], lang)
        body = {**answer.body, "events": events}
        return Answer(answer.status, body, {**answer.headers, **headers})

    return present


def _fingerprint(request: Request, body: Any) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.method} {request.url.path}\n{canonical}".encode()).hexdigest()


async def _error_answer(request: Request, exc: ApiError) -> Answer:
    lang = await request_language(request)
    body = localized_body(exc.code, lang, rule=exc.rule, details=exc.details)
    return Answer(exc.status, body, with_language(exc.headers, lang))


async def idempotent(
    request: Request,
    gw: Gateway,
    tenant: str,
    body: Any,
    operation: Operation,
    present: Present = _as_is,
) -> JSONResponse:
    key = request.headers.get("idempotency-key")
    if key is None:
        return (await present(await operation(None))).response()
    if not key or len(key) > MAX_KEY_LENGTH:
        found = (
            found_error("header.Idempotency-Key", "string_too_short", min_length=1)
            if not key
            else found_error("header.Idempotency-Key", "string_too_long", max_length=MAX_KEY_LENGTH)
        )
        raise ApiError("invalid_request", details={"errors": [found]})
    record_key = gw.keys.idempotency(tenant, hashlib.sha256(key.encode()).hexdigest())
    fingerprint = _fingerprint(request, body)
    pending = json.dumps({"state": "pending", "fp": fingerprint})
    for _ in range(3):
        if await gw.redis.set(record_key, pending, nx=True, ex=LOCK_SECONDS):
            answer = await _first(request, gw, record_key, fingerprint, key, operation)
            return (await present(answer)).response()
        raw = await gw.redis.get(record_key)
        if raw is None:
            continue  # the lock just expired: take it
        record = json.loads(raw)
        if record["fp"] != fingerprint:
            raise ApiError("idempotency_key_reused")
        if record["state"] == "pending":
            raise ApiError("request_in_progress")
        answer = Answer(record["status"], record["body"], record.get("headers", {}))
        return (await present(answer)).response(replayed=True)
    raise ApiError("request_in_progress")


async def _first(
    request: Request,
    gw: Gateway,
    record_key: str,
    fingerprint: str,
    key: str,
    operation: Operation,
) -> Answer:
    try:
        answer = await operation(key)
    except ApiError as exc:
        if exc.status >= 500:
            await gw.redis.delete(record_key)
            raise
        answer = await _error_answer(request, exc)
    except BaseException:
        await gw.redis.delete(record_key)  # nothing was answered: the client may retry
        raise
    if answer.status >= 500:
        await gw.redis.delete(record_key)
        return answer
    done = {
        "state": "done",
        "fp": fingerprint,
        "status": answer.status,
        "body": answer.body,
        "headers": answer.headers,
    }
    await gw.redis.set(record_key, json.dumps(done, default=str), ex=KEEP_SECONDS)
    return answer
