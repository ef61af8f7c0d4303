"""Combos through the running suite (umh 8.1.1.1.1, issue 18): each hit of a combo has its own
windows and is resolved once, whether its windows are answered, partly answered or timed
out; then the attacker's clock runs again (umh 2.4.2) and the combat plays on to its end.
"""

from __future__ import annotations

import pytest

from tests.e2e.combos import (
    BLOQUEO,
    TAJO_DAMAGE,
    answer,
    assert_chained,
    assert_each_hit_once,
    assert_no_event_twice,
    chain_of_vit,
    combo,
    damage_to,
    fighters,
    play_to_end,
    resolved_hits,
    resumed_turn,
    window_of,
)
from tests.e2e.referee import HttpCommunity, Referee
from tests.support.play import of_type
from tests.support.sheets import umh_sheet_with
from tests.support.steps import register_sheet

pytestmark = [pytest.mark.e2e]


async def fighting(
    referee: Referee, *, hits: int, defense_seconds: int = 30, vit: int = 1000
) -> tuple[HttpCommunity, str]:
    """A challenge between ana (the combo) and bruno, at ana's first turn."""
    timers = {"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": defense_seconds}
    community = await referee.new_community(timers=timers)
    await fighters(community, hits=hits, vit=vit)
    combat_id = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(combat_id, "ana", 1)
    return community, combat_id


async def against_two(
    referee: Referee, *, hits: int, bruno: int = 1000, carla: int = 1000
) -> tuple[HttpCommunity, str]:
    """ana (the combo, and Amago: damage 0) against bruno and carla: a challenge names one
    defender only (umh 1.1.1.2), so the combat opens with Amago on both, taken, and waits
    for ana's first turn."""
    community = await referee.new_community()
    await fighters(community, hits=hits, vit=bruno, carla=carla)
    amago = combo("Amago", hits=1, damage=0)
    ana = umh_sheet_with("Ana", skills=[combo(hits=hits), amago, BLOQUEO], stats={"vel": 6})
    await register_sheet(community, "ana", ana)
    opened = await community.start_attack("ana", ["bruno", "carla"], "Amago")
    combat_id = opened["id"]
    for window in opened["pending_reactions"]:
        await answer(community, combat_id, window["reactor"], window["action_id"], None)
    await community.wait_turn(combat_id, "ana", 1)
    return community, combat_id


async def test_the_smallest_case_of_the_issue_plays_to_the_end(referee: Referee) -> None:
    """Issue 18: ana's Tajo (2 hits) on bruno, both hits taken with ``skill: null``: both are
    resolved, bruno's VIT shows both, ana's turn runs again, and the combat ends."""
    community, cid = await fighting(referee, hits=2, vit=300)
    attack = await community.use_skill(cid, "ana", "Tajo", ["bruno"])
    action_id = attack["action_id"]
    assert attack["combat"]["turn"]["deadline"] is None
    await window_of(community, cid, action_id, "bruno", 1)
    await answer(community, cid, "bruno", action_id, None)
    await window_of(community, cid, action_id, "bruno", 2)
    await answer(community, cid, "bruno", action_id, None)

    resolved = await resolved_hits(community, cid, action_id, 2)
    assert_each_hit_once(resolved, 2)
    assert damage_to(resolved, "bruno") == 2 * TAJO_DAMAGE
    combat = await resumed_turn(community, cid, "ana")
    assert combat["participants"]["bruno"]["vit"] == 300 - 2 * TAJO_DAMAGE

    ended = await play_to_end(community, cid, "ana", "Tajo", "bruno")
    assert ended["result"] == {"winner": "attackers", "reason": "defeat"}
    assert ended["participants"]["bruno"]["vit"] == 0
    assert_no_event_twice(await community.events_of(cid))


# How bruno answers each hit: a skill, None (taken), or "wait" (the window times out).
ANSWERED = {2: ["Bloqueo", None], 3: [None, "Bloqueo", None]}
PARTLY = {2: ["Bloqueo", "wait"], 3: ["Bloqueo", None, "wait"]}
TIMED_OUT = {2: ["wait", "wait"], 3: ["wait", "wait", "wait"]}
CASES = [
    pytest.param(hits, plan[hits], id=f"umh-8.1.1.1.1-{hits}-hits-{name}")
    for name, plan in (
        ("answered", ANSWERED),
        ("partly-answered", PARTLY),
        ("timed-out", TIMED_OUT),
    )
    for hits in (2, 3)
]


