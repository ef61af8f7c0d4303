"""The readings of docs/rules.md 6.1 marked "config" in the chain: a community switches them with
``PATCH /v1/settings {"umh": {"readings": {...}}}``; each combat takes a snapshot of its
community's settings when it starts, so a later change never alters a running combat.

Two readings show: A-19 (a 1-round cooldown used in round 1 is usable again in round 3,
or in round 2 counting the round of use) and A-99 (everyone ready ends the preparation
round early, or it runs its whole time).
"""

from __future__ import annotations

from datetime import datetime

from tests.support.play import error_of, expect, of_type
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive
from tests.support.steps import act_as
from tests.support.table import ChainCommunity, ChainReferee

TIMERS = {"preparation_seconds": 3, "turn_seconds": 30, "defense_seconds": 30}
COOLDOWN = "Tajo"
OTHER_READINGS: JSON = {"cooldown_from_next_round": False, "preparation_ends_when_ready": False}


async def set_readings(community: ChainCommunity, readings: JSON) -> JSON:
    answer = await community.client.patch("/v1/settings", json={"umh": {"readings": readings}})
    settings: JSON = expect(answer, 200).json()
    assert all(settings["umh"]["readings"][k] == v for k, v in readings.items()), settings
    return settings


async def fighters(community: ChainCommunity) -> None:
    """ana (faster, so she opens rounds 1 and 2) has a skill with a 1-round cooldown."""
    await community.register("ana", vel=7, skills=[*DEFAULT_SKILLS, cooldown_skill()])
    await community.register("bruno", vel=5)


def cooldown_skill() -> JSON:
    return {**offensive(COOLDOWN), "cooldown_rounds": 1}


async def both_ready(community: ChainCommunity, cid: str) -> JSON:
    await act_as(community, cid, "ready", "ana")
    answer = await act_as(community, cid, "ready", "bruno")
    combat: JSON = answer["combat"]
    return combat


async def cooldown_in_round_2(community: ChainCommunity, cid: str) -> JSON:
    """ana uses Tajo in round 1 (bruno takes it), both pass; ana's turn of round 2."""
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", COOLDOWN, ["bruno"])
    await community.react(cid, "bruno", used["action_id"], None)
    await community.wait_combat(
        cid,
        lambda c: c["turn"]["actor"] == "ana" and not c["pending_reactions"],
        what="ana's turn again once Tajo is resolved",
    )
    await community.pass_turn(cid, "ana")
    await community.pass_turn(cid, "bruno")
    return await community.wait_turn(cid, "ana", 2)


async def test_the_community_readings_referee_its_new_combats(referee: ChainReferee) -> None:
    """A-99 off: both ready, the preparation round still runs out. A-19 r + n: Tajo used in
    round 1 is usable again in round 2."""
    community = await referee.new_community(timers=TIMERS)
    await set_readings(community, OTHER_READINGS)
    await fighters(community)
    cid = (await community.start_challenge("ana", "bruno"))["id"]

    combat = await both_ready(community, cid)
    assert combat["phase"] == "preparation", combat
    deadline = datetime.fromisoformat(combat["phase_deadline"])

    round_2 = await cooldown_in_round_2(community, cid)
    assert round_2["participants"]["ana"]["cooldowns"] == {COOLDOWN: 0}
    again = await community.use_skill(cid, "ana", COOLDOWN, ["bruno"])
    assert of_type(again["events"], "action.declared"), again["events"]
    events = await community.events_of(cid)
    changes = of_type(events, "combat.phase_changed")
    (fighting,) = [e for e in changes if e["data"]["to"] == "fighting"]
    assert datetime.fromisoformat(fighting["occurred_at"]) >= deadline  # it ran its whole time


async def test_changing_the_settings_does_not_change_a_running_combat(
    referee: ChainReferee,
) -> None:
    """The combat started with the recommended readings keeps them after the PATCH: both
    ready end the preparation round at once (A-99); Tajo is refused in round 2 (A-19)."""
    community = await referee.new_community(timers={**TIMERS, "preparation_seconds": 60})
    await fighters(community)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await set_readings(community, OTHER_READINGS)

    combat = await both_ready(community, cid)
    assert combat["phase"] == "fighting" and combat["round"] == 1, combat
    await cooldown_in_round_2(community, cid)
    refused = await community.act(
        cid, {"type": "skill", "actor": "ana", "skill": COOLDOWN, "targets": ["bruno"]}
    )
    error = error_of(refused, 422, "on_cooldown")
    assert (error["rule"], error["details"]["ready_round"]) == ("umh 2.3.4", 3)
