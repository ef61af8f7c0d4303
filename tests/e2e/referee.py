"""What the end-to-end tests share: a running suite, communities, sheets, combats, waiting.

A :class:`Referee` talks to one running :class:`~tests.support.suite.Suite` over HTTP only;
a :class:`Community` is one tenant seen through its moderator key. Waiting is always "until
this arrives or a timeout" (STYLE.md "Tests"): :func:`wait_until` polls the public API and
fails with what it was waiting for and what it last saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
from httpx_sse import aconnect_sse
from redis.asyncio import Redis

from tests.support.infra import delete_namespace_broker, delete_namespace_keys, new_namespace
from tests.support.suite import PROCESSES, Suite

JSON = dict[str, Any]
T = TypeVar("T")

# Preparation is as short as the settings allow; turns and defenses are long enough that
# nothing times out behind a test's back unless the test asks for it.
CALM_TIMERS: dict[str, int] = {"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": 30}

RUNNING: list[Suite] = []
"""Suites alive right now: a failing test's report shows the tail of their logs."""


# --- suites -----------------------------------------------------------------------------------
async def start_suite(
    rabbitmq_url: str,
    redis_url: str,
    log_root: Path,
    *,
    process_env: dict[str, dict[str, str]] | None = None,
) -> Suite:
    """The four processes in a fresh namespace and on a free port, ready to serve
    (``process_env``: variables of one process only, by process name)."""
    namespace = new_namespace("e")
    suite = Suite(
        namespace, rabbitmq_url, redis_url, log_root / namespace, process_env=process_env or {}
    )
    RUNNING.append(suite)
    try:
        await asyncio.to_thread(suite.start_all)
    except BaseException:
        await stop_suite(suite)
        raise
    return suite


STOP_GRACE_SECONDS = 3.0

STRAGGLERS: list[str] = []
"""Processes that did not exit within STOP_GRACE_SECONDS of SIGTERM (shown in the summary)."""


async def stop_suite(suite: Suite) -> None:
    """Stop the processes, then delete the namespace's keys, queues and exchanges (only those).

    Every process gets SIGTERM at once; one still running after ``STOP_GRACE_SECONDS`` is
    killed and named in :data:`STRAGGLERS`, so a slow shutdown is reported, not waited out.
    """
    try:
        alive = {name: proc for name, proc in suite.procs.items() if proc.poll() is None}
        for proc in alive.values():
            proc.send_signal(signal.SIGTERM)

        async def all_exited() -> bool | None:
            return True if all(p.poll() is not None for p in alive.values()) else None

        with contextlib.suppress(AssertionError):
            await wait_until(all_exited, within=STOP_GRACE_SECONDS, what="SIGTERM exits")
        for name, proc in alive.items():
            if proc.poll() is None:
                STRAGGLERS.append(f"{suite.namespace} {name} (pid {proc.pid})")
                proc.kill()
        await asyncio.to_thread(suite.stop_all)
    finally:
        if suite in RUNNING:
            RUNNING.remove(suite)
        redis = Redis.from_url(suite.redis_url)
        try:
            await delete_namespace_keys(redis, suite.namespace)
        finally:
            await redis.aclose()
        await delete_namespace_broker(
            suite.rabbitmq_url, suite.namespace, partitions=suite.partitions
        )


def log_sections(lines: int = 60) -> list[tuple[str, str]]:
    """(title, tail) of every process log of every running suite."""
    return [
        (f"{suite.namespace} {name}.log (last {lines} lines)", suite.tail(name, lines))
        for suite in RUNNING
        for name in PROCESSES
    ]


# --- waiting ----------------------------------------------------------------------------------
async def wait_until(
    probe: Callable[[], Awaitable[T | None]],
    *,
    within: float,
    what: str | Callable[[], str],
    every: float = 0.05,
) -> T:
    """Poll ``probe`` until it returns something other than ``None``; fail after ``within`` s."""
    deadline = time.monotonic() + within
    while True:
        found = await probe()
        if found is not None:
            return found
        if time.monotonic() >= deadline:
            described = what() if callable(what) else what
            raise AssertionError(f"timed out after {within} s waiting for {described}")
        await asyncio.sleep(every)


def expect(response: httpx.Response, *statuses: int) -> httpx.Response:
    """The response, after checking its status (the body is in the message when it fails)."""
    assert response.status_code in statuses, (
        f"{response.request.method} {response.request.url.path} -> "
        f"{response.status_code} (expected {statuses}): {response.text}"
    )
    return response


def error_of(response: httpx.Response, status: int, code: str) -> JSON:
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


# --- sheets -----------------------------------------------------------------------------------
def offensive(name: str, *, damage: int = 120, pa: int = 2) -> JSON:
    return {
        "name": name,
        "tier": 1,
        "pa": pa,
        "type": "offensive",
        "natures": ["fisica"],
        "damage": damage,
        "reach": 1,
    }


