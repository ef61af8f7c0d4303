"""One vocabulary for every ruleset (issue 17): ``pass_turn``, ``flee`` and ``ready`` mean the
same in cypher and l5r as in umh, through the gateway and the three services' handlers; and
every roll of ``GET /v1/combats/{id}/dice`` names its ``purpose`` code and its ``action_id``."""

from __future__ import annotations

from typing import Any

import pytest

from shared.dice.purpose import RollPurpose
from tests.support.play import error_of, expect, start_in, unique
from tests.support.sheets import npc, pc, samurai
from tests.support.steps import register_sheet
from tests.support.table import ChainReferee

JSON = dict[str, Any]


async def rolls_of(community: Any, cid: str) -> list[JSON]:
    """The combat's ``dice.rolled`` records (what ``GET /v1/combats/{id}/dice`` lists)."""
    return [e["data"] for e in await community.events_of(cid) if e["type"] == "dice.rolled"]


def types(answer: JSON) -> list[str]:
    return [e["type"] for e in answer["events"]]


async def l5r_fighting(referee: ChainReferee) -> tuple[Any, str, str, str]:
    """An l5r combat taken past its preparation round by the shared ``ready``."""
    community = await referee.new_community()
    ana, bruno = unique("ana"), unique("bruno")
    for cid in (ana, bruno):
        expect(await community.client.put(f"/v1/characters/{cid}", json=samurai(cid)), 200, 201)
    combat = await start_in(community, "l5r", ana, [bruno])
    assert combat["phase"] == "preparation"
    first = await community.act_ok(combat["id"], {"type": "ready", "actor": ana})
    assert "combatant.ready" in types(first) or first["combat"]["phase"] == "preparation"
    answer = await community.act_ok(combat["id"], {"type": "ready", "actor": bruno})
    assert answer["combat"]["phase"] == "fighting", answer["combat"]
    return community, combat["id"], ana, bruno


async def test_l5r_ready_ends_the_preparation_like_l5r_ready(referee: ChainReferee) -> None:
    """l5r Paso 1: ``ready`` is ``l5r.ready``; once all are ready initiative is rolled."""
    community, cid, _, _ = await l5r_fighting(referee)
    rolls = await rolls_of(community, cid)
    initiative = [r for r in rolls if r["purpose"] == RollPurpose.INITIATIVE]
    assert len(initiative) == 2 and all(r["action_id"] is None for r in initiative)


async def test_l5r_pass_turn_ends_the_turn(referee: ChainReferee) -> None:
    """l5r Paso 2: ``pass_turn`` ends the turn as ``l5r.pass`` does (no longer
    ``invalid_request``)."""
    community, cid, ana, bruno = await l5r_fighting(referee)
    actor = (await community.combat(cid))["turn"]["actor"]
    stance = {"type": "l5r.stance", "actor": actor, "stance": "full_defense"}
    declared = await community.act_ok(cid, stance)
    answer = await community.act_ok(cid, {"type": "pass_turn", "actor": actor})
    assert "turn.ended" in types(answer)
    assert answer["combat"]["turn"]["actor"] == ({ana, bruno} - {actor}).pop()
    full = [r for r in await rolls_of(community, cid) if r["purpose"] == RollPurpose.FULL_DEFENSE]
    assert [r["action_id"] for r in full] == [declared["action_id"]]


async def test_l5r_flee_leaves_the_combat(referee: ChainReferee) -> None:
    """l5r Paso 3: ``flee`` is ``l5r.flee``, out of turn too; an escape skill is umh's."""
    community, cid, ana, bruno = await l5r_fighting(referee)
    actor = (await community.combat(cid))["turn"]["actor"]
    other = ({ana, bruno} - {actor}).pop()
    refused = await community.act(cid, {"type": "flee", "actor": other, "skill": "Huida"})
    error_of(refused, 422, "invalid_request")
    answer = await community.act_ok(cid, {"type": "flee", "actor": other})
    assert "combatant.fled" in types(answer)
    assert answer["combat"]["phase"] == "ended"


async def cypher_combat(referee: ChainReferee) -> tuple[Any, str]:
    community = await referee.new_community()
    await register_sheet(community, "ana", pc("Ana"))
    await register_sheet(community, "orco", npc("Orco"))
    combat = await start_in(community, "cypher", "ana", ["orco"])
    return community, combat["id"]


@pytest.mark.parametrize(
    ("body", "status", "outcome"),
    [
        ({"type": "ready"}, 422, "wrong_phase"),
        ({"type": "pass_turn"}, 200, "turn.ended"),
        ({"type": "flee"}, 200, "combatant.fled"),
        ({"type": "flee", "skill": "Huida"}, 422, "invalid_request"),
    ],
)
async def test_cypher_shared_words(
    referee: ChainReferee, body: JSON, status: int, outcome: str
) -> None:
    """cypher ACCIÓN: ``pass_turn`` and ``flee`` are the turn's action; ``ready`` ends a
    preparation round, and a cypher combat has none (``wrong_phase``)."""
    community, cid = await cypher_combat(referee)
    actor = (await community.combat(cid))["turn"]["actor"]
    answer = await community.act(cid, {**body, "actor": actor})
    if status == 200:
        assert outcome in types(expect(answer, 200).json())
    else:
        error_of(answer, status, outcome)


async def test_cypher_rolls_name_purpose_and_action(referee: ChainReferee) -> None:
    """A cypher attack's roll names ``attack`` (or the PC's ``defense``) and its action."""
    community, cid = await cypher_combat(referee)
    actor = (await community.combat(cid))["turn"]["actor"]
    target = "orco" if actor == "ana" else "ana"
    attack = "Espada" if actor == "ana" else "Garra"
    body = {"type": "cypher.attack", "actor": actor, "target": target, "attack": attack}
    answer = await community.act_ok(cid, body)
    every = await rolls_of(community, cid)
    rolls = [r for r in every if r["action_id"] == answer["action_id"]]
    assert rolls and {r["purpose"] for r in rolls} <= {RollPurpose.ATTACK, RollPurpose.DEFENSE}
    initiative = [r for r in every if r["purpose"] == RollPurpose.INITIATIVE]
    assert initiative and all(r["action_id"] is None for r in initiative)


async def test_l5r_joining_a_combat_under_way(referee: ChainReferee) -> None:
    """l5r (issue 17, docs/l5r.md "Joining"): a third samurai joins the defenders while they
    fight; he rolls his one initiative at once and has his first turn in the next round."""
    community, cid, _, _ = await l5r_fighting(referee)
    carla = unique("carla")
    expect(await community.client.put(f"/v1/characters/{carla}", json=samurai(carla)), 200, 201)
    body = {"type": "join", "actor": carla, "side": "defenders", "via": "llamada_de_auxilio"}
    joined = await community.act_ok(cid, body)
    wanted = ("combatant.joined", "dice.rolled", "initiative.rolled")
    assert [t for t in types(joined) if t in wanted] == list(wanted)
    combat = joined["combat"]
    assert carla in combat["participants"] and carla in combat["sides"]["defenders"]
    assert carla not in combat["turn_order"]
    again = await community.act(cid, body)
    error_of(again, 422, "already_in_combat")
    for _ in range(3):  # the round under way ends: Ana and Bruno pass
        actor = (await community.combat(cid))["turn"]["actor"]
        if actor == carla:
            break
        await community.act_ok(cid, {"type": "l5r.stance", "actor": actor, "stance": "attack"})
        await community.act_ok(cid, {"type": "pass_turn", "actor": actor})
    combat = await community.combat(cid)
    assert combat["round"] == 2 and carla in combat["turn_order"]
