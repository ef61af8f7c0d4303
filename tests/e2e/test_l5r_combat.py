"""l5r (seed 004) end to end over HTTP: two samurai duel until one side is Down, Out or dead
(``combat.ended``), then every roll of the combat is verified from its revealed seed; and
the key refusals answer 422 with their code and rule reference (in Spanish when asked)."""

from __future__ import annotations

from typing import Any

import pytest

from shared.dice.purpose import RollPurpose
from tests.e2e.referee import HttpCommunity, Referee, verify_dice
from tests.support.play import error_of, expect, of_type, unique
from tests.support.sheets import samurai

pytestmark = [pytest.mark.e2e]

JSON = dict[str, Any]


async def duel(referee: Referee) -> tuple[HttpCommunity, str, str, str]:
    community = await referee.new_community()
    ana, bruno = unique("ana"), unique("bruno")
    for cid, name in ((ana, "Kakita Ana"), (bruno, "Matsu Bruno")):
        answer = await community.client.put(f"/v1/characters/{cid}", json=samurai(name))
        expect(answer, 200, 201)
    combat = await community.start(
        {
            "room": unique("dojo"),
            "ruleset": "l5r",
            "attacker": ana,
            "defenders": [bruno],
            "opening": {"kind": "challenge"},
        }
    )
    assert combat["phase"] == "preparation" and combat["ruleset"] == "l5r", combat
    for cid in (ana, bruno):
        await community.act_ok(combat["id"], {"type": "l5r.ready", "actor": cid})
    fighting = await community.combat(combat["id"])
    assert fighting["phase"] == "fighting" and fighting["round"] == 1, fighting
    return community, combat["id"], ana, bruno


async def test_two_samurai_duel_to_the_end_and_the_dice_verify(referee: Referee) -> None:
    community, cid, ana, bruno = await duel(referee)
    for _ in range(30):
        combat = await community.combat(cid)
        if combat["phase"] == "ended":
            break
        actor = combat["turn"]["actor"]
        foe = bruno if actor == ana else ana
        await community.act_ok(cid, {"type": "l5r.stance", "actor": actor, "stance": "attack"})
        answer = await community.act_ok(
            cid, {"type": "l5r.attack", "actor": actor, "target": foe, "raises": {"damage": 1}}
        )
        resolved = of_type(answer["events"], "action.resolved")
        assert resolved, answer["events"]
        data = resolved[0]["data"]
        assert {
            "total",
            "tn",
            "success",
            "damage",
            "wounds_before",
            "wounds_after",
            "rank",
            "steps",
        } <= set(data)
        assert data["tn"] == 15  # Reflexes 1 x 5 + 5, one raise
        await community.act_ok(cid, {"type": "l5r.pass", "actor": actor})
    ended = await community.wait_event(cid, "combat.ended")
    assert ended["data"]["reason"] == "defeat" and ended["data"]["winner"] in (
        "attackers",
        "defenders",
    )
    combat = await community.combat(cid)
    loser = bruno if ended["data"]["winner"] == "attackers" else ana
    assert combat["participants"][loser]["wound_rank"] in ("down", "out", "dead")
    dice = (await community.client.get(f"/v1/combats/{cid}/dice")).json()
    codes = {str(p) for p in RollPurpose}
    assert all(r["purpose"] in codes for r in dice["rolls"]), dice["rolls"]
    initiative = [r for r in dice["rolls"] if r["purpose"] == "initiative"]
    attacks = [r for r in dice["rolls"] if r["purpose"] == "attack"]
    assert initiative and all(r["action_id"] is None for r in initiative)
    assert attacks and all(str(r["action_id"]).startswith("a_") for r in attacks)
    assert dice["seed"]
    await verify_dice(community, cid)
    status = await community.status(ana)
    assert status["ruleset_status"]["l5r"]["void_max"] == 2


async def first_turn(community: HttpCommunity, cid: str, ana: str, bruno: str) -> tuple[str, str]:
    combat = await community.combat(cid)
    actor = combat["turn"]["actor"]
    return actor, (bruno if actor == ana else ana)


async def test_refusals_answer_422_with_code_and_rule(referee: Referee) -> None:
    community, cid, ana, bruno = await duel(referee)
    actor, foe = await first_turn(community, cid, ana, bruno)
    attack = {"type": "l5r.attack", "actor": actor, "target": foe}
    error = error_of(await community.act(cid, attack), 422, "stance_not_declared")
    assert error["rule"] == "l5r Paso 2 (order/stance)"
    await community.act_ok(cid, {"type": "l5r.stance", "actor": actor, "stance": "attack"})
    too_many = {**attack, "raises": {"damage": 3}}  # max(Void 2, kenjutsu 2) = 2
    error = error_of(await community.act(cid, too_many), 422, "too_many_raises")
    assert error["rule"] == "l5r Aumentos (max)" and error["details"]["max"] == 2
    spanish = await community.client.post(
        f"/v1/combats/{cid}/actions", json=too_many, headers={"Accept-Language": "es"}
    )
    assert error_of(spanish, 422, "too_many_raises")["message"] == "Demasiados aumentos."
    two_uses = {**attack, "void": ["mejora_die", "mejora_rank"]}  # no Persistencia with them
    error = error_of(await community.act(cid, two_uses), 422, "one_void_use_per_roll")
    assert error["rule"] == "l5r Vacío (one use)"
    await community.act_ok(cid, {"type": "l5r.pass", "actor": actor})
    await community.act_ok(cid, {"type": "l5r.stance", "actor": foe, "stance": "full_defense"})
    melee = {"type": "l5r.attack", "actor": foe, "target": actor}
    error = error_of(await community.act(cid, melee), 422, "action_not_allowed_in_stance")
    assert error["rule"] == "l5r Tabla posición/acción"
    not_yours = {"type": "l5r.simple", "actor": actor, "description": "bow"}
    error_of(await community.act(cid, not_yours), 422, "not_your_turn")
    moderator_annul = {"type": "annul", "actor": ana, "reason": "test over"}
    await community.act_ok(cid, moderator_annul)
    ended = await community.wait_event(cid, "combat.ended")
    assert ended["data"]["reason"] == "annulled"
