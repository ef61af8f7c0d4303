"""Clocks in the chain: the defense windows of every target pause the attacker's clock until the
last one is answered (umh 2.4.2, A-24); a disconnected player keeps his turns running and
is out after the grace (umh 4.3.3, A-58)."""

from __future__ import annotations

from tests.support.play import error_of, of_type
from tests.support.steps import act_as, wait_result
from tests.support.table import ChainReferee


async def test_two_windows_keep_the_clock_paused_until_the_last_answer(
    referee: ChainReferee,
) -> None:
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 3, "defense_seconds": 30}
    )
    for character, vel in (("ana", 7), ("bruno", 5), ("carla", 4)):
        await community.register(character, vel=vel)
    combat = await community.start_attack("ana", ["bruno", "carla"], "Puño")
    cid = combat["id"]
    for window in combat["pending_reactions"]:
        await community.react(cid, window["reactor"], window["action_id"], None)
    await community.wait_turn(cid, "ana", 1)

    attack = await community.act_ok(
        cid, {"type": "skill", "actor": "ana", "skill": "Puño", "targets": ["bruno", "carla"]}
    )
    action_id = attack["action_id"]
    paused = attack["combat"]["turn"]["paused_remaining"]
    assert attack["combat"]["turn"]["deadline"] is None and 0 < paused <= 3
    windows = attack["combat"]["pending_reactions"]
    assert [(w["reactor"], w["hit"], w["hits"]) for w in windows] == [
        ("bruno", 1, 1),
        ("carla", 1, 1),
    ]

    # Nobody else acts while a window is open (umh 2.4.2).
    waiting = await community.act(cid, {"type": "pass_turn", "actor": "ana"})
    assert error_of(waiting, 422, "reaction_pending")["rule"] == "umh 2.4.2"

    # One target answered: the other window still holds the clock.
    defended = await community.react(cid, "bruno", action_id, "Bloqueo")
    assert defended["combat"]["participants"]["bruno"]["pa"] == 9
    still = await community.combat(cid)
    assert still["turn"]["paused_remaining"] == paused and still["turn"]["deadline"] is None
    assert [w["reactor"] for w in still["pending_reactions"]] == ["carla"]

    # The last answer: resolution, then the clock resumes with what it had left.
    await community.react(cid, "carla", action_id, None)
    resumed = await community.wait_event(cid, "turn.resumed")
    assert resumed["data"]["actor"] == "ana"
    after = await community.combat(cid)
    assert after["turn"]["paused_remaining"] is None and after["turn"]["deadline"] is not None
    assert after["pending_reactions"] == []
    timed_out = await community.wait_event(cid, "turn.timed_out", lambda d: d["actor"] == "ana")
    assert timed_out["data"]["round"] == 1
    events = await community.events_of(cid)
    declared = [e["id"] for e in of_type(events, "action.declared")][-1]
    ids = [e["id"] for e in events]
    assert ids.index(timed_out["id"]) > ids.index(resumed["id"]) > ids.index(declared)


async def test_a_disconnection_past_the_grace_ends_the_combat(referee: ChainReferee) -> None:
    community = await referee.new_community(
        timers={
            "preparation_seconds": 1,
            "turn_seconds": 1,
            "defense_seconds": 30,
            "disconnect_seconds": 3,
        }
    )
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)

    gone = await act_as(community, cid, "disconnect", "bruno")
    bruno = gone["combat"]["participants"]["bruno"]
    assert bruno["status"] == "disconnected"
    assert bruno["disconnected"]["deadline"] is not None and not bruno["disconnected"]["out"]
    kinds = [t["kind"] for t in gone["combat"]["timers"]]
    assert "disconnect" in kinds
    refused = await community.act(cid, {"type": "pass_turn", "actor": "bruno"})
    assert error_of(refused, 422, "character_down")["rule"] == "umh 4.3.3"

    # His turns still come and time out meanwhile; after 3 s he is out: his side,
    # with nobody left, loses (umh 4.3.3).
    await community.wait_event(cid, "turn.timed_out", lambda d: d["actor"] == "bruno")
    result = await wait_result(community, cid)
    assert result["winner"] == "attackers" and result["reason"] == "disconnected"
    events = await community.events_of(cid)
    (ended,) = of_type(events, "combat.ended")
    assert ended["data"]["participants"]["bruno"]["status"] == "disconnected"


async def test_reconnecting_within_the_grace_keeps_him_in(referee: ChainReferee) -> None:
    community = await referee.new_community(
        timers={"preparation_seconds": 1, "turn_seconds": 30, "disconnect_seconds": 30}
    )
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    await act_as(community, cid, "disconnect", "bruno")
    back = await act_as(community, cid, "reconnect", "bruno")
    assert back["combat"]["participants"]["bruno"]["status"] == "active"
    assert [t["kind"] for t in back["combat"]["timers"]] == ["turn"]
