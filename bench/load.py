"""The load: N combats played at once through the public API, one action at a time each.

Every combat is a loop driven by the combat view that the previous answer carried: an open
defense window is answered by its reactor (alternately taking the hit and ``Bloqueo``, when
the reactor has the PA), otherwise the current actor uses ``Golpe`` on the other fighter
while PA lasts and then passes the turn. An action's round trip is the time from sending
its POST until its answer; only actions sent inside the measured window count.

After a 202 the loop polls the action until it completed (and records how long that took);
after any other failure it reads the combat again and goes on from there, counting the
error by status and ``code``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.api import SetupError, bearer, get_combat
from bench.hops import Hops
from bench.stats import Tally

OFFENSIVE = "Golpe"
DEFENSIVE = "Bloqueo"
POLL_TIMEOUT = 60.0
READ_ATTEMPTS = 150


@dataclass
class Window:
    """The measured interval, in ``time.monotonic()`` seconds."""

    start: float
    end: float

    def __contains__(self, moment: float) -> bool:
        return self.start <= moment < self.end

    @property
    def seconds(self) -> float:
        return self.end - self.start


@dataclass
class LoadResult:
    tally: Tally
    window: Window
    actions_sent: int = 0
    stalled: list[str] = field(default_factory=list)
    read_errors: Counter[str] = field(default_factory=Counter)
    hops: Hops = field(default_factory=Hops)


def attack_cost(participant: dict[str, Any]) -> int:
    """umh 3.4: the 1-PA ``Golpe`` costs 2 once three 1-PA offensives were used this round."""
    return 2 if participant.get("offensive_1pa_this_round", 0) >= 3 else 1


def next_action(combat: dict[str, Any], block: bool) -> dict[str, Any] | None:
    """The action this benchmark plays next in ``combat``, or None when there is none.

    ``block``: answer a defense window with ``Bloqueo`` (if the reactor has 1 PA left)
    instead of taking the hit.
    """
    participants: dict[str, Any] = combat.get("participants") or {}
    pending = combat.get("pending_reactions") or []
    if pending:
        window = pending[0]
        reactor = window["reactor"]
        skill = DEFENSIVE if block and participants[reactor].get("pa", 0) >= 1 else None
        return {"type": "react", "actor": reactor, "action_id": window["action_id"], "skill": skill}
    turn = combat.get("turn")
    if combat.get("phase") != "fighting" or not turn:
        return None
    actor = turn["actor"]
    if participants[actor].get("pa", 0) < attack_cost(participants[actor]):
        return {"type": "pass_turn", "actor": actor}
    others = [c for c, p in participants.items() if c != actor and p.get("status") == "active"]
    if not others:
        return None
    return {"type": "skill", "actor": actor, "skill": OFFENSIVE, "targets": [others[0]]}


async def _settle(
    client: httpx.AsyncClient, key: str, combat_id: str, action_id: str, deadline: float
) -> dict[str, Any]:
    """Poll an action answered 202 until it is no longer pending (docs/api.md "Endpoints")."""
    url = f"/v1/combats/{combat_id}/actions/{action_id}"
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            answer = await client.get(url, headers=bearer(key))
            if answer.status_code == 200 and answer.json().get("status") != "pending":
                return dict(answer.json())
        await asyncio.sleep(0.1)
    return {"status": "pending"}


async def _reread(
    client: httpx.AsyncClient, key: str, combat_id: str, result: LoadResult
) -> dict[str, Any]:
    """The combat as it is now; read failures are counted and retried for a while."""
    for _ in range(READ_ATTEMPTS):
        try:
            return await get_combat(client, key, combat_id)
        except (httpx.HTTPError, SetupError) as exc:
            result.read_errors[type(exc).__name__] += 1
            await asyncio.sleep(0.2)
    raise SetupError(f"cannot read {combat_id} after {READ_ATTEMPTS} attempts")


def _code(answer: httpx.Response) -> str:
    try:
        return str(answer.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return answer.text[:60]


async def play(
    client: httpx.AsyncClient,
    key: str,
    combat_id: str,
    combat: dict[str, Any],
    result: LoadResult,
    stop_at: float,
) -> None:
    """Play one combat until ``stop_at`` (monotonic seconds)."""
    url = f"/v1/combats/{combat_id}/actions"
    reacts = 0
    tally, window = result.tally, result.window
    while time.monotonic() < stop_at:
        action = next_action(combat, block=reacts % 2 == 1)
        if action is None:
            if combat.get("phase") == "ended":
                result.stalled.append(f"{combat_id}: ended {combat.get('result')}")
                return
            await asyncio.sleep(0.1)
            combat = await _reread(client, key, combat_id, result)
            continue
        reacts += action["type"] == "react"
        sent, sent_wall = time.monotonic(), time.time()
        result.actions_sent += 1
        try:
            answer = await client.post(url, json=action, headers=bearer(key))
        except httpx.HTTPError as exc:
            if sent in window:
                tally.record(action["type"], time.monotonic() - sent, 0)
                tally.error(f"transport {type(exc).__name__}")
            combat = await _reread(client, key, combat_id, result)
            continue
        elapsed = time.monotonic() - sent
        if sent in window:
            tally.record(action["type"], elapsed, answer.status_code)
        if answer.status_code == 200:
            body = answer.json()
            if sent in window:
                result.hops.add(action["type"], sent_wall, time.time(), body["events"])
            combat = body["combat"]
            continue
        if answer.status_code == 202:
            action_id = answer.json()["action_id"]
            outcome = await _settle(client, key, combat_id, action_id, sent + POLL_TIMEOUT)
            if outcome["status"] == "completed" and sent in window:
                tally.settled(time.monotonic() - sent)
            elif outcome["status"] == "rejected" and sent in window:
                tally.error(f"202 then rejected {(outcome.get('error') or {}).get('code')}")
            elif outcome["status"] == "pending":
                result.stalled.append(f"{combat_id}: {action_id} pending after {POLL_TIMEOUT}s")
        elif sent in window:
            tally.error(f"{answer.status_code} {_code(answer)}")
        if answer.status_code >= 500:
            await asyncio.sleep(0.1)
        combat = await _reread(client, key, combat_id, result)


async def run_load(
    base_url: str,
    key: str,
    combats: dict[str, dict[str, Any]],
    *,
    warmup: float,
    seconds: float,
) -> LoadResult:
    """Play every combat for ``warmup + seconds``; measure the last ``seconds``."""
    start = time.monotonic() + warmup
    result = LoadResult(Tally(), Window(start, start + seconds))
    async with clients(base_url, len(combats)) as pool:
        await asyncio.gather(
            *(
                play(client, key, cid, view, result, result.window.end)
                for client, (cid, view) in zip(pool, combats.items(), strict=True)
            )
        )
    return result


@contextlib.asynccontextmanager
async def clients(base_url: str, count: int) -> AsyncIterator[list[httpx.AsyncClient]]:
    """One ``httpx.AsyncClient`` per concurrent loop, each keeping its connection alive.

    Not one shared client: httpcore's pool costs more CPU per request the more requests
    wait on it (measured here with the bare stack, 50 loops: 5.7 ms of client CPU per
    request with one shared client, 1.6 ms with one client per loop), so a shared client
    makes the load generator the bottleneck and measures httpx instead of the server.
    """
    async with contextlib.AsyncExitStack() as stack:
        pool = [
            await stack.enter_async_context(httpx.AsyncClient(base_url=base_url, timeout=30))
            for _ in range(count)
        ]
        yield pool
