"""umh 4.1.7 in the chain (seed 000, line 138): whoever lost VIT or received an effect keeps
it after the combat, into his next one.

ana hits bruno (VIT 300) in a first combat that ends by a pact (4.1.1.3); services/states
keeps what bruno ends with (his history says it, rule umh 4.1.7) and his next combat starts
with it. An annulled combat counts nothing (4.2.4); a moderator clears or sets what he
carries; a community may let the VIT heal after a while.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import Community, expect, of_type
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive
from tests.support.steps import (
    act_as,
    act_or_skip,
    history_of,
    join,
    register_with,
    set_aftermath,
    wait_result,
    wait_status,
)
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
CUT = {**offensive("Tajo", damage=160), "reach": 10}
MAIM = {
    **offensive("Mutilar", damage=10),
    "reach": 10,
    "effects": [{"kind": "state", "type": "amputacion", "limb": "pierna"}],
}


async def hit_in_a_combat(community: Community[Any], skill: str) -> str:
    """ana starts a challenge on bruno and hits him once with ``skill`` (no defense)."""
    cid = str((await community.start_challenge("ana", "bruno"))["id"])
    await act_as(community, cid, "ready", "ana")
    await act_as(community, cid, "ready", "bruno")
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", skill, ["bruno"])
    await community.react(cid, "bruno", used["action_id"], None)
    await community.wait_combat(cid, lambda c: not c["pending_reactions"], what=f"{skill} done")
    return cid


async def pact(community: Community[Any], cid: str) -> None:
    """umh 4.1.1.3: both sides agree to stop."""
    await act_as(community, cid, "pact", "ana")
    await act_as(community, cid, "pact", "bruno")
    assert (await wait_result(community, cid))["reason"] == "pact"


async def next_combat(community: Community[Any], rival: str = "ana") -> JSON:
    """bruno challenges ``rival`` (which ends his own immunity from challenges, 4.2.1), once
    resolution has entered everyone (his VIT and effects shown)."""
    started = await community.start_challenge("bruno", rival)
    return await community.wait_combat(
        started["id"],
        lambda c: c["participants"]["bruno"].get("vit") is not None,
        what="resolution's condition",
    )


async def fighters(referee: ChainReferee) -> Community[Any]:
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, CUT, MAIM])
    await register_with(community, "bruno", vel=5, vit=300)
    await register_with(community, "carla", vel=4)
    return community


async def test_4_1_7_vit_lost_is_kept_into_the_next_combat(referee: ChainReferee) -> None:
    """Seed 000 l.138: bruno ends a pact at 140/300 VIT and starts the next combat at 140."""
    community = await fighters(referee)
    first = await hit_in_a_combat(community, "Tajo")
    await pact(community, first)

    status = await wait_status(community, "bruno", lambda s: bool(s["carried"]), what="carried")
    carried = status["carried"]
    assert (carried["combat_id"], carried["vit"], carried["vit_max"]) == (first, 140, 300)
    assert (carried["effects"], carried["recovers_at"]) == ([], None)
    (entry,) = [e for e in await history_of(community, "bruno") if e["change"] == "carried"]
    assert (entry["rule"], entry["reason"], entry["vit"]) == ("umh 4.1.7", "pact", 140)
    assert (await community.status("ana"))["carried"] is None  # ana lost nothing

    combat = await next_combat(community)
    bruno = combat["participants"]["bruno"]
    assert (bruno["vit"], bruno["vit_max"]) == (140, 300)
    assert combat["participants"]["ana"]["vit"] == 300


async def test_4_1_7_he_joins_a_combat_with_what_he_carries(referee: ChainReferee) -> None:
    """Seed 000 l.138 with 1.2.4: bruno, at 140/300 after a pact, joins carla's combat at 140."""
    community = await fighters(referee)
    await pact(community, await hit_in_a_combat(community, "Tajo"))
    await wait_status(community, "bruno", lambda s: bool(s["carried"]), what="carried")
    cid = (await community.start_challenge("carla", "ana"))["id"]
    await join(community, cid, "bruno", side="defenders", via="llamada_de_auxilio")
    combat = await community.wait_combat(
        cid,
        lambda c: c["participants"].get("bruno", {}).get("vit") is not None,
        what="bruno entered by resolution",
    )
    assert (combat["participants"]["bruno"]["vit"], combat["participants"]["ana"]["vit"]) == (
        140,
        300,
    )


