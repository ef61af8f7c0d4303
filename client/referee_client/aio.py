"""The asynchronous client (httpx): every call of the API, with the retries it defines.

- 429 ``rate_limited``: waits ``Retry-After`` and sends again.
- 409 ``request_in_progress`` (the same ``Idempotency-Key`` still in flight) and 503
  ``dependency_unavailable`` (nothing was changed): waits a growing pause and sends again.
- A lost connection: sends again only what is safe to repeat (reads, PUT, DELETE, and every
  POST that carries an ``Idempotency-Key``, which this client adds to each of them).
- 202 (the chain goes on after 5 s): polls the ``Location`` until the outcome is there.
- 409 ``version_mismatch``: raised (:class:`~referee_client.errors.VersionMismatchError`), unless
  :meth:`AsyncReferee.act` was asked to ``retry_on_conflict``: then it reads the combat's new
  version and sends the action again with it.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

import httpx
from httpx_sse import aconnect_sse

from referee_client.errors import ApiError, StillPendingError, VersionMismatchError
from referee_client.types import (
    JSON,
    ActionAnswer,
    Combat,
    Community,
    LogPage,
    NewKey,
    Scope,
    StreamEvent,
    View,
)

SAFE = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


@dataclass(frozen=True)
class Retries:
    """How hard the client tries: ``attempts`` sends at most, no pause over ``max_wait`` s."""

    attempts: int = 5
    max_wait: float = 30.0
    pause: float = 0.25  # the first pause after a 409 in progress, a 503 or a lost connection
    poll_every: float = 0.25
    poll_timeout: float = 60.0


class AsyncReferee:
    """One key's view of the API. ``language`` is sent as ``Accept-Language`` (es, en)."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        language: str | None = None,
        timeout: float = 15.0,
        retries: Retries | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        """``http``: an httpx client of the caller's (its base URL and headers win), which
        :meth:`aclose` leaves open."""
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        if language:
            headers["Accept-Language"] = language
        self._owned = http is None
        self.http = http or httpx.AsyncClient(
            base_url=base_url, headers=headers, timeout=timeout, transport=transport
        )
        self.retries = retries or Retries()

    @classmethod
    def over(cls, http: httpx.AsyncClient, *, retries: Retries | None = None) -> AsyncReferee:
        """This client's calls over ``http`` (see ``http`` above)."""
        return cls(str(http.base_url), retries=retries, http=http)

    async def __aenter__(self) -> AsyncReferee:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owned:
            await self.http.aclose()

    # --- the transport with its retries ---------------------------------------------------
    async def send(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """One call with the retries of the module docstring; an answer >= 400 raises."""
        sent = dict(headers or {})
        repeatable = method.upper() in SAFE or "Idempotency-Key" in sent
        query = {k: v for k, v in (params or {}).items() if v is not None}
        for attempt in range(1, self.retries.attempts + 1):
            last = attempt == self.retries.attempts
            try:
                answer = await self.http.request(
                    method, path, json=json, params=query, headers=sent
                )
            except httpx.TransportError:
                if last or not repeatable:
                    raise
                await asyncio.sleep(self._pause(attempt))
                continue
            if answer.status_code < 400:
                return answer
            error = ApiError.of(answer.status_code, _body(answer), dict(answer.headers))
            wait = self._wait_for(error, attempt, repeatable)
            if wait is None or last:
                raise error
            await asyncio.sleep(wait)
        raise AssertionError("unreachable")  # pragma: no cover

    def _pause(self, attempt: int) -> float:
        return float(min(self.retries.max_wait, self.retries.pause * 2 ** (attempt - 1)))

    def _wait_for(self, error: ApiError, attempt: int, repeatable: bool) -> float | None:
        """Seconds before sending again, or None when the error is the answer."""
        if error.status == 429:
            after = error.headers.get("retry-after", "1")
            return min(self.retries.max_wait, float(after) if after.isdigit() else 1.0)
        if error.code == "request_in_progress" or (
            error.status == 503 and error.code == "dependency_unavailable" and repeatable
        ):
            return self._pause(attempt)
        return None

    async def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        return (await self.send(method, path, **kwargs)).json()

    async def _poll(self, location: str, done: Any) -> JSON:
        """GET ``location`` until ``done(answer)`` holds (202 polling)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.retries.poll_timeout
        while True:
            answer = await self.http.get(location)
            body = _body(answer)
            if answer.status_code >= 400 and answer.status_code != 404:
                raise ApiError.of(answer.status_code, body, dict(answer.headers))
            if answer.status_code == 200 and done(body):
                return cast(JSON, body)
            if loop.time() > deadline:
                raise StillPendingError(location, body if isinstance(body, dict) else {})
            await asyncio.sleep(self.retries.poll_every)

    # --- operators (the admin token as the key) ---------------------------------------------
    async def create_community(self, name: str) -> Community:
        return cast(
            Community, await self._json("POST", "/v1/admin/communities", json={"name": name})
        )

    async def rotate_key(self, community_id: str) -> JSON:
        return cast(JSON, await self._json("POST", f"/v1/admin/communities/{community_id}/keys"))

    # --- keys and settings ------------------------------------------------------------------
    async def create_key(self, scope: Scope) -> NewKey:
        return cast(NewKey, await self._json("POST", "/v1/keys", json={"scope": scope}))

    async def revoke_key(self, key_id: str) -> None:
        await self.send("DELETE", f"/v1/keys/{key_id}")

    async def get_settings(self) -> JSON:
        return cast(JSON, await self._json("GET", "/v1/settings"))

    async def patch_settings(self, patch: JSON) -> JSON:
        """A JSON merge patch (RFC 7396): ``null`` puts a field back to its default."""
        return cast(JSON, await self._json("PATCH", "/v1/settings", json=patch))

    # --- lists ------------------------------------------------------------------------------
    async def page(self, path: str, *, cursor: str | None = None, **params: Any) -> JSON:
        """One page of a list (``next_cursor`` names the next one)."""
        return cast(JSON, await self._json("GET", path, params={**params, "cursor": cursor}))

    async def every(self, path: str, field: str, **params: Any) -> AsyncIterator[JSON]:
        """Every item of a list, page after page: ``every("/v1/characters", "characters")``."""
        cursor: str | None = None
        while True:
            page = await self.page(path, cursor=cursor, **params)
            for item in page[field]:
                yield item
            cursor = page.get("next_cursor")
            if not cursor:
                return

    # --- characters -------------------------------------------------------------------------
    async def put_character(self, character_id: str, sheet: JSON) -> JSON:
        return cast(JSON, await self._json("PUT", f"/v1/characters/{character_id}", json=sheet))

    async def get_character(self, character_id: str) -> JSON:
        return cast(JSON, await self._json("GET", f"/v1/characters/{character_id}"))

    async def character_status(self, character_id: str) -> JSON:
        return cast(JSON, await self._json("GET", f"/v1/characters/{character_id}/status"))

    async def character_history(self, character_id: str) -> JSON:
        return cast(JSON, await self._json("GET", f"/v1/characters/{character_id}/history"))

    # --- combats ----------------------------------------------------------------------------
    async def start_combat(self, body: JSON, *, idempotency_key: str | None = None) -> Combat:
        """Start a combat; a 202 is polled until the combat can be read."""
        answer = await self.send("POST", "/v1/combats", json=body, headers=_key(idempotency_key))
        if answer.status_code == 202:
            return cast(Combat, await self._poll(answer.headers["location"], lambda b: "id" in b))
        return cast(Combat, answer.json())

    async def get_combat(self, combat_id: str, *, view: View | None = None) -> Combat:
        return cast(
            Combat, await self._json("GET", f"/v1/combats/{combat_id}", params={"view": view})
        )

    async def act(
        self,
        combat_id: str,
        action: JSON,
        *,
        if_match: int | None = None,
        idempotency_key: str | None = None,
        retry_on_conflict: bool = False,
    ) -> ActionAnswer:
        """One action; a 202 is polled until its chain is over (its events and the combat)."""
        for attempt in range(1, self.retries.attempts + 1):
            headers = _key(idempotency_key)
            if if_match is not None:
                headers["If-Match"] = str(if_match)
            try:
                answer = await self.send(
                    "POST", f"/v1/combats/{combat_id}/actions", json=action, headers=headers
                )
            except VersionMismatchError as conflict:
                if not retry_on_conflict or attempt == self.retries.attempts:
                    raise
                if_match = conflict.actual or (await self.get_combat(combat_id))["version"]
                idempotency_key = None  # another request: the version differs
                continue
            if answer.status_code != 202:
                return cast(ActionAnswer, answer.json())
            return await self._action_done(combat_id, answer)
        raise AssertionError("unreachable")  # pragma: no cover

    async def _action_done(self, combat_id: str, pending: httpx.Response) -> ActionAnswer:
        outcome = await self._poll(
            pending.headers["location"], lambda b: b.get("status") != "pending"
        )
        if outcome["status"] == "rejected":
            raise ApiError.of(422, {"error": outcome.get("error")})
        combat = await self.get_combat(combat_id)
        return {"action_id": outcome["action_id"], "events": outcome["events"], "combat": combat}

    async def action_outcome(self, combat_id: str, action_id: str) -> JSON:
        return cast(JSON, await self._json("GET", f"/v1/combats/{combat_id}/actions/{action_id}"))

    async def combat_log(
        self,
        combat_id: str,
        *,
        after: str | None = None,
        limit: int | None = None,
        view: View | None = None,
    ) -> LogPage:
        params = {"after": after, "limit": limit, "view": view}
        return cast(LogPage, await self._json("GET", f"/v1/combats/{combat_id}/log", params=params))

    async def whole_log(self, combat_id: str, *, view: View | None = None) -> list[JSON]:
        """Every event of the combat's log, following ``next``."""
        events: list[JSON] = []
        after: str | None = None
        while True:
            page = await self.combat_log(combat_id, after=after, view=view)
            events += cast(list[JSON], page["events"])
            after = page["next"]
            if not after:
                return events

    async def combat_dice(self, combat_id: str) -> JSON:
        return cast(JSON, await self._json("GET", f"/v1/combats/{combat_id}/dice"))

    async def roll_dice(self, expression: str, purpose: str = "") -> JSON:
        body = {"expression": expression, "purpose": purpose}
        return cast(JSON, await self._json("POST", "/v1/dice/roll", json=body))

    # --- the aftermath (services/states) ----------------------------------------------------
    async def post_combat(self, combat_id: str, body: JSON) -> JSON:
        return await self._states("POST", f"/v1/combats/{combat_id}/post_combat", body)

    async def claim_requirement(self, combat_id: str, body: JSON) -> JSON:
        return await self._states("POST", f"/v1/combats/{combat_id}/requirements", body)

    async def adjust_status(self, character_id: str, body: JSON) -> JSON:
        return await self._states("POST", f"/v1/characters/{character_id}/status/adjust", body)

    async def character_command(self, character_id: str, body: JSON) -> JSON:
        return await self._states("POST", f"/v1/characters/{character_id}/commands", body)

    async def _states(self, method: str, path: str, body: JSON) -> JSON:
        """A command of services/states: 200 with its events, or 202 ``pending`` as it is
        (its ``Location`` is the character's history, which has no end to wait for)."""
        return cast(JSON, await self._json(method, path, json=body, headers=_key(None)))

    # --- browsers and webhooks --------------------------------------------------------------
    async def create_stream_token(self, body: JSON | None = None) -> JSON:
        return cast(JSON, await self._json("POST", "/v1/stream-tokens", json=body or {}))

    async def create_webhook(self, body: JSON, *, idempotency_key: str | None = None) -> JSON:
        headers = _key(idempotency_key)
        return cast(JSON, await self._json("POST", "/v1/webhooks", json=body, headers=headers))

    async def list_webhooks(self) -> JSON:
        return cast(JSON, await self._json("GET", "/v1/webhooks"))

    async def delete_webhook(self, webhook_id: str) -> None:
        await self.send("DELETE", f"/v1/webhooks/{webhook_id}")

    # --- the event stream -------------------------------------------------------------------
    async def events(
        self,
        *,
        room: str | None = None,
        combat: str | None = None,
        view: View | None = None,
        last_event_id: str | None = None,
        since: str | None = None,
        token: str | None = None,
        reconnect: bool = True,
    ) -> AsyncGenerator[StreamEvent, None]:
        """The community's events as they happen (``GET /v1/events``).

        A dropped connection is opened again after the ``retry:`` the server asked for, with
        ``Last-Event-ID`` set to the last position received, so nothing is missed nor
        repeated. ``stream.opened`` and ``stream.reset`` are yielded too
        (:attr:`StreamEvent.is_control`): a reset means the resume point was older than the
        retention, so read the log of the combats you show. ``since`` is the query-string
        form of ``last_event_id`` (the first connection only); ``token`` a stream token.
        """
        position = last_event_id
        retry_ms = 1000
        params = {"room": room, "combat": combat, "view": view, "since": since, "token": token}
        query = {k: v for k, v in params.items() if v is not None}
        while True:
            headers = {"Last-Event-ID": position} if position else {}
            if position is not None:
                query.pop("since", None)  # the position reached wins over the first one
            try:
                async with aconnect_sse(
                    self.http,
                    "GET",
                    "/v1/events",
                    params=query,
                    headers=headers,
                    timeout=httpx.Timeout(10.0, read=None),
                ) as source:
                    if source.response.status_code >= 400:
                        await source.response.aread()
                        body = _body(source.response)
                        raise ApiError.of(source.response.status_code, body)
                    async for message in source.aiter_sse():
                        if message.retry is not None:
                            retry_ms = message.retry
                        if not message.event or (message.event == "message" and not message.data):
                            continue
                        if message.id:
                            position = message.id
                        yield StreamEvent(message.id or None, message.event, message.json())
            except httpx.TransportError:
                if not reconnect:
                    raise
            if not reconnect:
                return
            await asyncio.sleep(retry_ms / 1000)


def _key(given: str | None) -> dict[str, str]:
    """An ``Idempotency-Key`` header: the caller's, or a fresh one (so a retry is safe)."""
    return {"Idempotency-Key": given or uuid.uuid4().hex}


def _body(answer: httpx.Response) -> Any:
    try:
        return answer.json()
    except ValueError:
        return answer.text
