"""An annulled combat in the chain (umh 4.2.4): everyone involved is immune for a while
(a 1-second setting here), loses no vigor and earns nothing; the immunity ends on the stream."""

from __future__ import annotations

from tests.support.play import challenge_body, error_of, unique
from tests.support.steps import act_or_skip, history_of, set_aftermath, wait_status
from tests.support.table import ChainReferee


async def test_an_annulled_combat_leaves_everyone_immune_for_a_while(referee: ChainReferee) -> None:
    community = await referee.new_community()
    await set_aftermath(community, immunity_seconds=2)
    for character in ("ana", "bruno", "carla"):
        await community.register(character)
    room = unique("room")
    combat = await community.start_challenge("ana", "bruno", room=room)
    await act_or_skip(community, combat["id"], {"type": "annul", "actor": "ana", "reason": "error"})

    status = await wait_status(
        community, "bruno", lambda s: s["immune_until"] is not None, what="immune", within=5
    )
    assert (status["vigor_lost"], status["requirements_earned"]) == (0, [])
    # umh 1.1.1.2: while immune, nobody challenges him (the window is 2 s: tolerate its end).
    answer = await community.client.post("/v1/combats", json=challenge_body("carla", "bruno"))
    if answer.status_code != 201:
        assert error_of(answer, 422, "target_challenge_immune")["rule"] == "umh 1.1.1.2"

    received = await referee.stream(
        community,
        room=room,
        until=lambda got: (
            {s.data["data"].get("character") for s in got if s.event == "immunity.expired"}
            >= {"ana", "bruno"}
        ),
        within=15,
    )
    immunities = [
        s.data["data"]
        for s in received
        if s.event == "aftermath.applied" and s.data["data"]["change"] == "immunity"
    ]
    assert {(i["character"], i["rule"], i["reason"]) for i in immunities} == {
        ("ana", "umh 4.2.4", "annulled"),
        ("bruno", "umh 4.2.4", "annulled"),
    }
    for character in ("ana", "bruno"):
        changes = [e["change"] for e in await history_of(community, character)]
        assert "vigor_lost" not in changes and "requirement" not in changes
        assert changes[-1] == "immunity_expired" or "immunity_expired" in changes