async def test_4_1_7_a_lasting_effect_is_on_him_at_the_next_start(referee: ChainReferee) -> None:
    """Seed 000 l.138 with 11.5.5: an amputated leg stays after the combat (VEL halved)."""
    community = await fighters(referee)
    first = await hit_in_a_combat(community, "Mutilar")
    await pact(community, first)
    status = await wait_status(community, "bruno", lambda s: bool(s["carried"]), what="carried")
    (effect,) = status["carried"]["effects"]
    assert (effect["type"], effect["limb"]) == ("amputacion", "pierna")
    assert effect["actions_left"] is None  # umh 11.5.5: until healed

    combat = await next_combat(community)
    bruno = combat["participants"]["bruno"]
    assert [(e["type"], e["limb"]) for e in bruno["effects"]] == [("amputacion", "pierna")]
    assert bruno["vit"] == 290
    events = await community.events_of(combat["id"])
    (applied,) = of_type(events, "effect.applied")
    assert applied["data"]["from_last_combat"] is True
    assert applied["data"]["is_state"] is False  # not received here: no 4.2.1 immunity


async def test_4_1_7_an_annulled_combat_carries_nothing(referee: ChainReferee) -> None:
    """umh 4.2.4: bruno carries 140 from a pact; hit again in an annulled combat, he still
    carries 140 (the annulled one counts nothing)."""
    community = await fighters(referee)
    await pact(community, await hit_in_a_combat(community, "Tajo"))
    await wait_status(community, "bruno", lambda s: bool(s["carried"]), what="carried")

    annulled = await hit_in_a_combat(community, "Mutilar")
    await act_or_skip(community, annulled, {"type": "annul", "actor": "ana", "reason": "error"})
    assert (await wait_result(community, annulled))["reason"] == "annulled"
    await wait_status(community, "bruno", lambda s: s["in_combat"] is None, what="out")
    carried = (await community.status("bruno"))["carried"]
    assert (carried["vit"], carried["effects"]) == (140, [])
    # ana is immune too after the annulment (4.2.4): bruno challenges carla
    assert (await next_combat(community, "carla"))["participants"]["bruno"]["vit"] == 140


@pytest.mark.parametrize(
    ("body", "vit_next"),
    [
        pytest.param({"lift": True}, 300, id="test_4_1_7_moderator_clears_it"),
        pytest.param({"lift": True, "key": "vit"}, 300, id="test_4_1_7_moderator_heals_the_vit"),
        pytest.param({"vit": 200}, 200, id="test_4_1_7_moderator_sets_the_vit"),
    ],
)
async def test_4_1_7_a_moderator_adjusts_what_he_carries(
    referee: ChainReferee, body: JSON, vit_next: int
) -> None:
    community = await fighters(referee)
    await pact(community, await hit_in_a_combat(community, "Tajo"))
    await wait_status(community, "bruno", lambda s: bool(s["carried"]), what="carried")

    adjust = {"kind": "carried", "reason": "descansó en la posada", **body}
    answer = await community.client.post("/v1/characters/bruno/status/adjust", json=adjust)
    answered = expect(answer, 200).json()
    (event,) = answered["events"]
    assert (event["type"], event["data"]["kind"]) == ("status.adjusted", "carried")
    assert event["data"]["reason"] == "descansó en la posada"
    carried = answered["status"]["carried"]
    assert (carried["vit"] if carried else 300) == vit_next
    assert (await next_combat(community))["participants"]["bruno"]["vit"] == vit_next


async def test_4_1_7_nothing_to_adjust_is_refused(referee: ChainReferee) -> None:
    community = await fighters(referee)
    adjust = {"kind": "carried", "lift": True, "reason": "nada"}
    answer = await community.client.post("/v1/characters/bruno/status/adjust", json=adjust)
    assert expect(answer, 422).json()["error"]["code"] == "no_such_state"
    wrong = {"kind": "immunity", "vit": 10, "reason": "nada"}
    answer = await community.client.post("/v1/characters/bruno/status/adjust", json=wrong)
    expect(answer, 422)


async def test_4_1_7_the_vit_heals_after_the_recovery_setting(referee: ChainReferee) -> None:
    """``aftermath.carried_vit_recovery_seconds``: the kept VIT heals whole after a while."""
    community = await fighters(referee)
    await set_aftermath(community, carried_vit_recovery_seconds=1)
    await pact(community, await hit_in_a_combat(community, "Tajo"))
    status = await wait_status(community, "bruno", lambda s: bool(s["carried"]), what="carried")
    assert status["carried"]["recovers_at"] is not None
    await wait_status(community, "bruno", lambda s: s["carried"] is None, what="healed")
    changes = [e["change"] for e in await history_of(community, "bruno")]
    assert changes[-1] == "carried_vit_recovered"
