"""umh 4.1.5.1, 11.4.1 - 11.4.1.2, 8.2.1.4, 11.6.1 in the chain: skills kept on the terrain.

On a grid of 8 x 8, ana (0, 0) faces bruno (3, 0); her ally carla (called with LLAMADA DE
AUXILIO) stands on (0, 1). A skill whose sheet has ``terrain`` names the squares it covers
as the action's target squares: an obstacle blocks moves and pushes (11.6.1), a hazard hurts
whoever starts his turn on it (indirect damage, 11.3.3), a defense is an external defense on
the terrain, never against the 50 % of an evasion without requirements (8.2.1.4). It lasts
its rounds, survives its keeper's fall (4.1.5.1) and ends when he is stunned, fainted or
asleep unless it is passive (11.4.1 - 11.4.1.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tests.support.chain import Chain
from tests.support.play import error_of, of_type
from tests.support.sheets import DEFAULT_SKILLS, JSON, offensive, supplementary, umh_sheet
from tests.support.steps import act_as, register_with
from tests.support.table import ChainReferee

TIMERS = {"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
ROOM = {"size": [8, 8]}


def kept(name: str, effect: str, *, rounds: int = 2, size: int = 2, **over: Any) -> JSON:
    """A supplementary skill kept on up to ``size`` squares within reach 3."""
    terrain: JSON = {"effect": effect, "rounds": rounds, "size": size}
    terrain.update({k: over.pop(k) for k in ("damage", "nature", "resistance") if k in over})
    return {**supplementary(name, pa=1), "reach": 3, "terrain": terrain, **over}


WALL = kept("Muro", "obstacle")
EMBERS = kept("Brasas", "hazard", damage=40, nature="fuego")
WARD = kept("Égida", "defense", size=1, resistance=50)
SHOVE = {**offensive("Empujón", damage=10), "push": 3, "collision_damage": 100}
FAR = {"reach": 10}
FELL = {**offensive("Golpe", damage=5000), **FAR}


def control(name: str, kind: str) -> JSON:
    return {
        **offensive(name, damage=1),
        **FAR,
        "effects": [{"kind": "control", "type": kind, "actions": 2}],
    }


async def grid(
    referee: ChainReferee,
    ana: list[JSON],
    *,
    bruno: Sequence[JSON] = (),
    carla: list[JSON] | None = None,
    at: tuple[list[int], list[int]] = ([0, 0], [3, 0]),
) -> tuple[Any, str]:
    """The combat in round 1 at ana's turn (carla joins on (0, 1) when she has skills)."""
    community = await referee.new_community(timers=TIMERS)
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, *ana, SHOVE])
    await register_with(community, "bruno", vel=5, skills=[*DEFAULT_SKILLS, *bruno])
    body = {
        "room": "plaza-terreno",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": at[0], "bruno": at[1]},
        "terrain": ROOM,
    }
    cid = (await community.start(body))["id"]
    ready = ["ana", "bruno"]
    if carla is not None:
        await register_with(community, "carla", vel=4, skills=[*DEFAULT_SKILLS, *carla])
        call = {"type": "join", "actor": "carla", "side": "attackers"}
        await community.act_ok(cid, {**call, "via": "llamada_de_auxilio", "square": [0, 1]})
        ready.append("carla")
    for who in ready:
        await act_as(community, cid, "ready", who)
    await community.wait_turn(cid, "ana", 1)
    return community, cid


async def advance_to(community: Any, cid: str, who: str, round_: int) -> None:
    """Everyone else passes until it is ``who``'s turn in round ``round_``."""
    for _ in range(16):
        combat = await community.wait_combat(
            cid, lambda c: c["turn"] is not None and not c["pending_reactions"], what="a turn"
        )
        if combat["turn"]["actor"] == who and combat["round"] == round_:
            return
        await community.pass_turn(cid, combat["turn"]["actor"])
    raise AssertionError(f"no turn of {who} in round {round_}")


async def effects_on_terrain(community: Any, cid: str) -> list[JSON]:
    combat = await community.wait_combat(
        cid, lambda c: not c["pending_reactions"], what="the action resolved"
    )
    found: list[JSON] = combat["terrain_effects"]
    return found


def ended(events: list[JSON]) -> list[tuple[str, str]]:
    return [(e["data"]["reason"], e["data"]["rule"]) for e in of_type(events, "terrain.ended")]


