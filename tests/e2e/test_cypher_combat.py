"""cypher (seed 001) end to end: full combats over HTTP to ``combat.ended``, their dice
verified, and the key refusals (422 with code and rule)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.errors import CATALOGUE
from tests.e2e.referee import HttpCommunity, Referee, verify_dice
from tests.support.play import error_of, expect, start_in
from tests.support.sheets import npc, pc
from tests.support.steps import register_sheet

pytestmark = [pytest.mark.e2e]

JSON = dict[str, Any]


def attack(actor: str, target: str, weapon: str = "Espada", **fields: Any) -> JSON:
    return {"type": "cypher.attack", "actor": actor, "target": target, "attack": weapon, **fields}


async def fight_to_the_end(community: HttpCommunity, combat: JSON, weapons: dict[str, str]) -> JSON:
    """Everyone attacks the first opponent still standing, until ``combat.ended``."""
    cid = combat["id"]
    for _ in range(200):
        if combat["phase"] == "ended":
            return combat
        actor = combat["turn"]["actor"]
        mine = combat["participants"][actor]["side"]
        foes = [
            c
            for c, p in combat["participants"].items()
            if p["side"] != mine and p["condition"] not in ("dead", "fled")
        ]
        if combat["participants"][actor]["condition"] == "debilitated":
            answer = await community.act_ok(cid, {"type": "cypher.pass", "actor": actor})
        else:
            answer = await community.act_ok(cid, attack(actor, foes[0], weapons[actor]))
        combat = answer["combat"]
    raise AssertionError(f"the combat did not end: {combat}")


async def dice_verified(community: HttpCommunity, cid: str) -> None:
    dice = expect(await community.client.get(f"/v1/combats/{cid}/dice"), 200).json()
    assert dice["seed"] and dice["rolls"], dice
    await verify_dice(community, cid)


async def test_a_pc_against_an_npc_fights_to_the_end_and_its_dice_verify(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    await register_sheet(community, "ana", pc("Ana"))
    await register_sheet(community, "orco", npc("Orco"))
    combat = await start_in(community, "cypher", "ana", ["orco"])
    assert combat["ruleset"] == "cypher" and combat["phase"] == "fighting"
    assert combat["round"] == 1 and set(combat["turn_order"]) == {"ana", "orco"}
    assert combat["participants"]["ana"]["pools"] == {"might": 8, "speed": 8, "intellect": 8}
    assert combat["participants"]["orco"]["health"] == 6
    ended = await fight_to_the_end(community, combat, {"ana": "Espada", "orco": "Garra"})
    assert ended["result"]["reason"] == "defeat"
    log = await community.events_of(combat["id"])
    types = [e["type"] for e in log]
    assert "combat.ended" in types and "initiative.rolled" in types
    resolved = [e["data"] for e in log if e["type"] == "action.resolved"]
    assert resolved and all("difficulty" in r or r.get("automatic") for r in resolved)
    await dice_verified(community, combat["id"])


async def test_a_pc_against_a_pc_fights_to_the_end(referee: Referee) -> None:
    community = await referee.new_community()
    await register_sheet(community, "ana", pc("Ana", might=6))
    await register_sheet(community, "bruno", pc("Bruno", might=6, defense=1))
    combat = await start_in(community, "cypher", "ana", ["bruno"])
    ended = await fight_to_the_end(community, combat, {"ana": "Espada", "bruno": "Espada"})
    assert ended["result"]["winner"] in ("attackers", "defenders")
    loser = next(c for c, p in ended["participants"].items() if p["status"] == "down")
    assert ended["participants"][loser]["track"] in ("debilitated", "dead")
    await dice_verified(community, combat["id"])


async def test_refusals_name_their_code_and_rule(referee: Referee) -> None:
    community = await referee.new_community()
    await register_sheet(community, "ana", pc("Ana"))
    await register_sheet(community, "bruno", pc("Bruno"))
    combat = await start_in(community, "cypher", "ana", ["bruno"])
    cid = combat["id"]
    actor = combat["turn"]["actor"]
    other = "bruno" if actor == "ana" else "ana"

    body = error_of(await community.act(cid, attack(other, actor)), 422, "not_your_turn")
    assert body["rule"] == "cypher ACCIÓN (turn)"
    far = attack(actor, other, circumstances={"distance_m": 10})
    body = error_of(await community.act(cid, far), 422, "out_of_range")
    assert body["rule"] == "cypher ALCANCE"
    mind = attack(actor, other, stat="intellect")
    body = error_of(await community.act(cid, mind), 422, "invalid_stat_for_attack")
    assert body["rule"] == "cypher ATACAR (melee stat)"
    wet = attack(actor, other, "Arco", circumstances={"distance_m": 10, "water": "submerged"})
    error_of(await community.act(cid, wet), 422, "attack_impossible_underwater")
    hidden = attack(actor, other, circumstances={"cover": "full"})
    error_of(await community.act(cid, hidden), 422, "target_full_cover")

    free_move = {"type": "cypher.move", "actor": actor, "distance": "immediate"}
    await community.act_ok(cid, free_move)
    body = error_of(await community.act(cid, free_move), 422, "one_action_per_turn")
    assert body["rule"].startswith("cypher DISTANCIA")
    await community.act_ok(cid, {"type": "cypher.recover", "actor": actor})
    combat = await community.wait_turn(cid, other, 1)
    await community.act_ok(cid, {"type": "cypher.pass", "actor": other})
    await community.wait_turn(cid, actor, 2)
    again = await community.act(cid, {"type": "cypher.recover", "actor": actor})
    body = error_of(again, 422, "no_rests_left")
    assert body["rule"].startswith("cypher RECUPERAR")
    await community.act_ok(cid, {"type": "cypher.pass", "actor": actor})
    await community.wait_turn(cid, other, 2)
    spanish = await community.act(
        cid, attack(other, actor, stat="intellect"), headers={"Accept-Language": "es"}
    )
    body = error_of(spanish, 422, "invalid_stat_for_attack")
    assert body["message"] == CATALOGUE["invalid_stat_for_attack"].es
    await community.act_ok(cid, attack(other, actor))
    error_of(await community.act(cid, attack(other, actor)), 422, "not_your_turn")


async def test_only_a_moderator_inflicts_special_damage(referee: Referee) -> None:
    community = await referee.new_community()
    await register_sheet(community, "ana", pc("Ana"))
    await register_sheet(community, "bruno", pc("Bruno"))
    combat = await start_in(community, "cypher", "ana", ["bruno"])
    cid = combat["id"]
    frontend = referee.client(await community.key("frontend"))
    inflict = {"type": "cypher.inflict", "actor": "ana", "target": "bruno", "stunned": True}
    answer = await frontend.post(f"/v1/combats/{cid}/actions", json=inflict)
    error_of(answer, 403, "forbidden")
    done = await community.act_ok(cid, {**inflict, "track_steps": 1, "damage": 2})
    bruno = done["combat"]["participants"]["bruno"]
    assert bruno["stunned"] or bruno["track"] == "impaired"
