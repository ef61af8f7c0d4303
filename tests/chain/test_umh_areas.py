"""umh 6.1.1 in the chain: an area hits allies standing inside it, and special areas.

On a grid, ana (0, 0) and her ally carla (called with LLAMADA DE AUXILIO to (3, 1)) face
bruno (3, 0). ana's area around bruno also catches carla, who gets a defense window like
any target, unless the skill says it spares allies. A special area (shaped by its own
document) covers the squares the player declares, at most its size.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import error_of, of_type
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive
from tests.support.steps import act_as, register_with
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}


def area_skill(shape: str, size: int, **over: Any) -> JSON:
    return {
        **offensive("Onda", damage=50),
        "reach": 5,
        "area": {"shape": shape, "size": size},
        **over,
    }


async def on_the_grid(referee: ChainReferee, skill: JSON) -> tuple[Any, str]:
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, skill])
    await register_with(community, "bruno", vel=5)
    await register_with(community, "carla", vel=4)
    body = {
        "room": "plaza-areas",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": [0, 0], "bruno": [3, 0]},
    }
    cid = (await community.start(body))["id"]
    call = {
        "type": "join",
        "actor": "carla",
        "side": "attackers",
        "via": "llamada_de_auxilio",
        "square": [3, 1],
    }
    await community.act_ok(cid, call)
    for who in ("ana", "bruno", "carla"):
        await act_as(community, cid, "ready", who)
    await community.wait_turn(cid, "ana", 1)
    return community, cid


def reactors(answer: JSON) -> list[str]:
    return sorted(e["data"]["reactor"] for e in of_type(answer["events"], "reaction.requested"))


@pytest.mark.parametrize(
    ("skill", "targets", "hit"),
    [
        pytest.param(
            area_skill("on_target", 1),
            ["bruno"],
            ["bruno", "carla"],
            id="test_6_1_1_area_hits_allies",
        ),
        pytest.param(
            area_skill("on_target", 1, hits_allies=False),
            ["bruno"],
            ["bruno"],
            id="test_6_1_1_unless_the_skill_spares_them",
        ),
        pytest.param(
            area_skill("special", 2),
            [[3, 0], [3, 1]],
            ["bruno", "carla"],
            id="test_6_1_1_special_area_covers_the_declared_squares",
        ),
        pytest.param(
            area_skill("special", 2), [[3, 0]], ["bruno"], id="test_6_1_1_special_area_one_square"
        ),
    ],
)
async def test_6_1_1_who_an_area_hits(
    referee: ChainReferee, skill: JSON, targets: list[Any], hit: list[str]
) -> None:
    community, cid = await on_the_grid(referee, skill)
    used = await community.use_skill(cid, "ana", "Onda", targets)
    assert reactors(used) == hit, used["events"]
    for who in hit:
        await community.react(cid, who, used["action_id"], None)
    combat = await community.wait_combat(
        cid, lambda c: not c["pending_reactions"], what="Onda resolved"
    )
    hurt = {who for who in ("bruno", "carla") if combat["participants"][who]["vit"] < 300}
    assert sorted(hurt) == hit


async def test_6_1_1_special_area_no_larger_than_its_size(referee: ChainReferee) -> None:
    community, cid = await on_the_grid(referee, area_skill("special", 1))
    body = {"type": "skill", "actor": "ana", "skill": "Onda", "targets": [[3, 0], [3, 1]]}
    error = error_of(await community.act(cid, body), 422, "invalid_target")
    assert error["rule"] == "umh 6.1.1 Área especial", error
