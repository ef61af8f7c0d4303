"""umh 4.1.5 - 4.1.5.2, 11.4.1 and 11.5.7 in the chain: what a fighter keeps up on others.

ana and her ally carla (called with LLAMADA DE AUXILIO) face bruno. carla keeps an increase
up on ana (VEL 6 + 3). When bruno fells carla, or stuns her, the increase on ana ends and
ana's VEL is 6 again, unless carla's sheet marks the skill ``persists_when_fallen`` and she
fell (4.1.5.2). A deaf ana gets nothing from carla's spoken orders unless they are mental
(11.5.7).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import of_type
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive, supplementary
from tests.support.steps import act_as, register_with
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
PLUS_3 = {"kind": "increase", "stat": "vel", "mode": "numeric", "amount": 3, "actions": 20}


def cheer(**over: Any) -> JSON:
    return {**supplementary("Aliento", pa=1), "effects": [PLUS_3], **over}


FELL = {**offensive("Golpe", damage=5000)}
STUN = {
    **offensive("Aturdir", damage=1),
    "effects": [{"kind": "control", "type": "aturdimiento", "actions": 2}],
}
DEAFEN = {
    **offensive("Ensordecer", damage=1),
    "effects": [{"kind": "state", "type": "sordera", "actions": 10}],
}


async def three(referee: ChainReferee, carla_skills: list[JSON], bruno_skill: JSON) -> Any:
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6)
    await register_with(community, "bruno", vel=5, skills=[*DEFAULT_SKILLS, bruno_skill])
    await register_with(community, "carla", vel=4, skills=[*DEFAULT_SKILLS, *carla_skills])
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    call = {"type": "join", "actor": "carla", "side": "attackers", "via": "llamada_de_auxilio"}
    await community.act_ok(cid, call)
    for who in ("ana", "bruno", "carla"):
        await act_as(community, cid, "ready", who)
    await community.wait_turn(cid, "ana", 1)
    await community.pass_turn(cid, "ana")
    return community, cid


async def advance_to(community: Any, cid: str, who: str, round_: int) -> None:
    """Everyone else passes until it is ``who``'s turn in round ``round_`` (bruno, alone on
    his side, has one own turn per opponent, umh 1.2.6)."""
    for _ in range(12):
        combat = await community.wait_combat(
            cid, lambda c: c["turn"] is not None and not c["pending_reactions"], what="a turn"
        )
        if combat["turn"]["actor"] == who and combat["round"] == round_:
            return
        await community.pass_turn(cid, combat["turn"]["actor"])
    raise AssertionError(f"no turn of {who} in round {round_}")


async def vel_of(community: Any, cid: str, who: str) -> float:
    combat = await community.wait_combat(
        cid, lambda c: not c["pending_reactions"], what="the hit resolved"
    )
    vel: float = combat["participants"][who]["stats"]["vel"]
    return vel


@pytest.mark.parametrize(
    ("aliento", "attack", "vel_after", "reason"),
    [
        pytest.param(cheer(), FELL, 6, "fallen", id="test_4_1_5_falling_ends_skills_on_others"),
        pytest.param(
            cheer(persists_when_fallen=True),
            FELL,
            9,
            None,
            id="test_4_1_5_2_a_skill_that_outlasts_the_fall",
        ),
        pytest.param(cheer(), STUN, 6, "broken", id="test_11_4_1_stun_ends_skills_on_others"),
    ],
)
async def test_4_1_5_holds_end_with_their_holder(
    referee: ChainReferee, aliento: JSON, attack: JSON, vel_after: float, reason: str | None
) -> None:
    community, cid = await three(referee, [aliento], attack)
    await advance_to(community, cid, "carla", 1)
    await community.use_skill(cid, "carla", "Aliento", ["ana"])
    assert await vel_of(community, cid, "ana") == 9
    await advance_to(community, cid, "bruno", 2)
    used = await community.use_skill(cid, "bruno", attack["name"], ["carla"])
    answer = await community.react(cid, "carla", used["action_id"], None)
    assert await vel_of(community, cid, "ana") == vel_after
    ended = [
        e["data"]["reason"]
        for e in of_type(await community.events_of(cid), "effect.expired")
        if e["data"]["character"] == "ana" and e["data"]["type"] == "vel_numeric"
    ]
    assert ended == ([reason] if reason else []), answer["events"]


@pytest.mark.parametrize(
    ("natures", "speech", "vel_after"),
    [
        pytest.param(["fisica"], True, 6, id="test_11_5_7_deaf_gets_no_spoken_order"),
        pytest.param(["mental"], True, 9, id="test_11_5_7_unless_it_is_mental"),
        pytest.param(["fisica"], False, 9, id="test_11_5_7_what_is_not_spoken_still_lands"),
    ],
)
async def test_11_5_7_deafness(
    referee: ChainReferee, natures: list[str], speech: bool, vel_after: float
) -> None:
    community, cid = await three(referee, [cheer(natures=natures, speech=speech)], DEAFEN)
    await community.wait_turn(cid, "bruno", 1)
    used = await community.use_skill(cid, "bruno", "Ensordecer", ["ana"])
    await community.react(cid, "ana", used["action_id"], None)
    await vel_of(community, cid, "ana")
    await advance_to(community, cid, "carla", 1)
    await community.use_skill(cid, "carla", "Aliento", ["ana"])
    assert await vel_of(community, cid, "ana") == vel_after
