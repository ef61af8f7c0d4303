"""umh 11.5.4 - 11.5.5 in the chain: a limb state changes the STATs the combat reads.

bruno (VEL 8) is faster than ana (VEL 6); ana opens round 1 (the aggressor, 2.2.2) and hits
bruno with a skill that disables or amputates one of his limbs. Round 2 is ordered again by
total speed (2.2.5): with a leg out of use (or a wing, for a winged bruno) his VEL is 4 and
ana goes first; an arm halves his FUE and leaves his VEL; a winged bruno keeps his VEL when
a leg is hit (11.5.4.3). The combat view shows the STATs as they are now.
"""

from __future__ import annotations

import pytest

from tests.support.play import error_of, of_type
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive
from tests.support.steps import act_as, register_with
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}


def maiming(state: JSON) -> JSON:
    return {**offensive("Tajo", damage=10), "reach": 10, "effects": [{"kind": "state", **state}]}


LEG = {"type": "inhabilitacion_pierna"}
ARM = {"type": "inhabilitacion_brazo"}
LEGS = {"type": "inhabilitacion_piernas"}
WING = {"type": "inhabilitacion_ala"}
CUT_LEG = {"type": "amputacion", "limb": "pierna"}


@pytest.mark.parametrize(
    ("state", "traits", "stats", "first_in_round_2"),
    [
        pytest.param(LEG, [], {"vel": 4, "fue": 100}, "ana", id="test_11_5_4_2_one_leg_halves_vel"),
        pytest.param(LEGS, [], {"vel": 0, "fue": 100}, "ana", id="test_11_5_4_2_both_legs_vel_0"),
        pytest.param(
            ARM, [], {"vel": 8, "fue": 50}, "bruno", id="test_11_5_4_1_one_arm_halves_fue"
        ),
        pytest.param(
            WING, ["wings"], {"vel": 4, "fue": 100}, "ana", id="test_11_5_4_3_a_wing_halves_vel"
        ),
        pytest.param(
            LEG,
            ["wings"],
            {"vel": 8, "fue": 100},
            "bruno",
            id="test_11_5_4_3_legs_do_not_slow_wings",
        ),
        pytest.param(
            CUT_LEG, [], {"vel": 4, "fue": 100}, "ana", id="test_11_5_5_amputated_leg_like_disabled"
        ),
    ],
)
async def test_11_5_4_limbs_change_the_stats_and_the_next_rounds_order(
    referee: ChainReferee, state: JSON, traits: list[str], stats: JSON, first_in_round_2: str
) -> None:
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, maiming(state)])
    await register_with(community, "bruno", vel=8, traits=traits)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await act_as(community, cid, "ready", "ana")
    await act_as(community, cid, "ready", "bruno")
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", "Tajo", ["bruno"])
    answer = await community.react(cid, "bruno", used["action_id"], None)
    applied = of_type(answer["events"], "effect.applied")
    assert [e["data"]["effect"]["type"] for e in applied] == [state["type"]], answer["events"]
    assert applied[0]["data"]["effect"]["limb"] == state.get("limb")
    combat = await community.wait_combat(
        cid, lambda c: not c["pending_reactions"], what="Tajo resolved"
    )
    shown = combat["participants"]["bruno"]["stats"]
    assert {k: shown[k] for k in stats} == stats, shown
    assert combat["participants"]["bruno"]["movement_left"] == stats["vel"]
    await community.pass_turn(cid, "ana")
    await community.pass_turn(cid, "bruno")
    round_2 = await community.wait_turn(cid, first_in_round_2, 2)
    assert round_2["turn_order"][0] == first_in_round_2, round_2["turn_order"]


async def test_11_5_4_2_a_leg_lost_mid_round_counts_the_squares_walked(
    referee: ChainReferee,
) -> None:
    """bruno walked 4 of his 8 squares before a leg was hit: 4 - 4 = 0 left this round."""
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, maiming(LEG)])
    await register_with(community, "bruno", vel=8)
    body = {
        "room": "plaza-limbs",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": [0, 0], "bruno": [1, 0]},
    }
    cid = (await community.start(body))["id"]
    await act_as(community, cid, "ready", "ana")
    await act_as(community, cid, "ready", "bruno")
    await community.wait_turn(cid, "ana", 1)
    await community.pass_turn(cid, "ana")
    await community.wait_turn(cid, "bruno", 1)
    await community.pass_turn(cid, "bruno")
    await community.wait_turn(cid, "bruno", 2)  # round 2: the faster first (2.2.5)
    await community.act_ok(cid, {"type": "move", "actor": "bruno", "to": [1, 4]})
    moved = await community.combat(cid)
    assert moved["participants"]["bruno"]["movement_left"] == 4
    await community.pass_turn(cid, "bruno")
    await community.wait_turn(cid, "ana", 2)
    used = await community.use_skill(cid, "ana", "Tajo", ["bruno"])
    await community.react(cid, "bruno", used["action_id"], None)
    combat = await community.wait_combat(
        cid, lambda c: not c["pending_reactions"], what="Tajo resolved"
    )
    assert combat["participants"]["bruno"]["stats"]["vel"] == 4
    assert combat["participants"]["bruno"]["movement_left"] == 0


async def test_11_5_5_an_amputation_names_its_limb(referee: ChainReferee) -> None:
    community = await referee.new_community(timers=TIMERS)
    bad = {**offensive("Tajo"), "effects": [{"kind": "state", "type": "amputacion"}]}
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
    assert "umh 11.5.5" in str(error["details"]), error


BOTH_ARMS = {"type": "inhabilitacion_brazos"}


@pytest.mark.parametrize(
    ("state", "vel", "fue", "expected"),
    [
        pytest.param(ARM, 5, 55, {"fue": 27}, id="T000-63-umh-11.5.4.1-fue-55-one-arm-27"),
        pytest.param(BOTH_ARMS, 5, 55, {"fue": 0}, id="T000-63-umh-11.5.4.1-both-arms-0"),
        pytest.param(LEG, 7, 10, {"vel": 3}, id="T000-63-umh-11.5.4.2-vel-7-one-leg-3"),
        pytest.param(LEGS, 7, 10, {"vel": 0}, id="T000-63-umh-11.5.4.2-vel-7-both-legs-0"),
        pytest.param(LEG, 1, 10, {"vel": 0.5}, id="T000-63-umh-11.5.4.2-A-22-vel-1-keeps-0.5"),
    ],
)
async def test_t000_63_the_vectors_of_limbs_in_a_combat(
    referee: ChainReferee, state: JSON, vel: float, fue: int, expected: JSON
) -> None:
    """T000-63 played: the STATs the combat view shows once the limb state lands."""
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, maiming(state)])
    stats = {"vit": 300, "vel": vel, "ref": 3, "vol": 5, "fue": fue, "rank": 2, "vigor": 5}
    await register_with(community, "bruno", vel=vel, stats=stats)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await act_as(community, cid, "ready", "ana")
    await act_as(community, cid, "ready", "bruno")
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", "Tajo", ["bruno"])
    await community.react(cid, "bruno", used["action_id"], None)
    combat = await community.wait_combat(
        cid, lambda c: not c["pending_reactions"], what="Tajo resolved"
    )
    shown = combat["participants"]["bruno"]["stats"]
    assert {k: shown[k] for k in expected} == expected, shown
