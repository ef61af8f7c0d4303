"""umh 4.1.1.1, 4.1.5 - 4.1.5.2 and reading A-91 in the chain: what a fighter keeps up ends
when he flees.

ana and her ally carla (called with LLAMADA DE AUXILIO) face bruno. In round 1 carla uses
one skill; in round 2 she flees. Fleeing counts as falling (4.1.1.1), and what a fighter
keeps up ends when he falls (4.1.5; A-91: also on flight): her booster on ana and her own
shield end (``effect.expired``, reason ``fled``, told with rule umh 4.1.1.1), and the combat
view no longer shows them. A skill her sheet marks ``persists_when_fallen`` stays (4.1.5.2);
a state she inflicted on bruno stays (4.1.5.1). Every way of fleeing does it (HUIR, a flight
skill, a teleport that flees), and a message delivered twice ends nothing twice.
"""

from __future__ import annotations

from typing import Any

import pytest

from shared.narration.narrate import narrate
from shared.narration.said import Cast
from tests.support.chain import Chain
from tests.support.play import of_type
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive, supplementary
from tests.support.steps import act_as, register_with
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
BOOST = {"kind": "booster", "nature": "fisica", "percent": 10, "actions": 20}

CHEER = {**supplementary("Aliento", pa=1), "effects": [BOOST]}
LASTING = {**CHEER, "name": "Aliento eterno", "persists_when_fallen": True}
BUBBLE = {**supplementary("Escudo mental", pa=1), "natures": ["mental"], "mental_shield": 120}
DEAFEN = {
    **offensive("Ensordecer", damage=1),
    "effects": [{"kind": "state", "type": "sordera", "actions": 20}],
}
RUN = {**supplementary("Carrera", pa=1), "flight": True}
PORTAL = {**supplementary("Portal", pa=1), "flight": True, "natures": ["teletransportadora"]}


async def three(referee: ChainReferee, carla_skills: list[JSON]) -> Any:
    """The combat at ana's first turn of round 1 (ana 6, bruno 5, carla 4 VEL)."""
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6)
    await register_with(community, "bruno", vel=5)
    skills = [*DEFAULT_SKILLS, *carla_skills, RUN, PORTAL]
    await register_with(community, "carla", vel=4, skills=skills)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    call = {"type": "join", "actor": "carla", "side": "attackers", "via": "llamada_de_auxilio"}
    await community.act_ok(cid, call)
    for who in ("ana", "bruno", "carla"):
        await act_as(community, cid, "ready", who)
    return community, cid


async def advance_to(community: Any, cid: str, who: str, round_: int) -> None:
    """Everyone else passes until it is ``who``'s turn in round ``round_``."""
    for _ in range(12):
        combat = await community.wait_combat(
            cid, lambda c: c["turn"] is not None and not c["pending_reactions"], what="a turn"
        )
        if combat["turn"]["actor"] == who and combat["round"] == round_:
            return
        await community.pass_turn(cid, combat["turn"]["actor"])
    raise AssertionError(f"no turn of {who} in round {round_}")


async def carla_keeps(community: Any, cid: str, skill: JSON, target: str) -> None:
    """carla uses ``skill`` on ``target`` in round 1 (bruno takes an attack undefended)."""
    await advance_to(community, cid, "carla", 1)
    used = await community.use_skill(cid, "carla", skill["name"], [target])
    if skill["type"] == "offensive":
        await community.react(cid, target, used["action_id"], None)
    assert await of_carla(community, cid, target), f"nothing of carla's on {target}"


async def flee(community: Any, cid: str, way: str | None) -> JSON:
    """carla flees in her turn of round 2 (HUIR, or a flight skill of hers)."""
    await advance_to(community, cid, "carla", 2)
    body: JSON = {"type": "flee", "actor": "carla"}
    if way is not None:
        body["skill"] = way
    answer: JSON = await community.act_ok(cid, body)
    combat = await community.combat(cid)
    assert combat["participants"]["carla"]["status"] == "fled", combat["participants"]
    return answer


