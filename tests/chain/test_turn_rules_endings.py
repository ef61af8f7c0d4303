"""How a combat ends in the chain (umh 2.3.3.1 stalemate, 4.1.1.1 flight, 4.1.1.3 pact, 4.2.4
annulment): each one ``combat.ended`` with its reason for services/states."""

from __future__ import annotations

from tests.support.play import error_of, of_type
from tests.support.steps import act_as, wait_result
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 30, "defense_seconds": 30}


async def test_three_rounds_of_mutual_passing_are_a_stalemate(referee: ChainReferee) -> None:
    """umh 2.3.3.1 / A-89 / A-90: no offensive skill in three rounds: both sides lose."""
    community = await referee.new_community(timers=TIMERS)
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    for round_ in (1, 2, 3):
        await community.wait_turn(cid, "ana", round_)
        await community.use_skill(cid, "ana", "Concentración")  # supplementary: no attack
        await community.pass_turn(cid, "ana")
        last = await community.pass_turn(cid, "bruno")
        ended = of_type(last["events"], "round.ended")
        assert [e["data"]["stalemate_rounds"] for e in ended] == [round_]
    result = await wait_result(community, cid)
    assert (result["winner"], result["reason"]) == (None, "stalemate")
    events = await community.events_of(cid)
    (ended_event,) = of_type(events, "combat.ended")
    assert ended_event["data"]["reason"] == "stalemate"
    assert set(ended_event["data"]["participants"]) == {"ana", "bruno"}


async def test_flight_pact_and_annulment(referee: ChainReferee) -> None:
    community = await referee.new_community(timers=TIMERS)
    characters = (("ana", 6), ("bruno", 5), ("carla", 4), ("dani", 3), ("eva", 2), ("fede", 1))
    for character, vel in characters:
        await community.register(character, vel=vel)

    # HUIR in his own turn: counts as falling (umh 4.1.1.1); combatant.fled for states.
    fled_combat = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(fled_combat, "ana", 1)
    not_yet = await community.act(fled_combat, {"type": "flee", "actor": "bruno"})
    assert error_of(not_yet, 422, "not_your_turn")["rule"] == "umh 2.4.1"
    fled = await act_as(community, fled_combat, "flee", "ana")
    (event,) = of_type(fled["events"], "combatant.fled")
    assert (event["data"]["character"], event["data"]["profile"]) == ("ana", "basic")
    result = await wait_result(community, fled_combat)
    assert (result["winner"], result["reason"]) == ("defenders", "fled")

    # The agreed retreat: both sides send it (umh 4.1.1.3), offers visible meanwhile.
    pact_combat = (await community.start_challenge("carla", "dani"))["id"]
    await community.wait_turn(pact_combat, "carla", 1)
    offered = await act_as(community, pact_combat, "pact", "carla")
    assert offered["combat"]["pact_offers"] == ["carla"]
    await act_as(community, pact_combat, "pact", "dani")
    result = await wait_result(community, pact_combat)
    assert (result["winner"], result["reason"]) == (None, "pact")

    # A moderator annuls a combat (umh 4.2.4) with his reason (fresh characters: who fled
    # is immune for a while, umh 4.2.2).
    annulled = (await community.start_challenge("eva", "fede"))["id"]
    await community.wait_turn(annulled, "eva", 1)
    await community.act_ok(annulled, {"type": "annul", "actor": "mod", "reason": "trampas"})
    result = await wait_result(community, annulled)
    assert (result["winner"], result["reason"], result["annul_reason"]) == (
        None,
        "annulled",
        "trampas",
    )
