"""Players: combats played through the public API, every request recorded.

A player behaves like a careful frontend: every action carries an ``Idempotency-Key``, and a
request that got no answer (connection refused or cut, timeout, 5xx, 409 in progress) is sent
again with the same key until it is answered. An action is *acknowledged* once it got a 2xx
(200, or 202 to poll); the checker then demands that it is in the combat's log exactly once.

Fighters are mortal (``VIT``: a few hits bring one down), so combats end, services/states
applies their aftermath, and the player starts the next combat of its room with two new
fighters. A player now and then lets a defense window or its whole turn run out, so the
timers fall due under the faults.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

JSON = dict[str, Any]

SKILL = "Golpe"
DEFENSE = "Bloqueo"
VIT = 300
"""Three unblocked hits of ``SKILL`` (100), five blocked ones (70): a combat lasts a round or
two (umh 9.1.1, 4.1.1.2)."""
IDLE = 0.15
"""How often a player lets a window or a turn run out instead of answering."""


def sheet(name: str, *, vel: float) -> JSON:
    return {
        "name": name,
        "ruleset": "umh",
        "stats": {
            "vit": VIT,
            "vel": vel,
            "ref": 3,
            "vol": 2,
            "fue": 10,
            "rank": 1,
            "vigor": 5,
        },
        "skills": [
            {
                "name": SKILL,
                "uses_per_round": 10,  # umh 2.3.1.3: unless the skill says otherwise
                "tier": 1,
                "pa": 2,
                "type": "offensive",
                "natures": ["fisica"],
                "damage": 100,
            },
            {
                "name": DEFENSE,
                "uses_per_round": 10,  # umh 2.3.1.3: unless the skill says otherwise
                "tier": 1,
                "pa": 1,
                "type": "defensive",
                "defense_kind": "internal",
                "natures": ["fisica"],
                "defense": 30,
            },
        ],
    }


@dataclass
class Attempt:
    combat_id: str
    kind: str
    actor: str
    key: str
    started: float
    status: int | None = None
    action_id: str | None = None
    tries: int = 0
    answered: float | None = None
    event_ids: list[str] = field(default_factory=list)
    event_types: list[str] = field(default_factory=list)
    """The events a 200 answer carried: each must be in the log."""

    @property
    def acknowledged(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


@dataclass
class Record:
    attempts: list[Attempt] = field(default_factory=list)
    successes: list[float] = field(default_factory=list)  # times of 2xx answers
    combats: list[str] = field(default_factory=list)  # every combat started
    rooms: dict[str, int] = field(default_factory=dict)  # combat -> its room's index
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


RETRYABLE = {409, 429, 500, 502, 503, 504}

PATIENCE_S = 60.0
"""How long a player retries one request before giving up (it is then unanswered)."""


async def send(
    client: httpx.AsyncClient,
    record: Record,
    method: str,
    path: str,
    *,
    body: JSON | None = None,
    key: str | None = None,
    deadline: float = PATIENCE_S,
) -> httpx.Response | None:
    """Send until answered (retrying with the same Idempotency-Key), or give up at deadline."""
    headers = {"Idempotency-Key": key} if key else {}
    give_up = time.monotonic() + deadline
    delay = 0.1
    while time.monotonic() < give_up:
        try:
            answer = await client.request(method, path, json=body, headers=headers, timeout=15)
        except httpx.HTTPError as exc:
            record.error(type(exc).__name__)
        else:
            if answer.status_code not in RETRYABLE:
                return answer
            record.error(f"http_{answer.status_code}")
        await asyncio.sleep(delay)
        delay = min(delay * 2, 2.0)
    return None


@dataclass
class Community:
    client: httpx.AsyncClient
    api_key: str
    id: str = ""


async def new_community(base_url: str, admin_token: str, timers: JSON) -> Community:
    admin = httpx.AsyncClient(base_url=base_url, headers={"Authorization": f"Bearer {admin_token}"})
    async with admin:
        answer = await admin.post("/v1/admin/communities", json={"name": f"chaos-{uuid.uuid4()}"})
        answer.raise_for_status()
        key, community_id = answer.json()["api_key"], str(answer.json()["id"])
    client = httpx.AsyncClient(
        base_url=base_url,
        headers={"Authorization": f"Bearer {key}"},
        limits=httpx.Limits(max_connections=400, max_keepalive_connections=200),
    )
    (await client.patch("/v1/settings", json={"timers": timers})).raise_for_status()
    return Community(client, key, community_id)


async def start_combat(
    community: Community, record: Record, index: int, game: int = 0
) -> str | None:
    """Combat ``game`` of room ``index``: two new fighters (a fallen one stays fallen)."""
    a, b = f"a{index}-{game}", f"b{index}-{game}"
    for who, vel in ((a, 6), (b, 5)):
        put = await send(
            community.client,
            record,
            "PUT",
            f"/v1/characters/{who}",
            body=sheet(who.upper(), vel=vel),
        )
        if put is None or put.status_code not in (200, 201):
            return None
    answer = await send(
        community.client,
        record,
        "POST",
        "/v1/combats",
        body={
            "room": f"room{index}",
            "ruleset": "umh",
            "attacker": a,
            "defenders": [b],
            "opening": {"kind": "challenge"},
        },
        key=f"start-{index}-{uuid.uuid4()}",
    )
    if answer is None or answer.status_code not in (201, 202):
        return None
    combat_id = str(answer.json()["id"])
    record.combats.append(combat_id)
    record.rooms[combat_id] = index
    return combat_id


class Player:
    """Plays until ``stop`` is set: attack, take or block, pass when out of PA, now and then
    let a window or a turn run out; with ``room``, the next combat of the room when one ends."""

    def __init__(
        self,
        community: Community,
        record: Record,
        combat_id: str,
        room: int | None = None,
        *,
        patience: float = PATIENCE_S,
    ) -> None:
        self.community = community
        self.patience = patience
        self.client = community.client
        self.record = record
        self.combat_id = combat_id
        self.room = room
        self.games = 0
        self.block = False
        self.dice = random.Random(combat_id)
        self.idle_until: dict[str, float] = {}
        self.fresh: JSON | None = None  # the combat a 200 answer carried

    async def combat(self) -> JSON | None:
        """The combat as the last 200 answer showed it, or read again."""
        fresh, self.fresh = self.fresh, None
        if fresh is not None and fresh.get("id") == self.combat_id:
            return fresh
        answer = await send(self.client, self.record, "GET", f"/v1/combats/{self.combat_id}")
        return answer.json() if answer is not None and answer.status_code == 200 else None

    async def act(self, kind: str, actor: str, body: JSON) -> Attempt:
        attempt = Attempt(self.combat_id, kind, actor, f"{kind}-{uuid.uuid4()}", time.time())
        self.record.attempts.append(attempt)
        answer = await send(
            self.client,
            self.record,
            "POST",
            f"/v1/combats/{self.combat_id}/actions",
            body={"type": kind, "actor": actor, **body},
            key=attempt.key,
            deadline=self.patience,
        )
        attempt.answered = time.time()
        if answer is not None:
            attempt.status = answer.status_code
            with contextlib.suppress(ValueError, KeyError):
                attempt.action_id = answer.json().get("action_id")
                if answer.status_code == 200:
                    told = answer.json().get("events") or []
                    attempt.event_ids = [str(e["id"]) for e in told]
                    attempt.event_types = [str(e.get("type")) for e in told]
                    self.fresh = answer.json().get("combat")
            if attempt.acknowledged:
                self.record.successes.append(attempt.answered)
        return attempt

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            combat = await self.combat()
            if combat is not None and combat["phase"] == "ended" and self.room is not None:
                self.games += 1
                following = await start_combat(self.community, self.record, self.room, self.games)
                if following is None:
                    return
                self.combat_id = following
                continue
            if combat is None or combat["phase"] == "ended":
                return
            if combat["phase"] != "fighting" or not combat.get("turn"):
                await asyncio.sleep(0.2)
                continue
            await self.step(combat)

    async def step(self, combat: JSON) -> None:
        actor = combat["turn"]["actor"]
        pending = combat.get("pending_reactions") or []
        if self.idles(combat, pending):
            await asyncio.sleep(0.5)
            return
        if pending:
            reaction = pending[0]
            skill = DEFENSE if self.block else None
            self.block = not self.block
            await self.act(
                "react", reaction["reactor"], {"action_id": reaction["action_id"], "skill": skill}
            )
            return
        if combat["turn"].get("paused_remaining") is not None:
            await asyncio.sleep(0.25)  # a hit is being resolved: the clock is paused
            return
        other = next(c for c in combat["participants"] if c != actor)
        if combat["participants"][actor]["pa"] >= 2:
            await self.act("skill", actor, {"skill": SKILL, "targets": [other]})
        else:
            await self.act("pass_turn", actor, {})

    def idles(self, combat: JSON, pending: list[JSON]) -> bool:
        """Whether the player leaves this window (or this turn) to its timer (``IDLE``)."""
        turn = combat["turn"]
        what = pending[0]["action_id"] if pending else f"turn-{turn.get('index')}-{turn['actor']}"
        what += f"-{combat.get('round')}"
        if what not in self.idle_until:
            self.idle_until = {what: time.monotonic() + 60 if self.dice.random() < IDLE else 0.0}
        return time.monotonic() < self.idle_until[what]