@pytest.mark.parametrize(("hits", "plan"), CASES)
async def test_every_hit_of_a_combo_resolves_once(
    referee: Referee, hits: int, plan: list[str | None]
) -> None:
    """Each hit's window is answered with a defense, taken, or left to time out (2 s); every
    hit is resolved once, the VIT lost is what the hits say, and ana's clock runs again."""
    community, cid = await fighting(referee, hits=hits, defense_seconds=2)
    attack = await community.use_skill(cid, "ana", "Tajo", ["bruno"])
    action_id = attack["action_id"]
    for hit, choice in enumerate(plan, start=1):
        await window_of(community, cid, action_id, "bruno", hit)
        if choice != "wait":
            await answer(community, cid, "bruno", action_id, choice)

    resolved = await resolved_hits(community, cid, action_id, hits)
    assert_each_hit_once(resolved, hits)
    events = await community.events_of(cid)
    timed_out = [
        e for e in of_type(events, "reaction.timed_out") if e["data"]["action_id"] == action_id
    ]
    assert len(timed_out) == plan.count("wait")
    reactions = [data["results"][0]["reaction"] for data in resolved]
    defended = [i for i, choice in enumerate(plan) if choice == "Bloqueo"]
    assert all(reactions[i] and reactions[i].get("skill") == "Bloqueo" for i in defended), reactions
    assert_chained(chain_of_vit(resolved, "bruno"))
    lost = damage_to(resolved, "bruno")
    assert 0 < lost < hits * TAJO_DAMAGE if defended else lost == hits * TAJO_DAMAGE
    combat = await resumed_turn(community, cid, "ana")
    assert combat["participants"]["bruno"]["vit"] == 1000 - lost
    assert_no_event_twice(events)


async def test_a_combo_on_two_targets_gives_each_hit_a_window_per_target(referee: Referee) -> None:
    """umh 8.1.1.1.1 / 8.1.1.3.2: a 2-hit combo on bruno and carla; bruno blocks hit 1 and,
    his Bloqueo spent for the round (2.3.1.3), takes hit 2; carla takes both; every hit is
    resolved once for both, then ana's turn runs again."""
    community, cid = await against_two(referee, hits=2)
    attack = await community.use_skill(cid, "ana", "Tajo", ["bruno", "carla"])
    action_id = attack["action_id"]
    for hit in (1, 2):
        await window_of(community, cid, action_id, "bruno", hit)
        await window_of(community, cid, action_id, "carla", hit)
        await answer(community, cid, "bruno", action_id, "Bloqueo" if hit == 1 else None)
        await answer(community, cid, "carla", action_id, None)

    resolved = await resolved_hits(community, cid, action_id, 2)
    assert_each_hit_once(resolved, 2)
    assert all({r["target"] for r in data["results"]} == {"bruno", "carla"} for data in resolved)
    combat = await resumed_turn(community, cid, "ana")
    for target in ("bruno", "carla"):
        assert_chained(chain_of_vit(resolved, target))
        assert combat["participants"][target]["vit"] == 1000 - damage_to(resolved, target)
    assert damage_to(resolved, "carla") > 0
    assert_no_event_twice(await community.events_of(cid))