@pytest.mark.parametrize(
    ("skill", "squares", "kind"),
    [
        pytest.param(WALL, [[2, 0], [2, 1]], "obstacle", id="test_4_1_5_1_an_obstacle_is_placed"),
        pytest.param(EMBERS, [[3, 0]], "hazard", id="test_4_1_5_1_a_hazard_is_placed"),
        pytest.param(WARD, [[0, 0]], "defense", id="test_8_2_1_4_a_defense_is_placed"),
        pytest.param(
            {**EMBERS, "type": "offensive", "damage": 0},
            [[2, 0]],
            "hazard",
            id="test_4_1_5_1_an_offensive_skill_on_squares_only",
        ),
    ],
)
async def test_4_1_5_1_placed_and_shown(
    referee: ChainReferee, skill: JSON, squares: list[list[int]], kind: str
) -> None:
    community, cid = await grid(referee, [skill])
    used = await community.use_skill(cid, "ana", skill["name"], squares)
    (placed,) = of_type(used["events"], "terrain.placed")
    assert placed["data"]["rule"] == "umh 4.1.5.1", placed
    (shown,) = await effects_on_terrain(community, cid)
    assert shown["keeper"] == "ana" and shown["kind"] == kind, shown
    assert shown["squares"] == sorted(squares) and shown["rounds_left"] == 2, shown


async def test_11_6_1_an_obstacle_on_the_terrain_stops_a_move(referee: ChainReferee) -> None:
    community, cid = await grid(referee, [WALL])
    await community.use_skill(cid, "ana", "Muro", [[2, 0]])
    await advance_to(community, cid, "bruno", 1)
    body = {"type": "move", "actor": "bruno", "to": [2, 0]}
    error = error_of(await community.act(cid, body), 422, "invalid_target")
    assert error["rule"] == "umh 11.6.1", error
    await community.act_ok(cid, {**body, "to": [3, 1]})


async def test_11_6_1_an_obstacle_on_the_terrain_stops_a_push(referee: ChainReferee) -> None:
    community, cid = await grid(referee, [WALL], at=([0, 0], [1, 0]))
    await community.use_skill(cid, "ana", "Muro", [[3, 0]])
    used = await community.use_skill(cid, "ana", "Empujón", ["bruno"])
    answer = await community.react(cid, "bruno", used["action_id"], None)
    (resolved,) = of_type(answer["events"], "action.resolved")
    assert resolved["data"]["moved"]["bruno"]["square"] == [2, 0], resolved
    steps = [s["step"] for s in resolved["data"]["results"][0]["steps"]]
    assert "collision" in steps, steps


async def test_11_3_3_a_hazard_hurts_once_per_turn_start_until_it_expires(
    referee: ChainReferee, chain: Chain
) -> None:
    """Every message is delivered twice (the processed record drops the repeat): bruno, on
    the hazard, loses 40 at each of his turn starts of rounds 1 and 2; at round 3 it has
    expired (2 rounds)."""
    chain.twice = True
    community, cid = await grid(referee, [EMBERS])
    await community.use_skill(cid, "ana", "Brasas", [[3, 0]])
    for round_, vit in ((1, 260), (2, 220), (3, 220)):
        await advance_to(community, cid, "bruno", round_)
        combat = await community.combat(cid)
        assert combat["participants"]["bruno"]["vit"] == vit, (round_, combat)
    events = await community.events_of(cid)
    hurt = [e["data"]["damage"] for e in of_type(events, "terrain.hurt")]
    assert hurt == [40, 40], hurt
    assert ended(events) == [("expired", "umh 2.1.2")]
    assert (await community.combat(cid))["terrain_effects"] == []


async def test_2_1_2_a_kept_skill_expires_after_its_rounds(referee: ChainReferee) -> None:
    community, cid = await grid(referee, [kept("Muro", "obstacle", rounds=1)])
    await community.use_skill(cid, "ana", "Muro", [[2, 0]])
    await advance_to(community, cid, "ana", 2)
    assert ended(await community.events_of(cid)) == [("expired", "umh 2.1.2")]
    assert (await community.combat(cid))["terrain_effects"] == []
    await advance_to(community, cid, "bruno", 2)
    await community.act_ok(cid, {"type": "move", "actor": "bruno", "to": [2, 0]})


@pytest.mark.parametrize(
    ("wall", "attack", "ends"),
    [
        pytest.param(WALL, FELL, [], id="test_4_1_5_1_it_survives_the_keepers_fall"),
        pytest.param(
            WALL,
            control("Aturdir", "aturdimiento"),
            [("broken", "umh 11.4.1")],
            id="test_11_4_1_a_stun_ends_it",
        ),
        pytest.param(
            WALL,
            control("Desmayar", "desmayo"),
            [("broken", "umh 11.4.1.1")],
            id="test_11_4_1_1_a_faint_ends_it",
        ),
        pytest.param(
            WALL,
            control("Dormir", "dormido"),
            [("broken", "umh 11.4.1.2")],
            id="test_11_4_1_2_sleep_ends_it",
        ),
        pytest.param(
            {**WALL, "passive": True},
            control("Aturdir", "aturdimiento"),
            [],
            id="test_11_4_1_unless_it_is_passive",
        ),
    ],
)
async def test_11_4_1_a_knockout_ends_what_he_keeps_on_the_terrain(
    referee: ChainReferee, wall: JSON, attack: JSON, ends: list[tuple[str, str]]
) -> None:
    community, cid = await grid(referee, [], bruno=[attack], carla=[wall])
    await advance_to(community, cid, "carla", 1)
    await community.use_skill(cid, "carla", "Muro", [[2, 0]])
    await advance_to(community, cid, "bruno", 1)
    used = await community.use_skill(cid, "bruno", attack["name"], ["carla"])
    await community.react(cid, "carla", used["action_id"], None)
    still = await effects_on_terrain(community, cid)
    assert ended(await community.events_of(cid)) == ends
    assert [e["keeper"] for e in still] == ([] if ends else ["carla"]), still


