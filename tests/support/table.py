"""The gateway's part of a request, played over the in-memory chain: a community's table.

:class:`ChainGateway` answers the docs/api.md requests a combat test makes (characters, settings,
combats, actions, the log, a character's status and history, the aftermath commands) the
way the gateway does: it validates the body with the gateway's own models, asks the same
gates (:mod:`gateway.gates`), sends the same commands through the chain and answers with the
same bodies, statuses and error bodies. What it leaves to the e2e tests is HTTP itself:
authentication, idempotency keys, rate limits, the event stream, 202 answers.

:class:`ChainClient` gives it the calling shape of ``httpx.AsyncClient`` (``get``, ``post``,
``put``, ``patch``), so :class:`tests.support.play.Community` drives either one.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, TypeVar

from pydantic import ValidationError

from gateway.commands import Outcome
from gateway.dispatch import raise_if_rejected
from gateway.errors import ApiError, localized_body
from gateway.field_errors import field_errors
from gateway.language import requested
from gateway.narration import RULESET_FIELD, names_in
from gateway.views import merge_combat, public_event
from shared.messages import Envelope, new_id
from shared.narration.narrate import narrate
from shared.narration.said import Cast
from shared.narration.words import Lang
from shared.payloads import CharacterStatus
from shared.settings import CommunitySettings
from shared.stalls import quiet_ms
from tests.support.chain import Chain
from tests.support.gateway_routes import ROUTES, Request
from tests.support.memory import MemoryStore
from tests.support.play import CALM_TIMERS, Community, Sse

JSON = dict[str, Any]
T = TypeVar("T")


@dataclass
class ChainResponse:
    """What ``httpx.Response`` offers the tests: the status, the JSON body, its text."""

    status_code: int
    body: Any
    method: str = "GET"
    path: str = ""
    headers: dict[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        return self.body

    @property
    def request(self) -> SimpleNamespace:
        """``response.request.method`` and ``.url.path``, as httpx has them."""
        return SimpleNamespace(
            method=self.method, path=self.path, url=SimpleNamespace(path=self.path)
        )

    @property
    def text(self) -> str:
        return json.dumps(self.body)


class ChainGateway:
    """One community's gateway over a chain: its sheets, settings and combats."""

    def __init__(self, chain: Chain, tenant: str) -> None:
        self.chain = chain
        self.tenant = tenant
        self.sheets: dict[str, JSON] = {}
        self.settings = CommunitySettings()
        self.lang: Lang = "es"  # the language of the request being answered
        self.api_keys: dict[str, bool] = {}  # key -> moderator

    async def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        params: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        moderator: bool = True,
    ) -> ChainResponse:
        headers = {k.lower(): v for k, v in (headers or {}).items()}
        request = Request(method, path, json_body, params or {}, headers, moderator)
        self.lang = requested(headers.get("accept-language")) or self.settings.language
        try:
            status, body = await self._route(request)
        except ApiError as error:
            status = error.status
            body = localized_body(error.code, self.lang, rule=error.rule, details=error.details)
        except ValidationError as invalid:
            status = 422
            fields = field_errors(invalid.errors(), self.lang, prefix="body", body=json_body)
            body = localized_body("invalid_request", self.lang, details={"errors": fields})
        return ChainResponse(status, body, method, path)

    def told(self, events: list[Envelope]) -> list[JSON]:
        """Public events with their ``text`` in the request's language, as the gateway tells
        them (gateway/narration.py): names from the combat's start and joins."""
        casts: dict[str, dict[str, str]] = {}
        for env in self.chain.bus.events:
            if env.combat_id:
                casts.setdefault(env.combat_id, {}).update(names_in(env.type, env.payload))
        shown: list[JSON] = []
        for env in events:
            known = casts.get(env.combat_id or "", {})
            people = {k: v for k, v in known.items() if k != RULESET_FIELD}
            names = {c: str(s.get("name") or c) for c, s in self.sheets.items()} | people
            cast = Cast(names, known.get(RULESET_FIELD), self.settings.timezone)
            text = narrate(env.type, env.payload, cast, self.lang, at=env.occurred_at)
            shown.append({**public_event(env), "text": text})
        return shown

    async def _route(self, request: Request) -> tuple[int, Any]:
        for method, pattern, fn in ROUTES:
            found = pattern.match(request.path)
            if found and method == request.method:
                return await fn(self, request, found)
        raise ApiError("not_found")

    # --- what the routes share --------------------------------------------------------------
    async def load_sheet(self, character: str) -> JSON | None:
        return self.sheets.get(character)

    async def combat(self, combat_id: str) -> JSON | None:
        """The merged read model, as ``gateway.views.CombatReader.view``."""
        agg = self.chain.keys.combat("turns", combat_id)
        views = self.chain.data.views
        turns_raw = views.get(agg.view_of("turns"))
        if turns_raw is None:
            return None
        turns = json.loads(turns_raw)
        if turns.get("tenant") != self.tenant:
            return None
        res_raw = views.get(agg.view_of("resolution"))
        resolution = json.loads(res_raw) if res_raw else None
        return merge_combat(turns, resolution, self.chain.data.versions[agg.version])

    def log(self, combat_id: str) -> list[Envelope]:
        key = self.chain.keys.combat("turns", combat_id).log
        return [Envelope.model_validate_json(raw) for raw in self.chain.data.logs[key]]

    async def quiet_ms(self, combat_id: str) -> int:
        """How long the combat's log has not grown, as ``gateway.views.CombatReader``."""
        agg = self.chain.keys.combat("turns", combat_id)
        last = await MemoryStore(self.chain.data, "turns").last_logged(agg, 1)
        return quiet_ms(last[0][0] if last else None, self.chain.clock.now_ms())

    def states_view(self, character: str) -> JSON:
        agg = self.chain.keys.character("states", self.tenant, character)
        raw = self.chain.data.views.get(agg.view)
        model = json.loads(raw) if raw else {}
        if "status" not in model:
            model = {"status": CharacterStatus.model_validate(model).model_dump(mode="json")}
        return {"status": model["status"], "history": model.get("history", [])}

    async def send(self, type_: str, payload: JSON, *, room: str, combat_id: str | None) -> Outcome:
        outcome = await self.chain.send(
            type_,
            payload,
            tenant=self.tenant,
            room=room,
            combat_id=combat_id,
            correlation_id=new_id("r"),
            message_id=new_id("m"),
        )
        raise_if_rejected(outcome)
        held = self.chain.holding  # sent and left waiting: no outcome yet
        assert held or outcome.complete, f"{type_}: the chain settled without a final event"
        return outcome

    async def ended_combat(self, combat_id: str, *characters: str) -> JSON:
        combat = await self.combat(combat_id)
        if combat is None:
            raise ApiError("not_found")
        if combat["phase"] != "ended":
            raise ApiError("wrong_phase", rule="umh 4.1.3", details={"phase": combat["phase"]})
        for character in characters:
            if character not in combat.get("participants", {}):
                raise ApiError("not_in_combat", details={"character": character})
        return combat

    async def to_states(
        self, type_: str, payload: JSON, *, room: str, combat_id: str | None, character: str
    ) -> tuple[int, Any]:
        outcome = await self.send(type_, payload, room=room, combat_id=combat_id)
        return 200, {
            "correlation_id": outcome.events[0].correlation_id if outcome.events else None,
            "character": character,
            "events": self.told(outcome.events),
            "status": self.states_view(character)["status"],
        }