@pytest.mark.parametrize(
    "targets",
    [
        pytest.param([[3, 0], "bruno"], id="umh-6.1.1-square-and-the-one-inside"),
        pytest.param([[3, 0]], id="umh-6.1.1-square-only"),
    ],
)
async def test_an_area_combo_on_squares_resolves_every_hit(
    referee: Referee, targets: list[object]
) -> None:
    """umh 6.1.1 / 8.1.1.1.1: a 2-hit area aimed at bruno's square. Named or not, bruno stands
    on its square, so the area hits him and he gets a window per hit; each hit is resolved
    once and ana's turn runs again."""
    community = await referee.new_community()
    tormenta = combo("Tormenta", hits=2, reach=3, area={"shape": "square", "size": 1})
    ana = umh_sheet_with("Ana", skills=[tormenta], stats={"vel": 6})
    await register_sheet(community, "ana", ana)
    bruno = umh_sheet_with("Bruno", skills=[BLOQUEO], stats={"vel": 5})
    await register_sheet(community, "bruno", bruno)
    body = {
        "room": "room-area-combo",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": [0, 0], "bruno": [3, 0]},
    }
    cid = (await community.start(body))["id"]
    await community.wait_turn(cid, "ana", 1)
    attack = await community.act_ok(
        cid, {"type": "skill", "actor": "ana", "skill": "Tormenta", "targets": targets}
    )
    action_id = attack["action_id"]
    for hit in (1, 2):
        await window_of(community, cid, action_id, "bruno", hit)
        await answer(community, cid, "bruno", action_id, None)
    resolved = await resolved_hits(community, cid, action_id, 2)
    assert_each_hit_once(resolved, 2)
    combat = await resumed_turn(community, cid, "ana")
    lost = damage_to(resolved, "bruno")
    assert lost == 2 * TAJO_DAMAGE
    assert combat["participants"]["bruno"]["vit"] == 1000 - lost
    assert_no_event_twice(await community.events_of(cid))


async def test_a_combo_whose_only_defender_falls_at_hit_one_ends_the_combat(
    referee: Referee,
) -> None:
    """umh 4.1.1.2 / 8.1.1.1.1: bruno (VIT 100) falls at hit 1 of 3: the combo ends there
    (nobody left to take hit 2) and the combat ends with the attackers' victory."""
    community, cid = await fighting(referee, hits=3, vit=TAJO_DAMAGE)
    attack = await community.use_skill(cid, "ana", "Tajo", ["bruno"])
    action_id = attack["action_id"]
    await window_of(community, cid, action_id, "bruno", 1)
    await answer(community, cid, "bruno", action_id, None)
    ended = await community.wait_combat(cid, lambda c: c["phase"] == "ended", what="the end")
    assert ended["result"] == {"winner": "attackers", "reason": "defeat"}
    events = await community.events_of(cid)
    resolved = [e["data"] for e in of_type(events, "action.resolved")]
    assert [r["hit"] for r in resolved] == [1]
    assert resolved[0]["results"][0]["down"] is True
    assert not [e for e in of_type(events, "reaction.requested") if e["data"]["hit"] > 1]
    assert_no_event_twice(events)


async def test_a_combo_goes_on_against_the_target_left_standing(referee: Referee) -> None:
    """umh 4.1.1.2 / 8.1.1.1.1: a 2-hit combo on bruno (VIT 100) and carla: bruno falls at
    hit 1, hit 2 opens carla's window only, and the combat goes on (carla still fights)."""
    community, cid = await against_two(referee, hits=2, bruno=TAJO_DAMAGE)
    attack = await community.use_skill(cid, "ana", "Tajo", ["bruno", "carla"])
    action_id = attack["action_id"]
    await window_of(community, cid, action_id, "bruno", 1)
    await answer(community, cid, "bruno", action_id, None)
    await answer(community, cid, "carla", action_id, None)
    combat = await window_of(community, cid, action_id, "carla", 2)
    assert [w["reactor"] for w in combat["pending_reactions"]] == ["carla"]
    await answer(community, cid, "carla", action_id, None)

    resolved = await resolved_hits(community, cid, action_id, 2)
    assert_each_hit_once(resolved, 2)
    rows = {row["target"]: row for row in resolved[1]["results"]}
    assert rows["bruno"]["already_down"] and rows["bruno"]["damage"] == 0, rows
    assert rows["carla"]["damage"] > 0, rows
    combat = await resumed_turn(community, cid, "ana")
    assert combat["phase"] == "fighting"
    assert combat["participants"]["bruno"]["status"] == "down"
    assert combat["participants"]["carla"]["vit"] == 1000 - damage_to(resolved, "carla")
    assert_no_event_twice(await community.events_of(cid))