@pytest.mark.parametrize(
    ("reaction", "damage"),
    [
        pytest.param(None, 70, id="test_8_2_1_4_a_defense_on_the_terrain_reduces_a_hit"),
        pytest.param("Salto", 60, id="test_8_2_1_4_not_the_half_of_an_unmet_evasion"),
    ],
)
async def test_8_2_1_4_a_defense_kept_on_the_terrain(
    referee: ChainReferee, reaction: str | None, damage: int
) -> None:
    """Puño (120) on ana standing on Égida (50): 70. Evaded without the REF it asks (5 > 3):
    60, half as integral damage, the defense on the terrain does not apply (8.2.1.4)."""
    jump = {
        **supplementary("Salto", pa=1),
        "type": "defensive",
        "defense_kind": "evasion",
    }
    punch = {**offensive("Puño fuerte", damage=120), "ref_required": 5}
    community, cid = await grid(referee, [WARD, jump], bruno=[punch], at=([0, 0], [1, 0]))
    await community.use_skill(cid, "ana", "Égida", [[0, 0]])
    await advance_to(community, cid, "bruno", 1)
    used = await community.use_skill(cid, "bruno", "Puño fuerte", ["ana"])
    answer = await community.react(cid, "ana", used["action_id"], reaction)
    (resolved,) = of_type(answer["events"], "action.resolved")
    (row,) = resolved["data"]["results"]
    assert row["damage"] == damage, row
    (step,) = [s for s in row["steps"] if s["step"] == "terrain_defense"]
    assert step["rule"] == ("umh 9.2.4" if reaction is None else "umh 8.2.1.4"), step


@pytest.mark.parametrize(
    ("squares", "code", "rule"),
    [
        pytest.param([[5, 0]], "target_out_of_range", "umh 5.1.1", id="test_5_1_1_out_of_reach"),
        pytest.param([[-1, 0]], "invalid_target", "umh 11.6.1", id="test_11_6_1_off_the_grid"),
        pytest.param(
            [[1, 0], [2, 0], [2, 1]],
            "invalid_target",
            "umh 6.1.1 Área especial",
            id="test_6_1_1_more_squares_than_its_size",
        ),
        pytest.param([], "targets_not_declared", "umh 1.1.2", id="test_1_1_2_no_squares"),
        pytest.param(
            [[3, 0]], "invalid_target", "umh 11.6.1", id="test_11_6_1_no_obstacle_on_a_fighter"
        ),
    ],
)
async def test_4_1_5_1_the_squares_are_checked(
    referee: ChainReferee, squares: list[list[int]], code: str, rule: str
) -> None:
    community, cid = await grid(referee, [WALL])
    body = {"type": "skill", "actor": "ana", "skill": "Muro", "targets": squares}
    error = error_of(await community.act(cid, body), 422, code)
    assert error["rule"] == rule, error


@pytest.mark.parametrize(
    "terrain",
    [
        pytest.param({"effect": "hazard", "rounds": 2, "size": 1}, id="a_hazard_without_damage"),
        pytest.param(
            {"effect": "obstacle", "rounds": 2, "size": 1, "resistance": 5},
            id="an_obstacle_with_a_resistance",
        ),
        pytest.param({"effect": "defense", "rounds": 0, "size": 1, "resistance": 5}, id="0_rounds"),
    ],
)
async def test_4_1_5_1_the_sheet_states_what_its_kind_needs(
    referee: ChainReferee, terrain: JSON
) -> None:
    community = await referee.new_community(timers=TIMERS)
    skill = {**supplementary("Muro", pa=1), "terrain": terrain}
    body = umh_sheet("Ana", skills=[*DEFAULT_SKILLS, skill])
    answer = await community.client.put("/v1/characters/ana", json=body)
    assert answer.status_code == 422, answer.json()


async def test_4_1_5_1_it_stays_when_its_keeper_flees(referee: ChainReferee) -> None:
    community, cid = await grid(referee, [], carla=[WALL])
    await advance_to(community, cid, "carla", 1)
    await community.use_skill(cid, "carla", "Muro", [[2, 0]])
    await community.act_ok(cid, {"type": "flee", "actor": "carla"})
    combat = await community.combat(cid)
    assert combat["participants"]["carla"]["status"] == "fled", combat["participants"]
    assert [e["keeper"] for e in combat["terrain_effects"]] == ["carla"]
    assert ended(await community.events_of(cid)) == []
