"""Playing combats through the API.md surface, whoever serves it: the real suite over HTTP
(``tests/e2e``) or the in-memory chain (``tests/chain``).

A :class:`Community` is one tenant seen through its moderator key. It needs a :class:`Host`
(clients by API key, and a way to wait) and a :class:`Client` with httpx's calling shape.
Waiting is always "until this arrives or a timeout" (STYLE.md "Tests"): over HTTP the host
polls in real time; over the chain it moves the fake clock from timer to timer.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import pytest

from tests.support.sheets import DEFAULT_SKILLS, JSON, umh_sheet

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
    """The ``error`` object of an API.md error body, after checking status and code."""
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
        """A challenge (umh 1.1.1.2): the combat goes straight to preparation."""
        body = challenge_body(attacker, defender, room=room)
        combat = await self.start(body)
        assert combat["phase"] == "preparation", combat
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


# --- the aftermath (services/states, umh 4) ---------------------------------------------------
async def set_aftermath(community: Community[Any], **seconds: int) -> JSON:
    """``PATCH /v1/settings {"aftermath": {...}}``: durations of what outlives a combat."""
    answer = await community.client.patch("/v1/settings", json={"aftermath": seconds})
    settings: JSON = expect(answer, 200).json()
    assert all(settings["aftermath"][k] == v for k, v in seconds.items()), settings
    return settings


async def wait_status(
    community: Community[Any],
    character: str,
    predicate: Callable[[JSON], bool],
    *,
    what: str,
    within: float = 10,
) -> JSON:
    """Poll ``GET /v1/characters/{character}/status`` until ``predicate`` holds."""
    last: list[JSON] = []

    async def probe() -> JSON | None:
        status = await community.status(character)
        last[:] = [status]
        return status if predicate(status) else None

    return await community.referee.wait_until(
        probe, within=within, what=lambda: f"{character}: {what} (last: {last[0] if last else {}})"
    )


async def history_of(community: Community[Any], character: str) -> list[JSON]:
    answer = await community.client.get(f"/v1/characters/{character}/history")
    history: list[JSON] = expect(answer, 200).json()["history"]
    return history


def skip_if_not_refereed(response: Answered, what: str) -> None:
    """Skip a scenario whose action services/turns does not referee yet (``not_implemented``)."""
    if response.status_code == 422 and response.json()["error"]["code"] == "not_implemented":
        pytest.skip(f"services/turns does not referee {what} yet: {response.json()['error']}")


async def act_or_skip(community: Community[Any], combat_id: str, body: JSON) -> JSON:
    """An action answered 200, or the test is skipped if its type is not refereed yet."""
    response = await community.act(combat_id, body)
    skip_if_not_refereed(response, str(body["type"]))
    answer: JSON = expect(response, 200).json()
    return answer


async def knock_out(
    community: Community[Any],
    combat_id: str,
    winner: str,
    loser: str,
    skill: str,
    *,
    within: float = 20,
) -> JSON:
    """``winner`` brings ``loser`` to 0 VIT with ``skill`` (taken without defense); everyone
    else passes his turns. Returns the ended combat."""
    deadline = time.monotonic() + within
    while True:
        combat = await community.wait_combat(
            combat_id,
            lambda c: (
                c["phase"] == "ended"
                or (c["phase"] == "fighting" and bool(c["turn"]) and not c["pending_reactions"])
            ),
            what="a turn to play or the end",
            within=max(1.0, deadline - time.monotonic()),
        )
        if combat["phase"] == "ended":
            return combat
        actor = combat["turn"]["actor"]
        if actor == winner:
            attack = await community.use_skill(combat_id, winner, skill, [loser])
            await community.react(combat_id, loser, attack["action_id"], None)
        else:
            await community.pass_turn(combat_id, actor)


async def register_with(
    community: Community[Any], character: str, *, vel: float = 6, vit: int = 300, **fields: Any
) -> JSON:
    """A umh sheet with fields :meth:`Community.register` does not set (``cell``, ``alliance``,
    ``profile``, ``stats`` overrides, skills with post-combat effects...)."""
    skills = fields.pop("skills", DEFAULT_SKILLS)
    body = {**umh_sheet(character.capitalize(), vel=vel, vit=vit, skills=skills), **fields}
    answer = await community.client.put(f"/v1/characters/{character}", json=body)
    stored: JSON = expect(answer, 201, 200).json()
    return stored


# --- the umh turn economy (issue 3): joins, leaving, presence, waiting for results ----------
async def join(
    community: Community[Any],
    combat_id: str,
    joiner: str,
    *,
    side: str = "defenders",
    via: str = "irrumpir",
    skill: str | None = None,
) -> JSON:
    """``join`` (umh 1.2.4): IRRUMPIR waits for its veto window; the others enter at once."""
    body: JSON = {"type": "join", "actor": joiner, "side": side, "via": via}
    if skill is not None:
        body["skill"] = skill
    return await community.act_ok(combat_id, body)


async def veto(community: Community[Any], combat_id: str, voter: str, joiner: str) -> JSON:
    """``veto_join`` (umh 1.2.4.1): one member's vote against a pending IRRUMPIR."""
    return await community.act_ok(
        combat_id, {"type": "veto_join", "actor": voter, "joiner": joiner}
    )


async def act_as(community: Community[Any], combat_id: str, kind: str, actor: str) -> JSON:
    """A body-less action (``flee``, ``pact``, ``disconnect``, ``reconnect``, ``ready``...)."""
    return await community.act_ok(combat_id, {"type": kind, "actor": actor})


async def wait_result(community: Community[Any], combat_id: str, *, within: float = 15) -> JSON:
    """Until the combat has ended; its ``result``."""
    combat = await community.wait_combat(
        combat_id, lambda c: c["phase"] == "ended", what="the end of the combat", within=within
    )
    result: JSON = combat["result"]
    return result


async def register_sheet(community: Community[Any], character: str, body: JSON) -> JSON:
    """``PUT /v1/characters/{character}`` with a whole sheet."""
    answer = expect(await community.client.put(f"/v1/characters/{character}", json=body), 201, 200)
    stored: JSON = answer.json()
    return stored


async def react_with(
    community: Community[Any],
    combat_id: str,
    actor: str,
    action_id: str,
    skill: str | None = None,
    **fields: Any,
) -> JSON:
    """A ``react`` action with the optional fields (``resist``, ``to``, ``use_number``...)."""
    body = {"type": "react", "actor": actor, "action_id": action_id, "skill": skill, **fields}
    return await community.act_ok(combat_id, body)


async def resolved_of(
    community: Community[Any], combat_id: str, action_id: str, hit: int = 1
) -> JSON:
    """The ``data`` of the ``action.resolved`` of one hit of one action, once it is logged."""
    event = await community.wait_event(
        combat_id,
        "action.resolved",
        lambda data: data["action_id"] == action_id and data.get("hit", 1) == hit,
    )
    data: JSON = event["data"]
    return data
