"""A disconnected player's fate (umh 4.3.3, 4.3.4; test vector T000-34): on the losing side he
is defeated and open to the winners' post-combat states; on the winning side he falls and
loses 1 vigor point."""

from __future__ import annotations

from tests.support.play import expect
from tests.support.sheets import JSON, offensive
from tests.support.steps import act_or_skip, knock_out, register_with, wait_status
from tests.support.table import ChainReferee

KO = offensive("Golpe", damage=1000, pa=3)
TOUCH = offensive("Toque", damage=1, pa=1)
WOUND = {
    "name": "Herida",
    "tier": 1,
    "pa": 1,
    "type": "supplementary",
    "natures": ["fisica"],
    "post_combat": {"kind": "state", "state": "herida_grave", "seconds": 3600},
}
FAST_GRACE = {
    "preparation_seconds": 1,
    "turn_seconds": 30,
    "defense_seconds": 30,
    "disconnect_seconds": 1,
}


async def test_a_disconnected_loser_is_open_to_post_combat_states(referee: ChainReferee) -> None:
    community = await referee.new_community(timers=FAST_GRACE)
    await register_with(community, "ana", vel=6, skills=[KO, WOUND])
    await register_with(community, "bruno", vel=5, skills=[KO])
    combat = await community.start_challenge("ana", "bruno")
    cid = combat["id"]
    await act_or_skip(community, cid, {"type": "disconnect", "actor": "bruno"})
    ended = await community.wait_combat(cid, lambda c: c["phase"] == "ended", what="the end")
    assert ended["result"]["winner"] == "attackers"

    # umh 4.3.3: defeated without reaching 0 VIT: no vigor lost by default.
    status = await wait_status(community, "bruno", lambda s: s["in_combat"] is None, what="out")
    assert status["vigor_lost"] == 0
    # umh 4.3.4: the winners may apply any post-combat state they can cause to him.
    body = {"actor": "ana", "target": "bruno", "skill": "Herida"}
    answer: JSON = expect(
        await community.client.post(f"/v1/combats/{cid}/post_combat", json=body), 200
    ).json()
    (held,) = answer["status"]["post_combat_states"]
    assert (held["state"], held["by"]) == ("herida_grave", "ana")


async def test_a_disconnected_winner_falls_with_one_vigor_point(referee: ChainReferee) -> None:
    community = await referee.new_community(timers=FAST_GRACE)
    await register_with(community, "ana", vel=4, vit=100, skills=[TOUCH, KO])
    await register_with(community, "bruno", vel=6, skills=[KO])
    await register_with(community, "carla", vel=5, skills=[KO])
    attack = await community.start_attack("ana", ["bruno", "carla"], "Toque")
    cid = attack["id"]
    for window in attack["pending_reactions"]:
        await community.react(cid, window["reactor"], window["action_id"], None)
    await act_or_skip(community, cid, {"type": "disconnect", "actor": "carla"})
    await community.wait_event(cid, "combatant.disconnected", lambda d: bool(d.get("out")))
    ended = await knock_out(community, cid, "bruno", "ana", "Golpe")
    assert ended["result"]["winner"] == "defenders"

    # T000-34 / umh 4.3.4: carla, disconnected on the winning side, falls: -1 vigor.
    carla = await wait_status(community, "carla", lambda s: s["vigor_lost"] == 1, what="-1 vigor")
    assert carla["in_combat"] is None
    bruno = await wait_status(community, "bruno", lambda s: s["in_combat"] is None, what="out")
    assert bruno["vigor_lost"] == 0