async def of_carla(community: Any, cid: str, who: str) -> list[JSON]:
    """What the combat view shows on ``who`` that carla put there."""
    combat = await community.combat(cid)
    effects: list[JSON] = combat["participants"][who]["effects"]
    return [e for e in effects if e.get("source") == "carla"]


def fled_ends(events: list[JSON]) -> list[tuple[str, str, str]]:
    """(character, kind, the rule its Spanish sentence cites) of every expiry by flight."""
    cast = Cast({c: c.capitalize() for c in ("ana", "bruno", "carla")}, ruleset="umh")
    ended = [e for e in of_type(events, "effect.expired") if e["data"]["reason"] == "fled"]
    told = [narrate(e["type"], e["data"], cast, "es") for e in ended]
    return [
        (e["data"]["character"], e["data"]["kind"], text[text.rindex("(") :].rstrip("."))
        for e, text in zip(ended, told, strict=True)
    ]


RULE = "(umh 4.1.1.1)"


@pytest.mark.parametrize(
    ("skill", "target", "ends"),
    [
        pytest.param(
            CHEER,
            "ana",
            [("ana", "booster", RULE)],
            id="test_4_1_5_A_91_a_booster_kept_on_an_ally_ends_when_he_flees",
        ),
        pytest.param(
            BUBBLE,
            "carla",
            [("carla", "shield", RULE)],
            id="test_4_1_5_A_91_his_own_shield_ends_when_he_flees",
        ),
        pytest.param(
            LASTING,
            "ana",
            [],
            id="test_4_1_5_2_a_skill_marked_persists_when_fallen_stays",
        ),
        pytest.param(
            DEAFEN,
            "bruno",
            [],
            id="test_4_1_5_1_a_state_he_inflicted_on_a_foe_stays",
        ),
    ],
)
async def test_4_1_1_1_fleeing_ends_what_he_keeps_up(
    referee: ChainReferee, skill: JSON, target: str, ends: list[tuple[str, str, str]]
) -> None:
    community, cid = await three(referee, [skill])
    await carla_keeps(community, cid, skill, target)
    await flee(community, cid, None)
    assert fled_ends(await community.events_of(cid)) == ends
    assert bool(await of_carla(community, cid, target)) == (not ends)


@pytest.mark.parametrize(
    "way",
    [
        pytest.param(None, id="test_4_1_1_1_A_91_huir"),
        pytest.param("Carrera", id="test_4_1_1_1_A_91_a_flight_skill"),
        pytest.param("Portal", id="test_7_1_1_1_A_91_a_teleport_that_flees"),
    ],
)
async def test_4_1_1_1_every_way_of_fleeing_ends_his_holds(
    referee: ChainReferee, way: str | None
) -> None:
    community, cid = await three(referee, [CHEER])
    await carla_keeps(community, cid, CHEER, "ana")
    await flee(community, cid, way)
    assert fled_ends(await community.events_of(cid)) == [("ana", "booster", RULE)]
    assert await of_carla(community, cid, "ana") == []


async def test_4_1_5_a91_a_redelivered_flight_ends_nothing_twice(
    referee: ChainReferee, chain: Chain
) -> None:
    """Every message is delivered twice (at least once delivery, the processed record drops
    the repeat): the booster on ana and carla's shield each end once."""
    chain.twice = True
    community, cid = await three(referee, [CHEER, BUBBLE])
    await carla_keeps(community, cid, CHEER, "ana")
    await advance_to(community, cid, "carla", 2)
    await community.use_skill(cid, "carla", "Escudo mental", ["carla"])
    await flee(community, cid, None)
    events = await community.events_of(cid)
    assert sorted(fled_ends(events)) == [("ana", "booster", RULE), ("carla", "shield", RULE)]
    assert len({e["id"] for e in events}) == len(events)
    assert await of_carla(community, cid, "ana") == []
    assert await of_carla(community, cid, "carla") == []
