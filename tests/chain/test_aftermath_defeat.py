"""The aftermath of a defeat in the chain: vigor lost (umh 4.1.4) and recovered all at
once when the recovery time is over (4.1.6, a setting), the general requirement (4.4.1), the
character's history, and a combat requirement asked for (4.4.2)."""

from __future__ import annotations

from tests.support.play import challenge_body, error_of, expect, unique
from tests.support.sheets import JSON, offensive
from tests.support.steps import history_of, knock_out, register_with, set_aftermath, wait_status
from tests.support.table import ChainReferee

KO = offensive("Golpe", damage=1000, pa=3)


async def test_defeat_costs_vigor_that_comes_back_on_the_stream(referee: ChainReferee) -> None:
    community = await referee.new_community()
    await set_aftermath(community, vigor_recovery_seconds=2)
    await register_with(community, "ana", vel=6, skills=[KO])
    await register_with(community, "bruno", vel=5, skills=[KO])
    room = unique("room")
    combat = await community.start_challenge("ana", "bruno", room=room)
    await knock_out(community, combat["id"], "ana", "bruno", "Golpe")

    lost = await wait_status(community, "bruno", lambda s: s["vigor_lost"] == 1, what="-1 vigor")
    assert lost["in_combat"] is None
    assert lost["vigor_recovers_at"] is not None
    for character in ("ana", "bruno"):
        status = await wait_status(
            community, character, lambda s: bool(s["requirements_earned"]), what="a requirement"
        )
        (earned,) = status["requirements_earned"]
        assert (earned["combat_id"], earned["kind"]) == (combat["id"], "general")

    # umh 4.1.6: the recovery timer fires and the stream says so.
    received = await referee.stream(
        community,
        room=room,
        until=lambda got: any(s.event == "vigor.recovered" for s in got),
        within=15,
    )
    applied = [s.data["data"] for s in received if s.event == "aftermath.applied"]
    assert {"character": "bruno", "change": "vigor_lost", "vigor_lost": 1}.items() <= applied[
        [a["change"] for a in applied].index("vigor_lost")
    ].items()
    (recovered,) = [s.data for s in received if s.event == "vigor.recovered"]
    assert recovered["data"]["character"] == "bruno"
    assert (recovered["data"]["recovered"], recovered["data"]["rule"]) == (1, "umh 4.1.6")
    assert (await community.status("bruno"))["vigor_lost"] == 0

    changes = [entry["change"] for entry in await history_of(community, "bruno")]
    assert changes == [
        "combat_started",
        "combat_ended",
        "vigor_lost",
        "requirement",
        "carried",  # umh 4.1.7: he ended at 0 VIT, keeps 1 into his next combat
        "vigor_recovered",
    ]


async def test_a_profile_requirement_once_per_combat(referee: ChainReferee) -> None:
    community = await referee.new_community()
    await register_with(community, "ana", vel=6, skills=[KO])
    await register_with(community, "bruno", vel=5, skills=[KO])
    combat = await community.start_challenge("ana", "bruno")
    cid = combat["id"]
    path = f"/v1/combats/{cid}/requirements"

    running = await community.client.post(
        path, json={"character": "ana", "kind": "profile", "name": "Espadachín"}
    )
    assert error_of(running, 422, "wrong_phase")["rule"] == "umh 4.1.3"

    await knock_out(community, cid, "ana", "bruno", "Golpe")
    await wait_status(community, "ana", lambda s: bool(s["requirements_earned"]), what="general")
    body = {"character": "ana", "kind": "profile", "name": "Espadachín"}
    answer: JSON = expect(await community.client.post(path, json=body), 200).json()
    (event,) = answer["events"]
    assert (event["type"], event["data"]["rule"]) == ("aftermath.applied", "umh 4.4.2")
    kinds = [(r["kind"], r["name"]) for r in answer["status"]["requirements_earned"]]
    assert kinds == [("general", None), ("profile", "Espadachín")]

    again = await community.client.post(path, json=body)
    assert error_of(again, 422, "requirement_already_earned")["rule"] == "umh 4.4.2"
    general = await community.client.post(path, json={"character": "ana", "kind": "general"})
    assert error_of(general, 422, "requirement_already_earned")["rule"] == "umh 4.4.1"
    stranger = await community.client.post(
        path, json={"character": "nadie", "kind": "profile", "name": "x"}
    )
    error_of(stranger, 422, "not_in_combat")


async def test_a_state_received_in_combat_makes_him_immune_to_challenges(
    referee: ChainReferee,
) -> None:
    """umh 4.2.1: bruno is made wet (a state) by a hit, then defeated: at the end he gets the
    immunity from challenges, and a challenge against him is refused (1.1.1.2)."""
    community = await referee.new_community()
    soak = {**offensive("Chapuzon", damage=10, pa=1), "natures": ["agua"]}
    soak["effects"] = [{"kind": "state", "type": "mojado", "actions": 3}]
    await register_with(community, "ana", vel=6, skills=[soak, KO])
    await register_with(community, "bruno", vel=5, skills=[KO])
    await register_with(community, "carla", vel=5, skills=[KO])
    combat = await community.start_challenge("ana", "bruno", room=unique("room"))
    cid = combat["id"]
    await community.wait_turn(cid, "ana", 1)
    attack = await community.use_skill(cid, "ana", "Chapuzon", ["bruno"])
    await community.react(cid, "bruno", attack["action_id"], None)
    await community.wait_event(cid, "effect.applied", lambda data: data["character"] == "bruno")
    await knock_out(community, cid, "ana", "bruno", "Golpe")

    status = await wait_status(
        community, "bruno", lambda s: s["immune_until"] is not None, what="immune"
    )
    assert status["in_combat"] is None
    immunity = next(e for e in await history_of(community, "bruno") if e["change"] == "immunity")
    assert (immunity["rule"], immunity["combat_id"]) == ("umh 4.2.1", cid)
    answer = await community.client.post("/v1/combats", json=challenge_body("carla", "bruno"))
    assert error_of(answer, 422, "target_challenge_immune")["rule"] == "umh 1.1.1.2"
    # ana received no state: she is not immune.
    assert (await community.status("ana"))["immune_until"] is None