def defensive(name: str, *, defense: int = 80, pa: int = 1) -> JSON:
    return {
        "name": name,
        "tier": 1,
        "pa": pa,
        "type": "defensive",
        "defense_kind": "internal",
        "natures": ["fisica"],
        "defense": defense,
    }


def supplementary(name: str, *, pa: int = 4) -> JSON:
    return {"name": name, "tier": 1, "pa": pa, "type": "supplementary", "natures": ["fisica"]}


DEFAULT_SKILLS: tuple[JSON, ...] = (
    offensive("Puño"),
    defensive("Bloqueo"),
    supplementary("Concentración"),
)


def umh_sheet(
    name: str,
    *,
    vel: float = 6,
    vit: int = 1000,
    resistance: int = 0,
    reductions: dict[str, float] | None = None,
    skills: Sequence[JSON] = DEFAULT_SKILLS,
) -> JSON:
    """A umh sheet (API.md "Characters") with only what a test needs to vary."""
    return {
        "name": name,
        "ruleset": "umh",
        "stats": {"vit": vit, "vel": vel, "ref": 3, "vol": 2, "fue": 100, "rank": 2, "vigor": 5},
        "resistance": {"value": resistance, "hardness": "acero"},
        "reductions": dict(reductions or {}),
        "skills": [dict(skill) for skill in skills],
    }


# --- events -----------------------------------------------------------------------------------
def of_type(events: Iterable[JSON], *types: str) -> list[JSON]:
    return [event for event in events if event["type"] in types]


def types_of(events: Iterable[JSON]) -> list[str]:
    return [str(event["type"]) for event in events]


def stream_position(event_id: str) -> tuple[int, int]:
    """A Redis stream id (``<ms>-<seq>``) as a tuple that orders like the stream."""
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq)


@dataclass(frozen=True)
class Sse:
    """One Server-Sent Event as a frontend receives it."""

    id: str
    event: str
    data: JSON


async def read_sse(
    client: httpx.AsyncClient,
    *,
    params: dict[str, str],
    until: Callable[[list[Sse]], bool],
    within: float,
    last_event_id: str | None = None,
) -> list[Sse]:
    """Read ``GET /v1/events`` until ``until(received)`` holds, then disconnect."""
    headers = {"Last-Event-ID": last_event_id} if last_event_id is not None else {}
    received: list[Sse] = []
    try:
        async with (
            asyncio.timeout(within),
            aconnect_sse(
                client,
                "GET",
                "/v1/events",
                params=params,
                headers=headers,
                timeout=httpx.Timeout(10.0, read=None),
            ) as source,
        ):
            expect(source.response, 200)
            async for message in source.aiter_sse():
                received.append(Sse(str(message.id), str(message.event), dict(message.json())))
                if until(received):
                    break
    except TimeoutError:
        seen = [(sse.event, sse.data.get("combat_id")) for sse in received]
        raise AssertionError(f"SSE: condition not met after {within} s; received {seen}") from None
    return received


# --- the API ----------------------------------------------------------------------------------
class Referee:
    """The suite's public API: clients for the admin token and for community keys."""

    def __init__(self, suite: Suite) -> None:
        self.suite = suite
        self._clients: list[httpx.AsyncClient] = []

    def client(self, api_key: str | None = None) -> httpx.AsyncClient:
        """A client with ``Authorization: Bearer <api_key>`` (none without a key)."""
        headers = {"Authorization": f"Bearer {api_key}"} if api_key is not None else {}
        client = httpx.AsyncClient(base_url=self.suite.base_url, headers=headers, timeout=15.0)
        self._clients.append(client)
        return client

    async def new_community(self, *, timers: dict[str, int] | None = None) -> Community:
        """A new community (its moderator key) whose combats use ``timers``."""
        admin = self.client(self.suite.admin_token)
        answer = expect(
            await admin.post("/v1/admin/communities", json={"name": unique("e2e")}), 201
        )
        body = answer.json()
        community = Community(
            self, body["id"], body["name"], body["api_key"], self.client(body["api_key"])
        )
        await community.set_timers(**(CALM_TIMERS if timers is None else timers))
        return community

    async def aclose(self) -> None:
        for client in self._clients:
            await client.aclose()
        self._clients.clear()


class Community:
    """One tenant, driven through its moderator key (``client``)."""

    def __init__(
        self, referee: Referee, id_: str, name: str, api_key: str, client: httpx.AsyncClient
    ) -> None:
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

    async def act(
        self, combat_id: str, body: JSON, headers: dict[str, str] | None = None
    ) -> httpx.Response:
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

        return await wait_until(probe, within=within, what=described)

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

        return await wait_until(probe, within=within, what=described)

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


def challenge_body(attacker: str, defender: str, *, room: str | None = None) -> JSON:
    return {
        "room": room or unique("room"),
        "ruleset": "umh",
        "attacker": attacker,
        "defenders": [defender],
        "opening": {"kind": "challenge"},
    }


