"""Post-combat effects and imprisonment in the chain (umh 4.1.2, 4.1.3, 4.5.1 - 4.5.4, T000-36),
the prisoner's challenge that frees him, and a moderator's adjustment with its reason."""

from __future__ import annotations

from tests.support.play import error_of, expect, unique
from tests.support.sheets import JSON, offensive
from tests.support.steps import history_of, knock_out, register_with, set_aftermath, wait_status
from tests.support.table import ChainCommunity, ChainReferee

KO = offensive("Golpe", damage=1000, pa=3)
FINISH = {
    "name": "Rematar",
    "tier": 1,
    "pa": 1,
    "type": "supplementary",
    "natures": ["fisica"],
    "post_combat": {"kind": "vigor", "vigor": 1},
}


async def post_combat(community: ChainCommunity, combat_id: str, body: JSON) -> JSON:
    answer = await community.client.post(f"/v1/combats/{combat_id}/post_combat", json=body)
    result: JSON = expect(answer, 200).json()
    return result


async def beaten_once(community: ChainCommunity) -> str:
    """ana (a cell, Rematar) beats bruno: he lost 1 vigor (umh 4.1.4)."""
    await register_with(community, "ana", vel=6, skills=[KO, FINISH], cell=True)
    await register_with(community, "bruno", vel=5, skills=[KO])
    for extra in ("carla", "dario", "eva"):
        await register_with(community, extra, vel=4, skills=[KO])
    combat = await community.start_challenge("ana", "bruno")
    await knock_out(community, combat["id"], "ana", "bruno", "Golpe")
    await wait_status(community, "bruno", lambda s: s["vigor_lost"] == 1, what="-1 vigor")
    return str(combat["id"])


async def test_imprisonment_and_the_prisoner_s_challenge(referee: ChainReferee) -> None:
    community = await referee.new_community()
    cid = await beaten_once(community)
    path = f"/v1/combats/{cid}/post_combat"

    # T000-36: one vigor lost is not enough to imprison him (umh 4.5.1).
    refused = await community.client.post(
        path, json={"actor": "ana", "target": "bruno", "cell": True}
    )
    assert error_of(refused, 422, "imprison_not_eligible")["rule"] == "umh 4.5.1"
    # umh 4.1.3: only the winner applies post-combat effects.
    loser = await community.client.post(
        path, json={"actor": "bruno", "target": "ana", "skill": "Rematar"}
    )
    assert error_of(loser, 422, "not_eligible_for_postcombat")["rule"] == "umh 4.1.3"

    finished = await post_combat(
        community, cid, {"actor": "ana", "target": "bruno", "skill": "Rematar"}
    )
    assert finished["status"]["vigor_lost"] == 2
    (event,) = finished["events"]
    assert (event["type"], event["data"]["change"]) == ("aftermath.applied", "vigor_lost")
    again = await community.client.post(
        path, json={"actor": "ana", "target": "bruno", "skill": "Rematar"}
    )
    assert error_of(again, 422, "postcombat_effect_stack")["rule"] == "umh 4.1.2"

    # Two vigor points lost and a cell: imprisoned for at most 72 hours (umh 4.5.1 - 4.5.2).
    jailed = await post_combat(community, cid, {"actor": "ana", "target": "bruno", "cell": True})
    assert jailed["status"]["imprisoned_until"] is not None
    (imprisoned,) = jailed["events"]
    assert imprisoned["data"]["captors"] == ["ana"]

    # The prisoner attacks nobody (4.5.2) and challenges at most three captors (4.5.4).
    attack = {
        "room": unique("room"),
        "ruleset": "umh",
        "attacker": "bruno",
        "defenders": ["ana"],
        "opening": {"kind": "skill", "skill": "Golpe", "targets": ["ana"]},
    }
    error_of(
        await community.client.post("/v1/combats", json=attack), 422, "prisoner_action_forbidden"
    )
    four = {
        **attack,
        "defenders": ["ana", "carla", "dario", "eva"],
        "opening": {"kind": "challenge"},
    }
    too_many = await community.client.post("/v1/combats", json=four)
    assert error_of(too_many, 422, "too_many_opponents")["rule"] == "umh 4.5.4"

    # His challenge against his captor: he wins and is free (T000-36).
    challenge = await community.start_challenge("bruno", "ana")
    await knock_out(community, challenge["id"], "bruno", "ana", "Golpe")
    free = await wait_status(
        community, "bruno", lambda s: s["imprisoned_until"] is None, what="freed"
    )
    assert free["in_combat"] is None
    freed = [
        e for e in await history_of(community, "bruno") if e["change"] == "imprisonment_expired"
    ]
    assert [(e["reason"], e["rule"]) for e in freed] == [("won_challenge", "umh 4.5.4")]


async def test_imprisonment_ends_on_the_stream_or_by_a_moderator(referee: ChainReferee) -> None:
    community = await referee.new_community()
    await set_aftermath(community, imprisonment_max_seconds=2)
    cid = await beaten_once(community)
    await post_combat(community, cid, {"actor": "ana", "target": "bruno", "skill": "Rematar"})
    jailed = await post_combat(community, cid, {"actor": "ana", "target": "bruno", "cell": True})
    assert jailed["status"]["imprisoned_until"] is not None

    received = await referee.stream(
        community,
        until=lambda got: any(s.event == "imprisonment.expired" for s in got),
        within=15,
    )
    (expired,) = [s.data["data"] for s in received if s.event == "imprisonment.expired"]
    assert (expired["character"], expired["reason"]) == ("bruno", "elapsed")
    assert (await community.status("bruno"))["imprisoned_until"] is None

    # A moderator gives back the vigor lost, with a reason; a frontend key may not.
    path = "/v1/characters/bruno/status/adjust"
    body = {"kind": "vigor", "lift": True, "reason": "sanción revisada"}
    frontend = community.referee.client(await community.key("frontend"))
    error_of(await frontend.post(path, json=body), 403, "forbidden")
    adjusted: JSON = expect(await community.client.post(path, json=body), 200).json()
    assert [e["type"] for e in adjusted["events"]] == ["vigor.recovered", "status.adjusted"]
    assert adjusted["status"]["vigor_lost"] == 0
    nothing = await community.client.post(path, json=body)
    error_of(nothing, 422, "no_such_state")
    last = (await history_of(community, "bruno"))[-1]
    assert (last["change"], last["reason"], last["kind"]) == (
        "moderated",
        "sanción revisada",
        "vigor",
    )
