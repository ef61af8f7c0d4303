"""umh 8.2.2.2 / 8.2.2.2.1 / 8.2.3.1: a supplementary skill gets the windows of an offensive
one for the opponents able to stop it: an annulment always, an anticipation when the skill
has a physical preparation or the anticipation reads minds (precognition). Driven through
the chain (the real turns and resolution handlers)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.play import error_of
from tests.support.sheets import JSON, defensive, supplementary, umh_sheet
from tests.support.steps import resolved_of
from tests.support.table import ChainCommunity, ChainReferee

TIMERS = {"preparation_seconds": 1, "turn_seconds": 60, "defense_seconds": 60}


def guard(name: str, kind: str, **fields: Any) -> JSON:
    base: JSON = {"name": name, "tier": 1, "pa": 1, "type": "defensive", "defense_kind": kind}
    return {**base, "natures": ["fisica"], **fields}


async def buffing(
    referee: ChainReferee, buff: JSON, answers: list[JSON]
) -> tuple[ChainCommunity, str, JSON]:
    """ana uses ``buff`` in her first turn; bruno holds ``answers``. The action's answer."""
    community = await referee.new_community(timers=TIMERS)
    await community.register("ana", vel=7, skills=[buff])
    await community.register("bruno", vel=5, skills=[defensive("Bloqueo"), *answers])
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    used = await community.use_skill(cid, "ana", buff["name"])
    return community, cid, used


def answer(actor: str, action_id: str, skill: str | None, **extra: Any) -> JSON:
    return {"type": "react", "actor": actor, "action_id": action_id, "skill": skill, **extra}


async def test_8_2_3_1_an_annulment_stops_a_supplementary_skill(referee: ChainReferee) -> None:
    """bruno gets a window on ana's Concentración; a block cannot answer it (not_targeted),
    his annulment does: the skill is cancelled and its PA are not given back (8.2.3.4)."""
    community, cid, used = await buffing(
        referee, supplementary("Concentración"), [guard("Nada", "annulment")]
    )
    (window,) = used["combat"]["pending_reactions"]
    assert (window["reactor"], window["action_id"]) == ("bruno", used["action_id"])
    block = await community.act(cid, answer("bruno", used["action_id"], "Bloqueo"))
    assert error_of(block, 422, "not_targeted")["rule"] == "umh 8.1.1.3.1"
    await community.act_ok(cid, answer("bruno", used["action_id"], "Nada", use_number=1))
    resolved = await resolved_of(community, cid, used["action_id"])
    assert (resolved["cancelled"], resolved["refunds"]) == (True, {})


@pytest.mark.parametrize(
    ("prepared", "foresees", "allowed"),
    [
        pytest.param(False, False, False, id="umh-8.2.2.2.1-no-preparation-no-precognition"),
        pytest.param(True, False, True, id="umh-8.2.2.2.1-physical-preparation"),
        pytest.param(False, True, True, id="umh-8.2.2.2.1-precognition"),
    ],
)
async def test_8_2_2_2_1_anticipating_a_supplementary_skill(
    referee: ChainReferee, prepared: bool, foresees: bool, allowed: bool
) -> None:
    """An anticipation stops it only with a physical preparation or precognition; without
    either bruno has no window at all (nothing of his could stop it)."""
    buff = {**supplementary("Concentración"), "physical_preparation": prepared}
    foresight = guard("Adelanto", "anticipation", damage=50, precognition=foresees)
    community, cid, used = await buffing(referee, buff, [foresight])
    if not allowed:
        assert used["combat"]["pending_reactions"] == []
        resolved = await resolved_of(community, cid, used["action_id"])
        assert resolved["cancelled"] is False
        return
    (window,) = used["combat"]["pending_reactions"]
    assert window["reactor"] == "bruno"
    await community.act_ok(cid, answer("bruno", used["action_id"], "Adelanto", use_number=1))
    combat = await community.combat(cid)
    for pending in combat["pending_reactions"]:  # umh 8.2.2.4: ana may answer it
        if pending["reactor"] == "ana":
            await community.act_ok(cid, answer("ana", pending["action_id"], None))
    resolved = await resolved_of(community, cid, used["action_id"])
    assert resolved["cancelled"] is True
    assert [r["damage"] for r in resolved["results"] if r["target"] == "ana"] == [50]


async def test_8_2_2_2_1_an_anticipation_without_precognition_is_refused(
    referee: ChainReferee,
) -> None:
    """bruno has a window (his annulment could stop it) but his plain anticipation cannot:
    cannot_anticipate_supplementary."""
    community, cid, used = await buffing(
        referee,
        supplementary("Concentración"),
        [guard("Adelanto", "anticipation", damage=50), guard("Nada", "annulment")],
    )
    tried = await community.act(cid, answer("bruno", used["action_id"], "Adelanto", use_number=1))
    error = error_of(tried, 422, "cannot_anticipate_supplementary")
    assert error["rule"] == "umh 8.2.2.2.1"
    await community.act_ok(cid, answer("bruno", used["action_id"], None))
    resolved = await resolved_of(community, cid, used["action_id"])
    assert resolved["cancelled"] is False


@pytest.mark.parametrize(
    ("skill", "field"),
    [
        pytest.param(
            guard("Adelanto", "anticipation", physical_preparation=True),
            "physical_preparation",
            id="umh-8.2.2.2.1-preparation-only-on-supplementary-skills",
        ),
        pytest.param(
            {**supplementary("Concentración"), "precognition": True},
            "precognition",
            id="umh-8.2.2.2.1-precognition-only-on-anticipations",
        ),
    ],
)
async def test_8_2_2_2_1_the_sheet_states_them_where_they_belong(
    referee: ChainReferee, skill: JSON, field: str
) -> None:
    community = await referee.new_community()
    body = umh_sheet("Ana", skills=[skill])
    refused = await community.client.put("/v1/characters/ana", json=body)
    error = error_of(refused, 422, "invalid_request")
    assert field in str(error["details"]), error