# --- the aftermath (services/states, umh 4) ---------------------------------------------------
async def set_aftermath(community: Community, **seconds: int) -> JSON:
    """``PATCH /v1/settings {"aftermath": {...}}``: durations of what outlives a combat."""
    answer = await community.client.patch("/v1/settings", json={"aftermath": seconds})
    settings: JSON = expect(answer, 200).json()
    assert all(settings["aftermath"][k] == v for k, v in seconds.items()), settings
    return settings


async def wait_status(
    community: Community,
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

    return await wait_until(
        probe, within=within, what=lambda: f"{character}: {what} (last: {last[0] if last else {}})"
    )


async def history_of(community: Community, character: str) -> list[JSON]:
    answer = await community.client.get(f"/v1/characters/{character}/history")
    history: list[JSON] = expect(answer, 200).json()["history"]
    return history


def skip_if_not_refereed(response: httpx.Response, what: str) -> None:
    """Skip a scenario whose action services/turns does not referee yet (``not_implemented``)."""
    import pytest  # only the aftermath scenarios skip; the module's top stays as it was

    if response.status_code == 422 and response.json()["error"]["code"] == "not_implemented":
        pytest.skip(f"services/turns does not referee {what} yet: {response.json()['error']}")


async def act_or_skip(community: Community, combat_id: str, body: JSON) -> JSON:
    """An action answered 200, or the test is skipped if its type is not refereed yet."""
    response = await community.act(combat_id, body)
    skip_if_not_refereed(response, str(body["type"]))
    answer: JSON = expect(response, 200).json()
    return answer


async def knock_out(
    community: Community, combat_id: str, winner: str, loser: str, skill: str, *, within: float = 20
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
    community: Community, character: str, *, vel: float = 6, vit: int = 300, **fields: Any
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
    community: Community,
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


async def veto(community: Community, combat_id: str, voter: str, joiner: str) -> JSON:
    """``veto_join`` (umh 1.2.4.1): one member's vote against a pending IRRUMPIR."""
    return await community.act_ok(
        combat_id, {"type": "veto_join", "actor": voter, "joiner": joiner}
    )


async def act_as(community: Community, combat_id: str, kind: str, actor: str) -> JSON:
    """A body-less action (``flee``, ``pact``, ``disconnect``, ``reconnect``, ``ready``...)."""
    return await community.act_ok(combat_id, {"type": kind, "actor": actor})


async def wait_result(community: Community, combat_id: str, *, within: float = 15) -> JSON:
    """Until the combat has ended; its ``result``."""
    combat = await community.wait_combat(
        combat_id, lambda c: c["phase"] == "ended", what="the end of the combat", within=within
    )
    result: JSON = combat["result"]
    return result


def turns_of_round(events: Iterable[JSON], round_: int) -> list[JSON]:
    """The ``turn.started`` events of one round, in order."""
    return [e for e in of_type(events, "turn.started") if e["data"]["round"] == round_]


# --- issue 4: resolution of every defensive variation ------------------------------------------
def umh_sheet_with(
    name: str, *, skills: Sequence[JSON], stats: dict[str, Any] | None = None, **fields: Any
) -> JSON:
    """A umh sheet like :func:`umh_sheet` with any stat or top-level field overridden."""
    body = umh_sheet(name, skills=skills)
    body["stats"] = {**body["stats"], **(stats or {})}
    body.update(fields)
    return body


async def register_sheet(community: Community, character: str, body: JSON) -> JSON:
    """``PUT /v1/characters/{character}`` with a whole sheet."""
    answer = expect(await community.client.put(f"/v1/characters/{character}", json=body), 201, 200)
    stored: JSON = answer.json()
    return stored


async def react_with(
    community: Community,
    combat_id: str,
    actor: str,
    action_id: str,
    skill: str | None = None,
    **fields: Any,
) -> JSON:
    """A ``react`` action with the optional fields (``resist``, ``to``, ``use_number``...)."""
    body = {"type": "react", "actor": actor, "action_id": action_id, "skill": skill, **fields}
    return await community.act_ok(combat_id, body)


async def resolved_of(community: Community, combat_id: str, action_id: str, hit: int = 1) -> JSON:
    """The ``data`` of the ``action.resolved`` of one hit of one action, once it is logged."""
    event = await community.wait_event(
        combat_id,
        "action.resolved",
        lambda data: data["action_id"] == action_id and data.get("hit", 1) == hit,
    )
    data: JSON = event["data"]
    return data


async def verify_dice(community: Community, combat_id: str) -> str:
    """``python -m shared.dice verify -`` on the combat's log, as a player would run it:
    it must exit 0 and say VERIFIED. Returns what it printed."""
    log = expect(await community.client.get(f"/v1/combats/{combat_id}/log"), 200).json()
    verifier = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "shared.dice",
        "verify",
        "-",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await verifier.communicate(json.dumps(log).encode())
    printed = out.decode()
    assert verifier.returncode == 0, printed
    assert "VERIFIED" in printed, printed
    return printed
