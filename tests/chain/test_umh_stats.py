"""umh 2.6, 2.8 and 11.5.11 in the chain: increases and fear change the STATs a combat reads.

ana (VEL 6) keeps increases up on herself with supplementary skills; bruno (VEL 8) is the
faster. The combat view shows her STATs now, and round 2 is ordered by them (2.2.5). Fear
lowers VOL one tier (the sheet's ``vol_tiers``), to 1 at the lowest tier (A-45).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import error_of, of_type
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive, supplementary
from tests.support.steps import act_as, register_with
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}


def raising(name: str, stat: str, mode: str, figure: float) -> JSON:
    field = "percent" if mode == "tier" else "amount"
    increase = {"kind": "increase", "stat": stat, "mode": mode, field: figure, "actions": 5}
    return {**supplementary(name, pa=1), "effects": [increase]}


VEL_20 = raising("Prisa", "vel", "tier", 20)
VEL_50 = raising("Gran prisa", "vel", "tier", 50)
VEL_PLUS_2 = raising("Paso", "vel", "numeric", 2)
VEL_PLUS_1 = raising("Pasito", "vel", "numeric", 1)
FUE_25 = raising("Fuerza", "fue", "tier", 25)


async def fight(referee: ChainReferee, ana: dict[str, Any], bruno: dict[str, Any]) -> Any:
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", **ana)
    await register_with(community, "bruno", **bruno)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await act_as(community, cid, "ready", "ana")
    await act_as(community, cid, "ready", "bruno")
    await community.wait_turn(cid, "ana", 1)
    return community, cid


async def settled(community: Any, cid: str) -> JSON:
    combat: JSON = await community.wait_combat(
        cid, lambda c: not c["pending_reactions"], what="the skill resolved"
    )
    return combat


@pytest.mark.parametrize(
    ("skills", "stat", "expected", "first_in_round_2"),
    [
        pytest.param([VEL_20], "vel", 7, "bruno", id="umh-2.6.1-rounded-down-7.2-is-7"),
        pytest.param([VEL_20, VEL_50], "vel", 9, "ana", id="umh-2.8.1-only-the-best-tier"),
        pytest.param([VEL_PLUS_2, VEL_PLUS_1], "vel", 8, "ana", id="umh-2.8.2-best-number"),
        pytest.param([VEL_50, VEL_PLUS_2], "vel", 11, "ana", id="umh-2.8.3-tier-and-number"),
        pytest.param([FUE_25], "fue", 29, "bruno", id="umh-2.6.3-T000-28-xp-shop-last"),
    ],
)
async def test_2_8_increases_in_combat(
    referee: ChainReferee,
    skills: list[JSON],
    stat: str,
    expected: float,
    first_in_round_2: str,
) -> None:
    ana = {
        "vel": 6,
        "skills": [*DEFAULT_SKILLS, *skills],
        "stats": {"vit": 300, "vel": 6, "ref": 3, "vol": 2, "fue": 24, "rank": 2, "vigor": 5},
        "xp_shop": {"fue": 4},
    }
    community, cid = await fight(referee, ana, {"vel": 8})
    for skill in skills:
        used = await community.use_skill(cid, "ana", skill["name"], ["ana"])
        assert of_type(used["events"], "effect.applied") or of_type(
            used["events"], "action.resolved"
        )
    combat = await settled(community, cid)
    assert combat["participants"]["ana"]["stats"][stat] == expected, combat["participants"]
    await community.pass_turn(cid, "ana")
    await community.pass_turn(cid, "bruno")
    round_2 = await community.wait_turn(cid, first_in_round_2, 2)
    assert round_2["turn_order"][0] == first_in_round_2


def frightening() -> JSON:
    fear = {"kind": "state", "type": "miedo", "actions": 3}
    return {**offensive("Susto", damage=10), "effects": [fear]}


@pytest.mark.parametrize(
    ("vol", "tiers", "expected"),
    [
        pytest.param(12, [1, 5, 10], 5, id="T000-66-umh-11.5.11-one-tier-down"),
        pytest.param(3, [1, 5, 10], 1, id="T000-66-umh-11.5.11-lowest-tier-is-1"),
        pytest.param(7, [], 1, id="test_11_5_11_no_tier_table_is_1"),
        pytest.param(0, [1, 5, 10], 0, id="T000-66-A-45-umh-11.5.11-never-raises-a-0"),
    ],
)
async def test_11_5_11_fear_lowers_vol_a_tier(
    referee: ChainReferee, vol: int, tiers: list[int], expected: int
) -> None:
    bruno_stats = {"vit": 300, "vel": 5, "ref": 3, "vol": vol, "fue": 10, "rank": 2, "vigor": 5}
    community, cid = await fight(
        referee,
        {"vel": 6, "skills": [*DEFAULT_SKILLS, frightening()]},
        {"vel": 5, "stats": bruno_stats, "vol_tiers": tiers},
    )
    used = await community.use_skill(cid, "ana", "Susto", ["bruno"])
    await community.react(cid, "bruno", used["action_id"], None)
    combat = await settled(community, cid)
    assert combat["participants"]["bruno"]["stats"]["vol"] == expected


async def test_11_5_11_fear_decides_who_outwills_an_enamouring_skill(
    referee: ChainReferee,
) -> None:
    """A-44: RESISTIR annuls an enamouring skill when his VOL is above the enamourer's; a
    frightened bruno (VOL 12 -> 5) no longer outwills ana (VOL 8)."""
    love = {
        **offensive("Encanto", damage=10),
        "natures": ["fisica"],
        "effects": [{"kind": "state", "type": "enamoramiento", "actions": 3}],
    }
    ana_stats = {"vit": 300, "vel": 6, "ref": 3, "vol": 8, "fue": 10, "rank": 2, "vigor": 5}
    bruno_stats = {"vit": 300, "vel": 5, "ref": 3, "vol": 12, "fue": 10, "rank": 2, "vigor": 5}
    community, cid = await fight(
        referee,
        {"vel": 6, "stats": ana_stats, "skills": [*DEFAULT_SKILLS, frightening(), love]},
        {"vel": 5, "stats": bruno_stats, "vol_tiers": [1, 5, 10]},
    )
    used = await community.use_skill(cid, "ana", "Susto", ["bruno"])
    await community.react(cid, "bruno", used["action_id"], None)
    await settled(community, cid)
    used = await community.use_skill(cid, "ana", "Encanto", ["bruno"])
    refused = await community.act(
        cid,
        {
            "type": "react",
            "actor": "bruno",
            "action_id": used["action_id"],
            "skill": None,
            "resist": True,
        },
    )
    error_of(refused, 422, "resist_not_allowed")


async def test_2_8_an_increase_states_its_figure(referee: ChainReferee) -> None:
    community = await referee.new_community(timers=TIMERS)
    bad = {
        **supplementary("Prisa"),
        "effects": [{"kind": "increase", "stat": "vel", "mode": "tier", "amount": 2, "actions": 1}],
    }
    answer = await community.client.put(
        "/v1/characters/ana",
        json={
            "name": "Ana",
            "ruleset": "umh",
            "stats": {"vit": 10, "vel": 6, "ref": 3, "vol": 2, "fue": 1, "rank": 1, "vigor": 1},
            "skills": [bad],
        },
    )
    error = error_of(answer, 422, "invalid_request")
    assert "umh 2.8.1" in str(error["details"]), error
