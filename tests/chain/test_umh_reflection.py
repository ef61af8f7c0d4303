"""umh 8.2.5.2 / 8.1.1.3.1: a reflected hit stays annulled for its first target, and its new
target may defend it like any hit aimed at him: he gets a window of his own. Driven through
the chain (the real turns and resolution handlers)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import error_of
from tests.support.sheets import JSON, defensive, offensive
from tests.support.steps import resolved_of
from tests.support.table import ChainCommunity, ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 60, "defense_seconds": 60}
ESPEJO: JSON = {
    "name": "Espejo",
    "tier": 1,
    "pa": 1,
    "type": "defensive",
    "defense_kind": "reflection",
    "natures": ["fisica"],
}
NADA: JSON = {**ESPEJO, "name": "Nada", "defense_kind": "annulment"}
PRESAGIO: JSON = {**ESPEJO, "name": "Presagio", "defense_kind": "anticipation", "damage": 10}


async def reflected(referee: ChainReferee) -> tuple[ChainCommunity, str, str, JSON]:
    """ana's Puño (300) on bruno, who reflects it back to her: her window on it."""
    community = await referee.new_community(timers=TIMERS)
    ana = [offensive("Puño", damage=300), defensive("Bloqueo", defense=100), NADA, PRESAGIO]
    await community.register("ana", vel=7, skills=ana)
    await community.register("bruno", vel=5, skills=[ESPEJO])
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    punch = await community.use_skill(cid, "ana", "Puño", ["bruno"])
    body = {
        "type": "react",
        "actor": "bruno",
        "action_id": punch["action_id"],
        "skill": "Espejo",
        "use_number": 1,
    }
    answer = await community.act_ok(cid, body)
    requested = [
        e["data"]
        for e in answer["events"]
        if e["type"] == "reaction.requested" and e["data"]["reactor"] == "ana"
    ]
    assert len(requested) == 1, answer["events"]
    return community, cid, punch["action_id"], requested[0]


def react(action_id: str, skill: str | None, **extra: Any) -> JSON:
    return {"type": "react", "actor": "ana", "action_id": action_id, "skill": skill, **extra}


@pytest.mark.parametrize(
    ("answer", "damage"),
    [
        pytest.param(None, 300, id="umh-8.2.5.2-taken"),
        pytest.param("Bloqueo", 200, id="umh-8.2.5.2-blocked-by-its-new-target"),
        pytest.param("Nada", None, id="umh-8.2.5.2-annulled-by-its-new-target"),
    ],
)
async def test_8_2_5_2_the_new_target_defends_a_reflected_hit(
    referee: ChainReferee, answer: str | None, damage: int | None
) -> None:
    """The hit stays annulled for bruno; ana, its new target, takes it, blocks it (300 -
    100) or annuls it."""
    community, cid, action_id, window = await reflected(referee)
    assert window["reflected_by"] == "bruno"
    combat = await community.combat(cid)
    (pending,) = combat["pending_reactions"]
    assert (pending["reactor"], pending["reflected_by"]) == ("ana", "bruno")
    extra = {"use_number": 1} if answer == "Nada" else {}
    await community.act_ok(cid, react(action_id, answer, **extra))
    resolved = await resolved_of(community, cid, action_id)
    assert resolved["cancelled"] is True
    assert [r["target"] for r in resolved["results"] if r["target"] == "bruno"] == []
    rows = [r for r in resolved["results"] if r["target"] == "ana"]
    if damage is None:
        assert rows == []
        return
    (row,) = rows
    assert row["damage"] == damage
    combat = await community.combat(cid)
    assert combat["participants"]["ana"]["vit"] == 1000 - damage
    assert combat["participants"]["bruno"]["vit"] == 1000


async def test_8_2_5_2_a_reflected_hit_is_not_anticipated(referee: ChainReferee) -> None:
    community, cid, action_id, _ = await reflected(referee)
    refused = await community.act(cid, react(action_id, "Presagio", use_number=1))
    assert error_of(refused, 422, "invalid_request")["rule"] == "umh 8.2.5.2"
