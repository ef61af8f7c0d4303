"""Run as ``python -m tests.chain.fourth.play``: registers the toy ruleset with the public
``register()`` of the four registries, then plays it end to end through the in-memory chain
(the gateway's part included: its models, gates and error bodies) and prints a JSON summary.

A fresh interpreter, because the shared registry is fixed once the action and sheet unions,
the error catalogue and the settings are composed from it (on first import): the toy is
registered before anything composed is imported.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from shared.logging import configure
from shared.rulesets import registry
from tests.chain.fourth.definition import TOY


def register() -> None:
    """One call per registry: the shared one first, then each service's."""
    registry.register(TOY)
    from services.resolution import registry as resolution
    from services.states import registry as states
    from services.turns import registry as turns
    from tests.chain.fourth.adapters import ToyAftermath, ToyResolution, ToyTurns

    turns.register(ToyTurns())
    resolution.register(ToyResolution())
    states.register(ToyAftermath())


async def play() -> dict[str, Any]:
    from gateway.routes.combats import StartCombatBody
    from shared.settings import CommunitySettings
    from tests.support.chain import Chain
    from tests.support.play import expect, start_in
    from tests.support.table import ChainReferee

    chain = Chain()
    referee = ChainReferee(chain)
    community = await referee.new_community()
    for character in ("ana", "bruno"):
        sheet = {"ruleset": "toy", "name": character.capitalize()}
        expect(await community.client.put(f"/v1/characters/{character}", json=sheet), 201)
    combat = await start_in(community, "toy", "ana", ["bruno"])
    cid = combat["id"]
    summary: dict[str, Any] = {
        "enum": StartCombatBody.model_json_schema()["properties"]["ruleset"]["enum"],
        "settings": CommunitySettings().model_dump()["toy"],
        "started": {k: combat[k] for k in ("ruleset", "phase", "turn", "points")},
        "pokes": [],
    }
    for actor, target in (("ana", "bruno"), ("bruno", "ana"), ("ana", "bruno")):
        wrong = {"type": "toy.poke", "actor": target, "target": actor}
        refused = await community.act(cid, wrong, headers={"Accept-Language": "es"})
        poke = await community.act_ok(cid, {"type": "toy.poke", "actor": actor, "target": target})
        summary["pokes"].append(
            {
                "refused": [refused.status_code, refused.json()["error"]],
                "events": [event["type"] for event in poke["events"]],
                "points": poke["combat"]["points"],
            }
        )
    after = await community.act(cid, {"type": "toy.poke", "actor": "bruno", "target": "ana"})
    summary["after_the_end"] = after.json()["error"]["code"]
    summary["combat"] = await community.combat(cid)
    summary["status"] = {c: await community.status(c) for c in ("ana", "bruno")}
    summary["log"] = [event["type"] for event in await community.events_of(cid)]
    return summary


if __name__ == "__main__":
    configure(level="WARNING")  # stdout carries the summary only
    register()
    print(json.dumps(asyncio.run(play()), sort_keys=True))
