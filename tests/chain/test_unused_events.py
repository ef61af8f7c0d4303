"""Issue 15: a service is not sent what its part of the combat's ruleset leaves unused
(shared/messages.py ``UNUSED``). A combat of each ruleset is played through the three
services' handlers, and every message each service handled is listed: in cypher and l5r,
services/resolution handles no action, turn, join or flight, and services/states only the
combat's start and end; in umh both still get them (durations, regenerations, immunities)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.messages import (
    COMBAT_ENDED,
    COMBAT_STARTED,
    TURN_ENDED,
    TURN_STARTED,
    UNUSED,
)
from tests.support.chain import Chain
from tests.support.play import expect, start_in, unique
from tests.support.sheets import npc, pc, samurai
from tests.support.steps import register_sheet, register_with
from tests.support.table import ChainReferee


async def fighters(referee: ChainReferee, ruleset: str) -> tuple[Any, str, str]:
    community = await referee.new_community()
    ana, bruno = unique("ana"), unique("bruno")
    if ruleset == "umh":
        await register_with(community, ana, vel=6)
        await register_with(community, bruno, vel=5)
    elif ruleset == "cypher":
        await register_sheet(community, ana, pc("Ana"))
        await register_sheet(community, bruno, npc("Orco"))
    else:
        for cid in (ana, bruno):
            expect(await community.client.put(f"/v1/characters/{cid}", json=samurai(cid)), 200, 201)
    return community, ana, bruno


async def played(referee: ChainReferee, ruleset: str) -> str:
    """A combat of ``ruleset``: two turns passed, then annulled; its id."""
    community, ana, bruno = await fighters(referee, ruleset)
    combat = await start_in(community, ruleset, ana, [bruno])
    cid = str(combat["id"])
    for _ in range(2):
        running = await community.wait_combat(
            cid, lambda c: c.get("turn") is not None, what="a turn"
        )
        actor = running["turn"]["actor"]
        await community.act_ok(cid, {"type": "pass_turn", "actor": actor})
    await community.act_ok(cid, {"type": "annul", "actor": ana, "reason": "test"})
    return cid


def handled_by(chain: Chain, service: str) -> set[str]:
    return {kind for name, kind in chain.handled if name == service}


@pytest.mark.parametrize("ruleset", ["cypher", "l5r"])
async def test_unused_events_are_not_sent(
    referee: ChainReferee, chain: Chain, ruleset: str
) -> None:
    await played(referee, ruleset)
    await chain.settle()
    for service in ("resolution", "states"):
        handled = handled_by(chain, service)
        assert {COMBAT_STARTED, COMBAT_ENDED} <= handled, service
        assert not handled & UNUSED[(service, ruleset)], service


async def test_umh_still_sends_them(referee: ChainReferee, chain: Chain) -> None:
    """umh 2.3.6 and 11.3.3: regenerations at a turn's end, indirect damage at its start."""
    await played(referee, "umh")
    await chain.settle()
    assert {TURN_STARTED, TURN_ENDED} <= handled_by(chain, "resolution")
