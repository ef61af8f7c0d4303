"""services/states' gates in the chain after a flight (umh 1.1.1.2, 4.2.2, 4.2.3, 4.2.3.1,
4.1.1.1.1): a start refused while the target is immune, joins refused while room-locked,
IRRUMPIR-locked, into the fled combat or while in another combat, a flight on cooldown."""

from __future__ import annotations

from tests.support.play import challenge_body, error_of, unique
from tests.support.steps import act_or_skip, wait_status
from tests.support.table import ChainReferee

SLOW_PREPARATION = {"preparation_seconds": 30, "turn_seconds": 30, "defense_seconds": 30}


async def test_gates_after_a_flight(referee: ChainReferee) -> None:
    community = await referee.new_community(timers=SLOW_PREPARATION)
    for character in ("ana", "bruno", "carla", "dario", "eva", "fede"):
        await community.register(character)
    plaza = unique("plaza")
    fled_from = await community.start_challenge("ana", "bruno", room=plaza)
    await act_or_skip(community, fled_from["id"], {"type": "flee", "actor": "bruno"})
    await wait_status(community, "bruno", lambda s: bool(s["room_bans"]), what="a room ban")

    # umh 1.1.1.2 + 4.2.2: nobody may challenge him for 5 minutes.
    immune = await community.client.post("/v1/combats", json=challenge_body("eva", "bruno"))
    refused = error_of(immune, 422, "target_challenge_immune")
    assert refused["rule"] == "umh 1.1.1.2"
    assert (refused["details"]["character"], refused["details"]["until"]) == (
        "bruno",
        (await community.status("bruno"))["immune_until"],
    )

    # umh 4.2.3: not back in that room for 15 minutes, for a start or a join.
    here = await community.client.post(
        "/v1/combats", json=challenge_body("bruno", "eva", room=plaza)
    )
    assert error_of(here, 422, "room_locked")["rule"] == "umh 4.2.3"
    same_room = await community.start_challenge("carla", "dario", room=plaza)
    call = {"type": "join", "actor": "bruno", "side": "attackers", "via": "llamada_de_auxilio"}
    locked = await community.act(same_room["id"], call)
    assert error_of(locked, 422, "room_locked")["rule"] == "umh 4.2.3"

    # umh 4.2.3.1: nor IRRUMPIR into any other combat meanwhile.
    elsewhere = await community.start_challenge("eva", "fede")
    irrumpir = {"type": "join", "actor": "bruno", "side": "attackers", "via": "irrumpir"}
    intrude = await community.act(elsewhere["id"], irrumpir)
    assert error_of(intrude, 422, "irrumpir_locked")["rule"] == "umh 4.2.3.1"

    # umh 4.2.3: never the combat he fled, on either side.
    rejoin = await community.act(fled_from["id"], {**call, "side": "defenders"})
    assert error_of(rejoin, 422, "cannot_rejoin_fled_combat")["rule"] == "umh 4.2.3"

    # A character fights one combat at a time.
    busy = await community.act(elsewhere["id"], {**call, "actor": "carla"})
    error_of(busy, 422, "already_in_combat")

    # umh 4.1.1.1.1: in a new combat of his (another room), his flight is on cooldown.
    again = await community.start_challenge("bruno", "ana")
    cooldown = await community.act(again["id"], {"type": "flee", "actor": "bruno"})
    assert error_of(cooldown, 422, "flee_on_cooldown")["rule"] == "umh 4.1.1.1.1"
    # Challenging someone was an offensive act: his immunity is over (umh 4.2.2, A-56).
    await wait_status(community, "bruno", lambda s: s["immune_until"] is None, what="no immunity")


async def test_a_join_into_a_second_combat_is_refused(referee: ChainReferee) -> None:
    community = await referee.new_community()
    for character in ("ana", "bruno", "carla", "dario"):
        await community.register(character)
    first = await community.start_challenge("ana", "bruno")
    await community.start_challenge("carla", "dario")
    join = {"type": "join", "actor": "carla", "side": "attackers", "via": "irrumpir"}
    refused = error_of(await community.act(first["id"], join), 422, "already_in_combat")
    assert refused["details"]["character"] == "carla"
    combat = await community.combat(first["id"])
    assert set(combat["participants"]) == {"ana", "bruno"}
