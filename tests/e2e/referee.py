"""What the end-to-end tests share: a running suite, its HTTP clients, SSE, waiting.

A :class:`Referee` talks to one running :class:`~tests.support.suite.Suite` over HTTP only;
its communities are :class:`tests.support.play.Community` objects, which the chain tests
drive over the in-memory chain too. Waiting is always "until this arrives or a timeout"
(docs/CONTRIBUTING.md "Tests"): :func:`wait_until` polls the public API and fails with what it was
waiting for and what it last saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import httpx
from referee_client import AsyncReferee
from referee_client.types import View

from shared.namespace import drop_namespace
from shared.redis_client import redis_client
from tests.support.infra import new_namespace
from tests.support.play import CALM_TIMERS, Community, Sse, expect, unique
from tests.support.suite import PROCESSES, Suite

JSON = dict[str, Any]
T = TypeVar("T")

HttpCommunity = Community[httpx.AsyncClient]

RUNNING: list[Suite] = []
"""Suites alive right now: a failing test's report shows the tail of their logs."""


# --- suites -----------------------------------------------------------------------------------
async def start_suite(
    rabbitmq_url: str,
    redis_url: str,
    log_root: Path,
    *,
    extra_env: dict[str, str] | None = None,
    process_env: dict[str, dict[str, str]] | None = None,
) -> Suite:
    """The four processes in a fresh namespace and on a free port, ready to serve.

    ``extra_env`` tunes every process (``REFEREE_...`` settings) for a suite of its own;
    ``process_env`` sets variables of one process only, by process name.
    """
    namespace = new_namespace("e")
    suite = Suite(
        namespace,
        rabbitmq_url,
        redis_url,
        log_root / namespace,
        extra_env=dict(extra_env or {}),
        process_env=dict(process_env or {}),
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
        redis = redis_client(suite.redis_url)
        try:
            # Queues (isolated rooms' too, read from their record), exchanges, then keys.
            await drop_namespace(suite.rabbitmq_url, redis, suite.namespace, force=True)
        finally:
            await redis.aclose()


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


def stream_position(event_id: str) -> tuple[int, int]:
    """A Redis stream id (``<ms>-<seq>``) as a tuple that orders like the stream."""
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq)


async def read_sse(
    client: httpx.AsyncClient,
    *,
    params: dict[str, str],
    until: Callable[[list[Sse]], bool],
    within: float,
    last_event_id: str | None = None,
) -> list[Sse]:
    """Read ``GET /v1/events`` until ``until(received)`` holds, then disconnect.

    The stream's own control events (``stream.opened``, ``stream.reset``) are left out.
    """
    received: list[Sse] = []
    known = {"room", "combat", "view", "since", "token"}
    assert set(params) <= known, f"read_sse: {set(params) - known} not a stream parameter"
    stream = AsyncReferee.over(client).events(
        room=params.get("room"),
        combat=params.get("combat"),
        view=cast(View | None, params.get("view")),
        since=params.get("since"),
        token=params.get("token"),
        last_event_id=last_event_id,
        reconnect=False,
    )
    try:
        async with asyncio.timeout(within):
            async for message in stream:
                if message.is_control:
                    continue  # stream.opened / stream.reset: the stream's own controls
                received.append(Sse(str(message.id), message.event, dict(message.data)))
                if until(received):
                    break
    except TimeoutError:
        seen = [(sse.event, sse.data.get("combat_id")) for sse in received]
        raise AssertionError(f"SSE: condition not met after {within} s; received {seen}") from None
    finally:
        await stream.aclose()
    return received


# --- the API ----------------------------------------------------------------------------------
class Referee:
    """The suite's public API: clients for the admin token and for community keys."""

    def __init__(self, suite: Suite) -> None:
        self.suite = suite
        self._apis: list[AsyncReferee] = []

    async def wait_until(
        self,
        probe: Callable[[], Awaitable[T | None]],
        *,
        within: float,
        what: str | Callable[[], str],
    ) -> T:
        return await wait_until(probe, within=within, what=what)

    def api(self, api_key: str | None = None) -> AsyncReferee:
        """The package's client (client/referee_client) for ``api_key`` (none without one)."""
        api = AsyncReferee(self.suite.base_url, api_key, timeout=15.0)
        self._apis.append(api)
        return api

    def client(self, api_key: str | None = None) -> httpx.AsyncClient:
        """The raw HTTP client of :meth:`api` (``Authorization: Bearer <api_key>``), for tests
        that look at statuses and headers themselves."""
        return self.api(api_key).http

    async def new_community(self, *, timers: dict[str, int] | None = None) -> HttpCommunity:
        """A new community (its moderator key) whose combats use ``timers``."""
        created = await self.api(self.suite.admin_token).create_community(unique("e2e"))
        community = Community(
            self,
            created["id"],
            created["name"],
            created["api_key"],
            self.client(created["api_key"]),
        )
        await community.set_timers(**(CALM_TIMERS if timers is None else timers))
        return community

    async def aclose(self) -> None:
        for api in self._apis:
            await api.aclose()
        self._apis.clear()


async def verify_dice(community: HttpCommunity, combat_id: str) -> str:
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
