"""The public API calls the benchmark makes to set up its combats, through the project's
client (client/referee_client); the load loop's own calls stay raw HTTP, measured as sent."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from referee_client import ApiError, AsyncReferee, StillPendingError

VIT = 10_000_000  # so that nobody goes down during a run (100 damage per hit)


class SetupError(RuntimeError):
    """The suite refused a setup call: the benchmark cannot run."""


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def sheet(name: str) -> dict[str, Any]:
    """A umh sheet with one 1-PA offensive skill and one internal defense (docs/api.md)."""
    return {
        "name": name,
        "ruleset": "umh",
        "stats": {"vit": VIT, "vel": 6, "ref": 3, "vol": 2, "fue": 100, "rank": 2, "vigor": 5},
        "resistance": {"value": 0},
        "skills": [
            {
                "name": "Golpe",
                "uses_per_round": 10,  # umh 2.3.1.3: unless the skill says otherwise
                "tier": 1,
                "pa": 1,
                "type": "offensive",
                "natures": ["fisica"],
                "damage": 100,
                "reach": 1,
            },
            {
                "name": "Bloqueo",
                "uses_per_round": 10,  # umh 2.3.1.3: unless the skill says otherwise
                "tier": 1,
                "pa": 1,
                "type": "defensive",
                "defense_kind": "internal",
                "natures": ["fisica"],
                "defense": 50,
            },
        ],
    }


async def get_combat(client: httpx.AsyncClient, key: str, combat_id: str) -> dict[str, Any]:
    """One raw read of the load loop (measured: no retries behind its back)."""
    answer = await client.get(f"/v1/combats/{combat_id}", headers=bearer(key))
    if answer.status_code >= 300:
        raise SetupError(f"get {combat_id}: {answer.status_code} {answer.text[:300]}")
    body: dict[str, Any] = answer.json()
    return body


async def create_community(
    admin: AsyncReferee, name: str, timers: dict[str, int]
) -> tuple[str, str]:
    """A community with the given timer settings; returns its id and (moderator) API key."""
    try:
        created = await admin.create_community(name)
        async with AsyncReferee(str(admin.http.base_url), created["api_key"]) as community:
            await community.patch_settings({"timers": timers})
    except ApiError as exc:
        raise SetupError(f"create community {name}: {exc}") from exc
    return created["id"], created["api_key"]


async def register_pairs(
    api: AsyncReferee, prefix: str, pairs: int, *, concurrency: int = 50
) -> list[tuple[str, str]]:
    """``pairs`` pairs of characters ``(<prefix>a<i>, <prefix>b<i>)``, all registered."""
    names = [(f"{prefix}a{i}", f"{prefix}b{i}") for i in range(pairs)]
    gate = asyncio.Semaphore(concurrency)

    async def put(cid: str) -> None:
        async with gate:
            try:
                await api.put_character(cid, sheet(cid))
            except ApiError as exc:
                raise SetupError(f"register {cid}: {exc}") from exc

    await asyncio.gather(*(put(c) for pair in names for c in pair))
    return names


async def start_challenges(
    api: AsyncReferee,
    pairs: list[tuple[str, str]],
    room_prefix: str,
    *,
    concurrency: int = 50,
) -> list[str]:
    """One challenge combat per pair, each in a room of its own; returns the combat ids."""
    gate = asyncio.Semaphore(concurrency)

    async def start(index: int, attacker: str, defender: str) -> str:
        body = {
            "room": f"{room_prefix}{index}",
            "ruleset": "umh",
            "attacker": attacker,
            "defenders": [defender],
            "opening": {"kind": "challenge"},
        }
        async with gate:
            try:
                return (await api.start_combat(body))["id"]
            except (ApiError, StillPendingError) as exc:
                raise SetupError(f"start combat {index}: {exc}") from exc

    return list(await asyncio.gather(*(start(i, a, d) for i, (a, d) in enumerate(pairs))))


async def wait_phase(
    api: AsyncReferee,
    combat_ids: list[str],
    phase: str,
    *,
    within: float = 60.0,
    concurrency: int = 50,
) -> dict[str, dict[str, Any]]:
    """Poll until every combat is in ``phase``; returns their views."""
    gate = asyncio.Semaphore(concurrency)
    deadline = time.monotonic() + within

    async def one(combat_id: str) -> dict[str, Any]:
        while True:
            async with gate:
                combat = dict(await api.get_combat(combat_id))
            if combat.get("phase") == phase:
                return combat
            if time.monotonic() > deadline:
                raise SetupError(f"{combat_id} still {combat.get('phase')!r}, not {phase!r}")
            await asyncio.sleep(0.2)

    views = await asyncio.gather(*(one(c) for c in combat_ids))
    return dict(zip(combat_ids, views, strict=True))


async def combat_log(api: AsyncReferee, combat_id: str) -> list[dict[str, Any]]:
    """Every event of a combat's audit log, following ``next``."""
    return await api.whole_log(combat_id)
