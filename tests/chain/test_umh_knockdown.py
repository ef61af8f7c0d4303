"""umh 11.5.2: a knockdown (derribo) is a variant of immobilisation with the same effect (no
movement, no evasion that needs the legs) and no duration: *Levantarse* ends it. A
knocked-down fighter still uses his skills. Driven through the chain."""

from __future__ import annotations

from tests.support.play import error_of, expect
from tests.support.sheets import JSON, offensive
from tests.support.table import ChainCommunity, ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 60, "defense_seconds": 60}
ZANCADILLA: JSON = {
    **offensive("Zancadilla", damage=10),
    "effects": [{"kind": "state", "type": "derribo"}],
}
SALTO: JSON = {
    "name": "Salto",
    "tier": 1,
    "pa": 1,
    "type": "defensive",
    "defense_kind": "evasion",
    "natures": ["fisica"],
    "needs_legs": True,
}


async def knocked_down(referee: ChainReferee) -> tuple[ChainCommunity, str]:
    """ana knocks bruno down in her turn of round 1, then passes: bruno's turn."""
    community = await referee.new_community(timers=TIMERS)
    await community.register("ana", vel=7, skills=[ZANCADILLA, offensive("Puño")])
    await community.register("bruno", vel=5, skills=[offensive("Puño"), SALTO])
    body = {
        "room": "room-knockdown",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": [0, 0], "bruno": [1, 0]},
    }
    cid = (await community.start(body))["id"]
    await community.wait_turn(cid, "ana", 1)
    trip = await community.use_skill(cid, "ana", "Zancadilla", ["bruno"])
    await community.react(cid, "bruno", trip["action_id"], None)
    await community.wait_event(cid, "effect.applied", lambda d: d["effect"]["type"] == "derribo")
    await community.wait_combat(cid, lambda c: not c["pending_reactions"], what="resolved")
    combat = await community.combat(cid)
    assert "stand_up" in combat["participants"]["bruno"]["blocks"], combat["participants"]
    return community, cid


async def test_11_5_2_knocked_down_cannot_move_nor_evade_with_legs(
    referee: ChainReferee,
) -> None:
    """No movement (immobilized, umh 11.5.2), no leg-based evasion, but his skills work."""
    community, cid = await knocked_down(referee)
    punch = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    leap = await community.act(
        cid, {"type": "react", "actor": "bruno", "action_id": punch["action_id"], "skill": "Salto"}
    )
    assert error_of(leap, 422, "immobilized")["rule"] == "umh 11.5.2"
    await community.react(cid, "bruno", punch["action_id"], None)
    await community.wait_combat(cid, lambda c: not c["pending_reactions"], what="resolved")
    await community.pass_turn(cid, "ana")
    await community.wait_turn(cid, "bruno", 1)
    walk = await community.act(cid, {"type": "move", "actor": "bruno", "to": [2, 0]})
    assert error_of(walk, 422, "immobilized")["rule"] == "umh 11.5.2"
    back = await community.use_skill(cid, "bruno", "Puño", ["ana"])
    assert back["action_id"]


async def test_11_5_2_levantarse_ends_the_knockdown(referee: ChainReferee) -> None:
    """*Levantarse* lifts it: he moves again."""
    community, cid = await knocked_down(referee)
    await community.pass_turn(cid, "ana")
    await community.wait_turn(cid, "bruno", 1)
    stood = await community.act_ok(cid, {"type": "stand_up", "actor": "bruno"})
    assert stood["combat"]["participants"]["bruno"]["blocks"] == []
    expect(await community.act(cid, {"type": "move", "actor": "bruno", "to": [2, 0]}), 200)