class ChainClient:
    """``httpx.AsyncClient``'s calling shape over a :class:`ChainGateway`."""

    def __init__(self, gateway: ChainGateway, *, moderator: bool = True) -> None:
        self.gateway = gateway
        self.moderator = moderator

    async def _call(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> ChainResponse:
        return await self.gateway.request(
            method,
            path,
            json_body=json,
            params=params,
            headers=headers,
            moderator=self.moderator,
        )

    async def get(
        self, path: str, *, params: dict[str, str] | None = None, headers: Any = None
    ) -> ChainResponse:
        return await self._call("GET", path, params=params, headers=headers)

    async def post(self, path: str, *, json: Any = None, headers: Any = None) -> ChainResponse:
        return await self._call("POST", path, json=json, headers=headers)

    async def put(self, path: str, *, json: Any = None, headers: Any = None) -> ChainResponse:
        return await self._call("PUT", path, json=json, headers=headers)

    async def patch(self, path: str, *, json: Any = None, headers: Any = None) -> ChainResponse:
        return await self._call("PATCH", path, json=json, headers=headers)


class ChainReferee:
    """The chain as the host of the API: communities, clients by key, waiting.

    Waiting runs in simulated time: the chain settles, the probe is asked, and if it does
    not hold yet the clock jumps to the next timer due (never past ``within`` seconds).
    """

    def __init__(self, chain: Chain) -> None:
        self.chain = chain
        self._communities = itertools.count(1)
        self._gateways: list[ChainGateway] = []

    def client(self, api_key: str | None = None) -> ChainClient:
        for gateway in self._gateways:
            if api_key in gateway.api_keys:
                return ChainClient(gateway, moderator=gateway.api_keys[api_key])
        raise AssertionError(f"no community has the key {api_key!r}")

    async def new_community(self, *, timers: dict[str, int] | None = None) -> ChainCommunity:
        """A new community (its moderator key) whose combats use ``timers``."""
        number = next(self._communities)
        gateway = ChainGateway(self.chain, f"t_{number}")
        api_key = f"{gateway.tenant}:moderator:0"
        gateway.api_keys[api_key] = True
        self._gateways.append(gateway)
        community = Community(
            self, gateway.tenant, f"community {number}", api_key, ChainClient(gateway)
        )
        await community.set_timers(**(CALM_TIMERS if timers is None else timers))
        return community

    async def wait_until(
        self,
        probe: Callable[[], Awaitable[T | None]],
        *,
        within: float,
        what: str | Callable[[], str],
    ) -> T:
        deadline = self.chain.clock.now_ms() + round(within * 1000)
        while True:
            await self.chain.settle()
            found = await probe()
            if found is not None:
                return found
            due = self.chain.next_due()
            if due is None or due > deadline:
                described = what() if callable(what) else what
                raise AssertionError(
                    f"timed out after {within} s (simulated) waiting for {described}"
                )
            await self.chain.run_until(due)

    async def stream(
        self,
        community: ChainCommunity,
        *,
        room: str | None = None,
        until: Callable[[list[Sse]], bool],
        within: float,
    ) -> list[Sse]:
        """What ``GET /v1/events?room=`` streams from the start (``Last-Event-ID: 0-0``),
        read until ``until(received)`` holds: the community's public events, once each, in
        the order the recorder received them."""

        teller = next(g for g in self._gateways if g.tenant == community.id)

        async def received() -> list[Sse] | None:
            seen: set[str] = set()
            got: list[Sse] = []
            for env in self.chain.bus.events:
                if env.tenant != community.id or env.message_id in seen:
                    continue
                if room is not None and env.room != room:
                    continue
                seen.add(env.message_id)
                got.append(Sse(f"{len(got) + 1}-0", env.type, teller.told([env])[0]))
            return got if until(got) else None

        return await self.wait_until(received, within=within, what="the events on the stream")


ChainCommunity = Community[ChainClient]
