"""Playing combats through the docs/api.md surface, whoever serves it: the real suite over HTTP
(``tests/e2e``) or the in-memory chain (``tests/chain``).

A :class:`Community` is one tenant seen through its moderator key. It needs a :class:`Host`
(clients by API key, and a way to wait) and a :class:`Client` with httpx's calling shape.
Waiting is always "until this arrives or a timeout" (docs/CONTRIBUTING.md "Tests"): over HTTP the
host polls in real time; over the chain it moves the fake clock from timer to timer.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from tests.support.sheets import JSON, umh_sheet

T = TypeVar("T")

# Preparation is as short as the settings allow; turns and defenses are long enough that
# nothing times out behind a test's back unless the test asks for it.
CALM_TIMERS: dict[str, int] = {"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": 30}


@dataclass(frozen=True)
class Sse:
    """One Server-Sent Event as a frontend receives it (``GET /v1/events``)."""

    id: str
    event: str
    data: JSON


class Answered(Protocol):
    """What a test reads of an answer (``httpx.Response`` has it)."""

    @property
    def status_code(self) -> int: ...

    @property
    def text(self) -> str: ...

    def json(self) -> Any: ...


class Client(Protocol):
    """``httpx.AsyncClient``'s calls the tests make."""

    async def get(self, url: str, /, *, params: Any = None, headers: Any = None) -> Any: ...

    async def post(self, url: str, /, *, json: Any = None, headers: Any = None) -> Any: ...

    async def put(self, url: str, /, *, json: Any = None, headers: Any = None) -> Any: ...

    async def patch(self, url: str, /, *, json: Any = None, headers: Any = None) -> Any: ...


class Host(Protocol):
    """Who serves the API: clients by key, and waiting."""

    def client(self, api_key: str | None = None) -> Any: ...

    async def wait_until(
        self,
        probe: Callable[[], Awaitable[T | None]],
        *,
        within: float,
        what: str | Callable[[], str],
    ) -> T: ...


A = TypeVar("A", bound=Answered)


def expect(response: A, *statuses: int) -> A:
    """The response, after checking its status (the body is in the message when it fails)."""
    request = getattr(response, "request", None)
    asked = f"{request.method} {request.url.path}" if request is not None else "request"
    assert response.status_code in statuses, (
        f"{asked} -> {response.status_code} (expected {statuses}): {response.text}"
    )
    return response


def error_of(response: Answered, status: int, code: str) -> JSON:
    """The ``error`` object of a docs/api.md error body, after checking status and code."""
    expect(response, status)
    body: JSON = response.json()
    assert set(body) == {"error"}, body
    error: JSON = body["error"]
    assert set(error) >= {"code", "message", "rule", "details"}, error
    assert error["code"] == code, error
    return error


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


# --- events -----------------------------------------------------------------------------------
def of_type(events: Iterable[JSON], *types: str) -> list[JSON]:
    return [event for event in events if event["type"] in types]


def types_of(events: Iterable[JSON]) -> list[str]:
    return [str(event["type"]) for event in events]


def turns_of_round(events: Iterable[JSON], round_: int) -> list[JSON]:
    """The ``turn.started`` events of one round, in order."""
    return [e for e in of_type(events, "turn.started") if e["data"]["round"] == round_]


C = TypeVar("C", bound=Client)


