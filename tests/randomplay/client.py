"""Every HTTP call the random player makes, in one place (a client package comes later).

Each call goes through :meth:`Api.send`, which checks what any answer must be (docs/api.md
"Errors"): no 5xx, and every 4xx carries ``{"error": {"code", "message", "rule", "details"}}``.
What breaks that is a :class:`~tests.randomplay.findings.Finding`; the reply is returned
either way so the player goes on.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.randomplay.findings import Findings

JSON = dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """One answer: status, parsed body (``None`` when not JSON) and headers."""

    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def code(self) -> str | None:
        """The error code of a 4xx (``None`` otherwise)."""
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            code = self.body["error"].get("code")
            return str(code) if code is not None else None
        return None


def error_body_problem(reply: Reply) -> str | None:
    """What is wrong with a 4xx body (docs/api.md "Errors"), or ``None`` when it is right."""
    body = reply.body
    if not isinstance(body, dict) or set(body) != {"error"} or not isinstance(body["error"], dict):
        return "not an error body"
    error = body["error"]
    missing = {"code", "message", "rule", "details"} - set(error)
    if missing:
        return f"error body without {sorted(missing)}"
    if not isinstance(error["code"], str) or not error["code"]:
        return "error code is not a string"
    if not isinstance(error["message"], str) or not error["message"]:
        return "error message is not a string"
    if not isinstance(error["details"], dict):
        return "error details is not an object"
    return None


class Api:
    """The gateway of one running suite, seen by the random player."""

    def __init__(self, base_url: str, admin_token: str, findings: Findings) -> None:
        # Idle connections are dropped before the server's keep-alive (5 s) closes them, so
        # a request never races a closing connection ("server disconnected").
        limits = httpx.Limits(
            max_connections=64, max_keepalive_connections=32, keepalive_expiry=2.0
        )
        self.http = httpx.AsyncClient(base_url=base_url, timeout=30.0, limits=limits)
        self.admin_token = admin_token
        self.findings = findings

    async def aclose(self) -> None:
        await self.http.aclose()

    async def send(
        self,
        method: str,
        path: str,
        *,
        key: str,
        body: Any = None,
        raw: bytes | None = None,
        where: str = "",
        headers: dict[str, str] | None = None,
    ) -> Reply:
        """One request; a 429 is waited out (``Retry-After``) and sent again."""
        sent = {"Authorization": f"Bearer {key}", **(headers or {})}
        content = raw if raw is not None else None
        if raw is not None:
            sent["Content-Type"] = "application/json"
        for _ in range(20):
            try:
                answer = await self.http.request(
                    method, path, json=body if raw is None else None, content=content, headers=sent
                )
            except httpx.TransportError as exc:
                self.findings.add("transport", where, f"{method} {path}: {exc!r}", body)
                return Reply(599, None)
            reply = _reply(answer)
            self._check(method, path, reply, body if raw is None else raw, where)
            if reply.status != 429:
                return reply
            await asyncio.sleep(min(2.0, float(reply.headers.get("retry-after", "1"))))
        return reply

    def _check(self, method: str, path: str, reply: Reply, body: Any, where: str) -> None:
        what = f"{method} {path} -> {reply.status}"
        if reply.status >= 500:
            self.findings.add("5xx", where, f"{what}: {_short(reply.body)}", body)
        elif reply.status >= 400:
            problem = error_body_problem(reply)
            if problem is not None:
                self.findings.add("error-body", where, f"{what}: {problem}", body)

    # --- the calls ------------------------------------------------------------------------
    async def new_community(self, name: str, settings: JSON) -> str:
        """A community with ``settings`` (``PATCH /v1/settings``); its moderator key."""
        created = await self.send(
            "POST", "/v1/admin/communities", key=self.admin_token, body={"name": name}
        )
        if created.status != 201:
            raise RuntimeError(f"community not created: {created}")
        key = str(created.body["api_key"])
        patched = await self.send("PATCH", "/v1/settings", key=key, body=settings)
        if patched.status != 200:
            raise RuntimeError(f"settings refused: {patched}")
        return key

    async def put_character(self, key: str, character: str, sheet: JSON) -> Reply:
        return await self.send("PUT", f"/v1/characters/{character}", key=key, body=sheet)

    async def start(self, key: str, body: JSON, where: str) -> Reply:
        return await self.send("POST", "/v1/combats", key=key, body=body, where=where)

    async def combat(self, key: str, combat_id: str, where: str) -> Reply:
        return await self.send("GET", f"/v1/combats/{combat_id}", key=key, where=where)

    async def log(self, key: str, combat_id: str, where: str) -> list[JSON]:
        """Every event of the combat's audit log, in order."""
        events: list[JSON] = []
        after = ""
        while True:
            path = f"/v1/combats/{combat_id}/log" + (f"?after={after}" if after else "")
            page = await self.send("GET", path, key=key, where=where)
            if page.status != 200:
                return events
            events += page.body["events"]
            after = page.body.get("next") or ""
            if not after:
                return events

    async def act(
        self,
        key: str,
        combat_id: str,
        body: Any,
        where: str,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        path = f"/v1/combats/{combat_id}/actions"
        return await self.send(
            "POST", path, key=key, body=body, raw=raw, where=where, headers=headers
        )

    async def action_status(self, key: str, location: str, where: str) -> Reply:
        return await self.send("GET", location, key=key, where=where)

    async def command(self, key: str, character: str, body: Any, where: str) -> Reply:
        path = f"/v1/characters/{character}/commands"
        return await self.send("POST", path, key=key, body=body, where=where)

    async def status(self, key: str, character: str, where: str) -> Reply:
        return await self.send("GET", f"/v1/characters/{character}/status", key=key, where=where)

    async def frontend_key(self, key: str) -> str:
        made = await self.send("POST", "/v1/keys", key=key, body={"scope": "frontend"})
        return str(made.body["api_key"])


def _reply(answer: httpx.Response) -> Reply:
    try:
        body = answer.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    return Reply(answer.status_code, body, {k.lower(): v for k, v in answer.headers.items()})


def _short(body: Any) -> str:
    return json.dumps(body, default=str)[:300]
