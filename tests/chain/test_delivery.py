"""What the platform promises whatever the delivery: at least once delivery applies once,
the services may interleave in any order, a lost timer is re-armed by the reconciler.

One umh combat is played to its aftermath (start, skills, reactions, resolution, turn ends,
the end, vigor lost and recovered in services/states) under each delivery; what it leaves
must be what a single, ordered delivery leaves.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

import pytest

from tests.support.chain import Chain
from tests.support.play import types_of
from tests.support.sheets import JSON, offensive
from tests.support.steps import register_with, set_aftermath, wait_status
from tests.support.table import ChainReferee

HITS = [offensive(name, damage=400, pa=3) for name in ("Golpe", "Patada", "Codazo")]


async def play(chain: Chain) -> dict[str, Any]:
    """A challenge played until bruno falls, then until his vigor comes back (umh 4.1.6)."""
    referee = ChainReferee(chain)
    community = await referee.new_community()
    await set_aftermath(community, vigor_recovery_seconds=60)
    await register_with(community, "ana", vel=6, skills=HITS)
    await register_with(community, "bruno", vel=5, vit=1000, skills=HITS)
    combat = await community.start_challenge("ana", "bruno")
    cid = combat["id"]
    for hit in HITS:  # one skill a turn: a skill is used once a round (umh 2.3.1.3)
        await community.wait_turn(cid, "ana", HITS.index(hit) + 1)
        attack = await community.use_skill(cid, "ana", hit["name"], ["bruno"])
        taken = await community.react(cid, "bruno", attack["action_id"], None)
        if taken["combat"]["phase"] != "ended":
            await community.pass_turn(cid, "ana")
            await community.pass_turn(cid, "bruno")
    ended = await community.combat(cid)
    lost = await wait_status(community, "bruno", lambda s: s["vigor_lost"] == 1, what="-1 vigor")
    back = await wait_status(
        community, "bruno", lambda s: s["vigor_lost"] == 0, what="vigor back", within=120
    )
    events = await community.events_of(combat["id"])
    return {
        "types": types_of(events),
        "ids": [e["id"] for e in events],
        "result": ended["result"],
        "vit": {c: p["vit"] for c, p in ended["participants"].items()},
        "statuses": (lost["vigor_lost"], back["vigor_lost"], back["in_combat"]),
        "public": Counter(e.type for e in chain.bus.events),
    }


@pytest.fixture
async def ordered() -> dict[str, Any]:
    return await play(Chain())


async def test_an_ordered_delivery_plays_the_whole_chain(ordered: dict[str, Any]) -> None:
    """The combat reached every service: resolution's hits, states' aftermath and timers."""
    assert ordered["result"] == {"winner": "attackers", "reason": "defeat"}
    assert ordered["vit"] == {"ana": 300, "bruno": 0}
    assert ordered["statuses"] == (1, 0, None)
    assert ordered["types"].count("action.resolved") == 3
    assert ordered["public"]["vigor.recovered"] == 1
    assert len(set(ordered["ids"])) == len(ordered["ids"])


async def test_every_message_delivered_twice_is_applied_once(ordered: dict[str, Any]) -> None:
    twice = Chain(twice=True)
    played = await play(twice)
    assert {k: v for k, v in played.items() if k != "ids"} == {
        k: v for k, v in ordered.items() if k != "ids"
    }
    assert len(set(played["ids"])) == len(played["ids"])


@pytest.mark.parametrize("seed", range(5), ids=lambda seed: f"seed-{seed}")
async def test_any_interleaving_of_the_services_gives_the_same_combat(
    ordered: dict[str, Any], seed: int
) -> None:
    played = await play(Chain(interleave=Random(seed)))
    assert played["result"] == ordered["result"]
    assert played["vit"] == ordered["vit"]
    assert played["statuses"] == ordered["statuses"]
    assert Counter(played["types"]) == Counter(ordered["types"])
    assert played["public"] == ordered["public"]


async def test_a_timer_the_store_lost_is_rearmed_by_the_reconciler(
    chain: Chain, referee: ChainReferee
) -> None:
    community = await referee.new_community()
    for character in ("ana", "bruno"):
        await register_with(community, character)
    combat = await community.start_challenge("ana", "bruno")
    timers = chain.timers["turns"]
    (lost,) = list(timers.due)  # the preparation round's timer (umh 1.3.1)
    del timers.due[lost]  # say, a Redis restart without persistence
    assert chain.next_due() is None
    assert await chain.reconcile() == 1
    assert list(timers.due) == [lost]
    assert await chain.reconcile() == 0
    fighting: JSON = await community.wait_turn(combat["id"], "ana", 1)
    assert fighting["round"] == 1
