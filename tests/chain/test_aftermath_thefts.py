"""umh 4.2.5 in the chain (seed 000, line 146): an item stolen in combat is kept only from a
rival of equal or higher rank.

ana's skill Hurto can steal (``steals_items``); she states the theft with the ``steal``
action (``item.stolen``) and services/states decides at the end of the combat, in her
history (``aftermath.applied``, change ``theft``): kept or returned, with the rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import Community, error_of, of_type
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive, umh_sheet_with
from tests.support.steps import act_as, act_or_skip, history_of, register_sheet, wait_result
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
HURTO = {**offensive("Hurto", damage=10), "reach": 10, "steals_items": True}
STEAL: JSON = {
    "type": "steal",
    "actor": "ana",
    "skill": "Hurto",
    "target": "bruno",
    "item": "Espada corta",
}


async def fighters(referee: ChainReferee, ana_rank: int, bruno_rank: int) -> Community[Any]:
    community = await referee.new_community(timers=TIMERS)
    skills = [*DEFAULT_SKILLS, HURTO]
    await register_sheet(
        community, "ana", umh_sheet_with("Ana", skills=skills, stats={"rank": ana_rank})
    )
    await register_sheet(
        community,
        "bruno",
        umh_sheet_with("Bruno", skills=DEFAULT_SKILLS, stats={"rank": bruno_rank}),
    )
    return community


async def steal_in_a_combat(community: Community[Any]) -> str:
    """ana hits bruno with Hurto and states what it stole."""
    cid = str((await community.start_challenge("ana", "bruno"))["id"])
    await act_as(community, cid, "ready", "ana")
    await act_as(community, cid, "ready", "bruno")
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", "Hurto", ["bruno"])
    await community.react(cid, "bruno", used["action_id"], None)
    answer = await community.act_ok(cid, STEAL)
    (stolen,) = of_type(answer["events"], "item.stolen")
    assert stolen["data"] == {
        "character": "ana",
        "target": "bruno",
        "item": "Espada corta",
        "skill": "Hurto",
        "round": 1,
    }
    return cid


async def theft_of(community: Community[Any]) -> JSON:
    entries = [e for e in await history_of(community, "ana") if e["change"] == "theft"]
    assert len(entries) == 1, entries
    return entries[0]


@pytest.mark.parametrize(
    ("ana_rank", "bruno_rank", "kept", "reason"),
    [
        pytest.param(2, 2, True, "equal_or_higher_rank", id="test_4_2_5_kept_from_equal_rank"),
        pytest.param(2, 3, True, "equal_or_higher_rank", id="test_4_2_5_kept_from_higher_rank"),
        pytest.param(3, 2, False, "lower_rank", id="test_4_2_5_returned_to_lower_rank"),
    ],
)
async def test_4_2_5_a_stolen_item_is_kept_only_from_equal_or_higher_rank(
    referee: ChainReferee, ana_rank: int, bruno_rank: int, kept: bool, reason: str
) -> None:
    community = await fighters(referee, ana_rank, bruno_rank)
    cid = await steal_in_a_combat(community)
    await act_as(community, cid, "pact", "ana")
    await act_as(community, cid, "pact", "bruno")
    assert (await wait_result(community, cid))["reason"] == "pact"

    theft = await theft_of(community)
    assert (theft["rule"], theft["kept"], theft["reason"]) == ("umh 4.2.5", kept, reason)
    assert (theft["item"], theft["target"], theft["combat_id"]) == ("Espada corta", "bruno", cid)
    assert (theft["thief_rank"], theft["target_rank"]) == (ana_rank, bruno_rank)


async def test_4_2_5_an_annulled_combat_returns_everything(referee: ChainReferee) -> None:
    """umh 4.2.4: an annulled combat counts nothing, the item goes back whatever the ranks."""
    community = await fighters(referee, 2, 5)
    cid = await steal_in_a_combat(community)
    await act_or_skip(community, cid, {"type": "annul", "actor": "ana", "reason": "error"})
    assert (await wait_result(community, cid))["reason"] == "annulled"
    theft = await theft_of(community)
    assert (theft["rule"], theft["kept"], theft["reason"]) == ("umh 4.2.4", False, "annulled")


async def test_4_2_5_only_a_skill_that_steals_from_an_opponent(referee: ChainReferee) -> None:
    community = await fighters(referee, 2, 2)
    cid = str((await community.start_challenge("ana", "bruno"))["id"])
    not_a_thief = await community.act(cid, {**STEAL, "skill": "Puño"})
    assert error_of(not_a_thief, 422, "cannot_steal")["rule"] == "umh 4.2.5"
    unknown = await community.act(cid, {**STEAL, "skill": "Ganzúa"})
    assert error_of(unknown, 422, "unknown_skill")["rule"] == "umh 4.2.5"
    herself = await community.act(cid, {**STEAL, "target": "ana"})
    assert error_of(herself, 422, "invalid_target")["rule"] == "umh 4.2.5"