class Community(Generic[C]):
    """One tenant, driven through its moderator key (``client``)."""

    def __init__(self, referee: Host, id_: str, name: str, api_key: str, client: C) -> None:
        self.referee = referee
        self.id = id_
        self.name = name
        self.api_key = api_key
        self.client = client

    async def key(self, scope: str) -> str:
        """A new key of this community with ``scope`` (frontend or moderator)."""
        answer = expect(await self.client.post("/v1/keys", json={"scope": scope}), 201)
        body = answer.json()
        assert body["scope"] == scope, body
        return str(body["api_key"])

    async def set_timers(self, **timers: int) -> JSON:
        answer = expect(await self.client.patch("/v1/settings", json={"timers": timers}), 200)
        settings: JSON = answer.json()
        assert all(settings["timers"][k] == v for k, v in timers.items()), settings
        return settings

    async def register(self, character: str, *, vel: float = 6, **sheet: Any) -> JSON:
        """``PUT /v1/characters/{character}`` with a umh sheet (see :func:`umh_sheet`)."""
        body = umh_sheet(character.capitalize(), vel=vel, **sheet)
        answer = expect(await self.client.put(f"/v1/characters/{character}", json=body), 201, 200)
        stored: JSON = answer.json()
        return stored

    # --- combats ---
    async def start(self, body: JSON, headers: dict[str, str] | None = None) -> JSON:
        answer = expect(await self.client.post("/v1/combats", json=body, headers=headers), 201)
        combat: JSON = answer.json()
        return combat

    async def start_challenge(
        self, attacker: str = "ana", defender: str = "bruno", *, room: str | None = None
    ) -> JSON:
        """A challenge (umh 1.1.1.2): the combat goes straight to preparation (no acceptance
        step); with the tests' 1 s preparation, a machine under load may answer after it
        ended, so fighting is what the answer may show then."""
        body = challenge_body(attacker, defender, room=room)
        combat = await self.start(body)
        assert combat["phase"] in ("preparation", "fighting"), combat
        return combat

    async def start_attack(
        self, attacker: str, defenders: list[str], skill: str, *, room: str | None = None
    ) -> JSON:
        """An out-of-combat attack (umh 1.1.1.1): one defense window per target opens."""
        body = {
            "room": room or unique("room"),
            "ruleset": "umh",
            "attacker": attacker,
            "defenders": defenders,
            "opening": {"kind": "skill", "skill": skill, "targets": defenders},
        }
        combat = await self.start(body)
        assert combat["phase"] == "opening", combat
        return combat

    async def combat(self, combat_id: str) -> JSON:
        combat: JSON = expect(await self.client.get(f"/v1/combats/{combat_id}"), 200).json()
        return combat

    async def act(self, combat_id: str, body: JSON, headers: dict[str, str] | None = None) -> Any:
        return await self.client.post(
            f"/v1/combats/{combat_id}/actions", json=body, headers=headers
        )

    async def act_ok(self, combat_id: str, body: JSON) -> JSON:
        """An action answered 200 ``{action_id, events, combat}``."""
        answer: JSON = expect(await self.act(combat_id, body), 200).json()
        assert set(answer) >= {"action_id", "events", "combat"}, answer
        return answer

    async def use_skill(
        self, combat_id: str, actor: str, skill: str, targets: Sequence[str] = ()
    ) -> JSON:
        body = {"type": "skill", "actor": actor, "skill": skill, "targets": list(targets)}
        return await self.act_ok(combat_id, body)

    async def react(
        self, combat_id: str, actor: str, action_id: str, skill: str | None = None
    ) -> JSON:
        body = {"type": "react", "actor": actor, "action_id": action_id, "skill": skill}
        return await self.act_ok(combat_id, body)

    async def pass_turn(self, combat_id: str, actor: str) -> JSON:
        return await self.act_ok(combat_id, {"type": "pass_turn", "actor": actor})

    async def events_of(self, combat_id: str) -> list[JSON]:
        """Every event of the combat's audit log, in order (following ``next`` pages)."""
        events: list[JSON] = []
        params: dict[str, str] = {}
        while True:
            answer = expect(
                await self.client.get(f"/v1/combats/{combat_id}/log", params=params), 200
            )
            page = answer.json()
            events += page["events"]
            if not page.get("next"):
                return events
            params = {"after": page["next"]}

    async def status(self, character: str) -> JSON:
        answer = expect(await self.client.get(f"/v1/characters/{character}/status"), 200)
        status: JSON = answer.json()
        return status

    # --- waiting ---
    async def wait_combat(
        self, combat_id: str, predicate: Callable[[JSON], bool], *, what: str, within: float = 10
    ) -> JSON:
        """Poll the combat until ``predicate`` holds."""
        last: list[JSON] = []

        async def probe() -> JSON | None:
            combat = await self.combat(combat_id)
            last[:] = [combat]
            return combat if predicate(combat) else None

        def described() -> str:
            seen = last[0] if last else {}
            phase, round_, turn = seen.get("phase"), seen.get("round"), seen.get("turn")
            return f"{what} (last: phase={phase} round={round_} turn={turn})"

        return await self.referee.wait_until(probe, within=within, what=described)

    async def wait_turn(
        self, combat_id: str, actor: str, round_: int, *, within: float = 10
    ) -> JSON:
        """Until the combat is fighting, in round ``round_``, and it is ``actor``'s turn."""

        def holds(combat: JSON) -> bool:
            turn = combat.get("turn") or {}
            return bool(
                combat["phase"] == "fighting"
                and combat["round"] == round_
                and turn.get("actor") == actor
            )

        return await self.wait_combat(
            combat_id, holds, what=f"{actor}'s turn in round {round_}", within=within
        )

    async def wait_events(
        self,
        combat_id: str,
        predicate: Callable[[list[JSON]], bool],
        *,
        what: str,
        within: float = 10,
    ) -> list[JSON]:
        """Poll the audit log until ``predicate(events)`` holds; the whole log is returned."""
        last: list[list[JSON]] = []

        async def probe() -> list[JSON] | None:
            events = await self.events_of(combat_id)
            last[:] = [events]
            return events if predicate(events) else None

        def described() -> str:
            return f"{what} (log so far: {types_of(last[0]) if last else []})"

        return await self.referee.wait_until(probe, within=within, what=described)

    async def wait_event(
        self,
        combat_id: str,
        type_: str,
        where: Callable[[JSON], bool] = lambda data: True,
        *,
        within: float = 10,
    ) -> JSON:
        """Until the log holds an event of ``type_`` whose ``data`` satisfies ``where``."""

        def matching(events: list[JSON]) -> list[JSON]:
            return [e for e in of_type(events, type_) if where(e["data"])]

        events = await self.wait_events(
            combat_id, lambda evs: bool(matching(evs)), what=f"a {type_} event", within=within
        )
        return matching(events)[0]


async def start_in(
    community: Community[Any], ruleset: str, attacker: str, defenders: list[str]
) -> JSON:
    """A challenge in ``ruleset`` (each ruleset's way to open a combat without an attack)."""
    body = {
        "room": unique("room"),
        "ruleset": ruleset,
        "attacker": attacker,
        "defenders": defenders,
        "opening": {"kind": "challenge"},
    }
    return await community.start(body)


def challenge_body(attacker: str, defender: str, *, room: str | None = None) -> JSON:
    return {
        "room": room or unique("room"),
        "ruleset": "umh",
        "attacker": attacker,
        "defenders": [defender],
        "opening": {"kind": "challenge"},
    }
