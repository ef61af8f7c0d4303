"""Joining a running combat in the chain (umh 1.2.4, 1.2.4.1, 1.2.5, 2.2.2): IRRUMPIR with its
veto window as a pending join, the majority veto, LLAMADA DE AUXILIO, slots spent for good.

The veto window lasts as long as a defense window (``defense_seconds``, 2 s here); every
wait is "until this event arrives or a timeout".
"""

from __future__ import annotations

from tests.support.play import error_of, of_type, types_of
from tests.support.steps import join, veto
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": 2}


async def test_irrumpir_vetoed_by_the_side_and_irrumpir_let_in(referee: ChainReferee) -> None:
    community = await referee.new_community(timers=TIMERS)
    for character, vel in (("ana", 6), ("bruno", 5), ("carla", 4), ("dani", 7)):
        await community.register(character, vel=vel)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)

    # carla bursts in on bruno's side: a pending join, visible with its deadline.
    requested = await join(community, cid, "carla")
    assert types_of(requested["events"]) == ["join.requested"]
    (pending,) = requested["combat"]["pending_joins"]
    assert (pending["joiner"], pending["side"], pending["vetoes_needed"]) == (
        "carla",
        "defenders",
        1,
    )
    assert pending["deadline"] is not None
    assert requested["combat"]["slots_left"]["defenders"] == 1  # her place is held
    assert "carla" not in requested["combat"]["participants"]

    # bruno is the whole side: his veto is a majority (umh 1.2.4.1, A-59).
    outsider = await community.act(cid, {"type": "veto_join", "actor": "ana", "joiner": "carla"})
    assert error_of(outsider, 422, "deny_not_allowed")["rule"] == "umh 1.2.4.1"
    vetoed = await veto(community, cid, "bruno", "carla")
    assert types_of(vetoed["events"]) == ["join.veto_cast", "join.vetoed"]
    assert vetoed["combat"]["pending_joins"] == []
    assert vetoed["combat"]["slots_left"]["defenders"] == 2

    # dani bursts in on ana's side; nobody vetoes: he enters when the window closes and
    # plays at the end of this round (umh 2.2.2), his place spent for good (1.2.5).
    await join(community, cid, "dani", side="attackers")
    joined = await community.wait_event(cid, "combatant.joined", lambda d: d["character"] == "dani")
    assert (joined["data"]["via"], joined["data"]["side"]) == ("irrumpir", "attackers")
    assert joined["data"]["sheet"]["name"] == "Dani"
    combat = await community.wait_combat(
        cid, lambda c: "dani" in c["participants"], what="dani in the combat"
    )
    assert combat["turn_order"] == ["ana", "bruno", "dani"]
    assert combat["slots_left"] == {"attackers": 1, "defenders": 2}
    assert combat["participants"]["dani"]["joined"]["late"] is True

    # A late joiner had no preparation round (umh 1.3.4).
    equip = await community.act(cid, {"type": "equip", "actor": "dani", "item": "Escudo"})
    assert error_of(equip, 422, "no_prep_for_late_joiner")["rule"] == "umh 1.3.4"


async def test_llamada_de_auxilio_enters_at_once_and_cannot_be_vetoed(
    referee: ChainReferee,
) -> None:
    community = await referee.new_community(timers=TIMERS)
    for character in ("ana", "bruno", "carla"):
        await community.register(character)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)

    called = await join(community, cid, "carla", via="llamada_de_auxilio")
    (event,) = of_type(called["events"], "combatant.joined")
    assert event["data"]["via"] == "llamada_de_auxilio"
    assert called["combat"]["sides"]["defenders"] == ["bruno", "carla"]
    refused = await community.act(cid, {"type": "veto_join", "actor": "bruno", "joiner": "carla"})
    assert error_of(refused, 422, "deny_not_allowed")["rule"] == "umh 1.2.4.1"
    twice = await community.act(
        cid, {"type": "join", "actor": "carla", "side": "defenders", "via": "irrumpir"}
    )
    error_of(twice, 422, "duplicate_participant")
