"""A flight in the chain (umh 4.2.2, 4.2.3, 4.2.3.1, 4.1.1.1.1; test vector T000-35): the
states it leaves, each ending on the stream when its (short) time is over."""

from __future__ import annotations

from tests.support.play import unique
from tests.support.sheets import JSON
from tests.support.steps import act_or_skip, history_of, set_aftermath, wait_status
from tests.support.table import ChainReferee

# A long preparation round: HUIR is used in it, without waiting for a turn.
SLOW_PREPARATION = {"preparation_seconds": 30, "turn_seconds": 30, "defense_seconds": 30}
EXPIRIES = ("immunity.expired", "room_ban.expired", "irrumpir_ban.expired", "flee_cooldown.expired")


async def test_flight_states_expire_on_the_stream(referee: ChainReferee) -> None:
    community = await referee.new_community(timers=SLOW_PREPARATION)
    await set_aftermath(
        community, immunity_seconds=1, flee_room_ban_seconds=2, flee_cooldown_seconds=2
    )
    for character in ("ana", "bruno"):
        await community.register(character)
    room = unique("room")
    combat = await community.start_challenge("ana", "bruno", room=room)
    fled: JSON = await act_or_skip(community, combat["id"], {"type": "flee", "actor": "bruno"})
    assert any(e["type"] == "combatant.fled" for e in fled["events"])

    received = await referee.stream(
        community,
        room=room,
        until=lambda got: {s.event for s in got} >= set(EXPIRIES),
        within=20,
    )
    applied = [s.data["data"] for s in received if s.event == "aftermath.applied"]
    bruno = {a["change"]: a for a in applied if a["character"] == "bruno"}
    assert set(bruno) >= {"immunity", "room_ban", "irrumpir_ban", "flee_cooldown"}
    assert bruno["immunity"]["rule"] == "umh 4.2.2"
    assert bruno["room_ban"]["room"] == room
    assert bruno["flee_cooldown"]["cooldown"] == "flee"
    for expiry in EXPIRIES:
        (event,) = [s.data for s in received if s.event == expiry]
        assert (event["data"]["character"], event["data"]["reason"]) == ("bruno", "elapsed")
        assert event["room"] == room

    status = await wait_status(
        community, "bruno", lambda s: s["in_combat"] is None, what="out of the combat"
    )
    assert status["immune_until"] is None
    assert status["room_bans"] == [] and status["intrude_banned_until"] is None
    assert status["cooldowns"] == {}
    changes = [e["change"] for e in await history_of(community, "bruno")]
    assert changes[:6] == [
        "combat_started",
        "immunity",
        "room_ban",
        "irrumpir_ban",
        "flee_cooldown",
        "combat_ended",
    ]
