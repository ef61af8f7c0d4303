"""umh 2.3.1.3 / 2.3.1.4: the same skill at most once in a round, defensive skills included;
basic commands have no limit. Driven through the chain (the real turns handler)."""

from __future__ import annotations

from tests.support.play import error_of, expect
from tests.support.sheets import defensive, offensive
from tests.support.table import ChainCommunity, ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 60, "defense_seconds": 60}


async def round_one(referee: ChainReferee) -> tuple[ChainCommunity, str]:
    """ana (faster) with two 2-PA attacks; bruno with two blocks; ana's first turn."""
    community = await referee.new_community(timers=TIMERS)
    await community.register("ana", vel=7, skills=[offensive("Puño"), offensive("Patada")])
    await community.register("bruno", vel=5, skills=[defensive("Bloqueo"), defensive("Escudo")])
    body = {
        "room": "room-round-uses",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": [0, 0], "bruno": [1, 0]},
    }
    cid = (await community.start(body))["id"]
    await community.wait_turn(cid, "ana", 1)
    return community, cid


def react_body(actor: str, action_id: str, skill: str | None) -> dict[str, object]:
    return {"type": "react", "actor": actor, "action_id": action_id, "skill": skill}


async def test_2_3_1_3_a_defensive_skill_once_per_round(referee: ChainReferee) -> None:
    """Bloqueo answers Puño; the same round, Patada cannot be answered with Bloqueo again
    (ability_already_used_this_round), Escudo may; next round Bloqueo is usable again."""
    community, cid = await round_one(referee)
    first = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    await community.react(cid, "bruno", first["action_id"], "Bloqueo")
    second = await community.use_skill(cid, "ana", "Patada", ["bruno"])
    again = await community.act(cid, react_body("bruno", second["action_id"], "Bloqueo"))
    assert error_of(again, 422, "ability_already_used_this_round")["rule"] == "umh 2.3.1.3"
    await community.react(cid, "bruno", second["action_id"], "Escudo")
    combat = await community.combat(cid)
    assert combat["participants"]["bruno"]["uses_this_round"] == {"Bloqueo": 1, "Escudo": 1}

    await community.wait_combat(
        cid, lambda c: not c["pending_reactions"], what="both hits resolved"
    )
    await community.pass_turn(cid, "ana")
    await community.pass_turn(cid, "bruno")
    await community.wait_turn(cid, "ana", 2)
    third = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    await community.react(cid, "bruno", third["action_id"], "Bloqueo")


async def test_2_3_1_4_basic_commands_have_no_round_limit(referee: ChainReferee) -> None:
    """Moving is a basic command: several moves in one turn are all accepted."""
    community, cid = await round_one(referee)
    for square in ([0, 1], [1, 1], [0, 1]):
        expect(await community.act(cid, {"type": "move", "actor": "ana", "to": square}), 200)
    combat = await community.combat(cid)
    assert combat["participants"]["ana"]["position"]["square"] == [0, 1]
    assert combat["participants"]["ana"]["movement_left"] == 4
    first = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    await community.react(cid, "bruno", first["action_id"], None)
    second = await community.act(
        cid, {"type": "skill", "actor": "ana", "skill": "Puño", "targets": ["bruno"]}
    )
    assert error_of(second, 422, "ability_already_used_this_round")["rule"] == "umh 2.3.1.3"
