"""Dice on the server: a combat commits to its seed at the start and reveals it at the end;
free rolls; the verifier recomputes a combat's rolls from its log."""

from __future__ import annotations

import pytest

from shared.dice.streams import commitment
from tests.e2e.referee import Referee, verify_dice
from tests.support.play import error_of

pytestmark = [pytest.mark.e2e]


async def test_a_combat_commits_to_its_seed_and_reveals_it_when_it_ends(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    await community.register("ana")
    await community.register("bruno")
    combat = await community.start_challenge("ana", "bruno")
    cid = combat["id"]
    promised = combat["dice"]["commitment"]
    assert len(promised) == 64 and combat["dice"]["seed"] is None

    dice = (await community.client.get(f"/v1/combats/{cid}/dice")).json()
    assert (dice["commitment"], dice["seed"], dice["rolls"]) == (promised, None, [])

    moderator_annul = {"type": "annul", "actor": "ana", "reason": "test"}
    await community.act_ok(cid, moderator_annul)
    ended = await community.wait_combat(cid, lambda c: c["phase"] == "ended", what="ended")
    seed = ended["dice"]["seed"]
    assert seed and commitment(seed) == promised

    await verify_dice(community, cid)


@pytest.mark.parametrize(
    ("expression", "dice", "lowest", "highest"),
    [
        pytest.param("1d20", 1, 1, 20, id="d20"),
        pytest.param("3d6+2", 3, 5, 20, id="3d6+2"),
        pytest.param("4d6kh3", 4, 3, 18, id="keep-highest"),
    ],
)
async def test_free_rolls(
    referee: Referee, expression: str, dice: int, lowest: int, highest: int
) -> None:
    community = await referee.new_community()
    answer = await community.client.post("/v1/dice/roll", json={"expression": expression})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert len(body["dice"]) == dice and lowest <= body["total"] <= highest


async def test_a_roll_and_keep_roll_explodes_tens_and_follows_the_ten_dice_rule(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    body = (await community.client.post("/v1/dice/roll", json={"expression": "12k4"})).json()
    assert body["spec"] == "10k5" and len(body["dice"]) == 10 and len(body["kept"]) == 5
    for chain in body["dice"]:
        assert all(face == 10 for face in chain[:-1]) and 1 <= chain[-1] <= 10


async def test_a_bad_expression_is_a_422_with_the_field(referee: Referee) -> None:
    community = await referee.new_community()
    answer = await community.client.post("/v1/dice/roll", json={"expression": "3x2"})
    body = error_of(answer, 422, "invalid_request")
    assert body["details"]["errors"][0]["path"] == "body.expression"
