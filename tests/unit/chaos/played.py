"""Real logs for the checker's mutation test: two umh combats played through the in-memory
chain (the services' real handlers), as the chaos players play them.

- ``ended``: a defended hit (a defense paid in PA), a window timed out, a passed turn, a
  turn timed out, a second round, a fall at 0 VIT, the end and services/states' aftermath;
- ``running``: a hit answered, then the attacker's turn running (its timer armed).

Each comes with the combat the API serves, the fighters' histories and statuses, and the
API's answers to every action (:class:`tests.chaos.load.Attempt`).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from tests.chaos.audit import at_ms
from tests.chaos.check import CombatRecord
from tests.chaos.load import DEFENSE, SKILL, Attempt, sheet
from tests.support.chain import Chain
from tests.support.table import ChainReferee

JSON = dict[str, Any]
TIMERS = {"preparation_seconds": 1, "turn_seconds": 3, "defense_seconds": 2}
VIT = 250


@dataclass
class Played:
    record: CombatRecord
    attempts: list[Attempt]

    @property
    def last_ms(self) -> int:
        return max(at_ms(e) for e in self.record.events)


class _Table:
    def __init__(self) -> None:
        self.chain = Chain()
        self.referee = ChainReferee(self.chain)

    async def community(self) -> Any:
        community = await self.referee.new_community(timers=TIMERS)
        self.client = community.client
        return community

    async def fighters(self, *names: str) -> None:
        for name, vel in zip(names, (6, 5), strict=True):
            body = sheet(name.upper(), vel=vel)
            body["stats"]["vit"] = VIT
            answer = await self.client.put(f"/v1/characters/{name}", json=body)
            assert answer.status_code in (200, 201), answer.body

    async def act(self, combat_id: str, attempts: list[Attempt], body: JSON) -> JSON:
        attempt = Attempt(combat_id, body["type"], body["actor"], f"k{len(attempts)}", time.time())
        answer = await self.client.post(f"/v1/combats/{combat_id}/actions", json=body)
        attempt.status = answer.status_code
        got: JSON = answer.json()
        attempt.action_id = got.get("action_id")
        attempt.event_ids = [str(e["id"]) for e in got.get("events") or []]
        attempt.event_types = [str(e["type"]) for e in got.get("events") or []]
        attempts.append(attempt)
        assert answer.status_code == 200, got
        return got

    async def started(self, a: str, b: str) -> str:
        body = {"room": f"room-{a}", "ruleset": "umh", "attacker": a, "defenders": [b]}
        answer = await self.client.post(
            "/v1/combats", json={**body, "opening": {"kind": "challenge"}}
        )
        assert answer.status_code == 201, answer.body
        combat_id = str(answer.json()["id"])
        await self.chain.run_for(1.5)
        return combat_id

    async def record(self, combat_id: str) -> CombatRecord:
        events: list[JSON] = (await self.client.get(f"/v1/combats/{combat_id}/log")).json()[
            "events"
        ]
        combat: JSON = (await self.client.get(f"/v1/combats/{combat_id}")).json()
        record = CombatRecord(combat_id, events, combat)
        for name in combat["participants"]:
            history = (await self.client.get(f"/v1/characters/{name}/history")).json()
            record.histories[name] = history["history"]
            record.statuses[name] = (await self.client.get(f"/v1/characters/{name}/status")).json()
        return record


def _skill(actor: str, target: str) -> JSON:
    return {"type": "skill", "actor": actor, "skill": SKILL, "targets": [target]}


async def _play() -> tuple[Played, Played]:
    table = _Table()
    await table.community()
    await table.fighters("ana", "bruno")
    await table.fighters("cai", "dora")
    ended_tries: list[Attempt] = []
    ended = await table.started("ana", "bruno")
    hit = await table.act(ended, ended_tries, _skill("ana", "bruno"))
    react = {"type": "react", "actor": "bruno", "action_id": hit["action_id"]}
    await table.act(ended, ended_tries, {**react, "skill": DEFENSE})
    await table.act(ended, ended_tries, _skill("ana", "bruno"))
    await table.chain.run_for(2.5)  # bruno's window times out
    await table.act(ended, ended_tries, {"type": "pass_turn", "actor": "ana"})
    await table.chain.run_for(3.5)  # bruno's turn times out; round 2, ana's turn
    for _ in range(3):
        if (await table.client.get(f"/v1/combats/{ended}")).json()["phase"] == "ended":
            break
        await table.act(ended, ended_tries, _skill("ana", "bruno"))
        await table.chain.run_for(2.5)
    running_tries: list[Attempt] = []
    running = await table.started("cai", "dora")
    hit = await table.act(running, running_tries, _skill("cai", "dora"))
    react = {"type": "react", "actor": "dora", "action_id": hit["action_id"], "skill": None}
    await table.act(running, running_tries, react)
    await table.chain.run_for(0.5)
    return (
        Played(await table.record(ended), ended_tries),
        Played(await table.record(running), running_tries),
    )


_cache: list[tuple[Played, Played]] = []


def played() -> tuple[Played, Played]:
    """(the ended combat, the running one), played once per test session."""
    if not _cache:
        _cache.append(asyncio.run(_play()))
    return _cache[0]
