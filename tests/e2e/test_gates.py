"""services/states' gates before a combat starts or someone joins (``states.check``)."""

from __future__ import annotations

import pytest

from tests.e2e.referee import Referee
from tests.support.play import challenge_body, error_of, unique

pytestmark = [pytest.mark.e2e]


async def test_a_character_in_a_combat_cannot_be_put_in_another(referee: Referee) -> None:
    community = await referee.new_community()
    for character in ("ana", "bruno", "carla"):
        await community.register(character)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)

    answer = await community.client.post(
        "/v1/combats", json=challenge_body("carla", "bruno", room=unique("room"))
    )
    body = error_of(answer, 422, "already_in_combat")
    assert body["details"]["character"] == "bruno"
    listed = (await community.client.get("/v1/combats")).json()["combats"]
    assert [c["id"] for c in listed] == [cid]  # nothing was started
