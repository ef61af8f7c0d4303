"""Rate limits per key: a noisy community gets 429 with Retry-After, the others do not."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.referee import Referee
from tests.support.play import error_of

pytestmark = [pytest.mark.e2e]


async def test_a_flooding_key_is_limited_and_another_community_is_not(referee: Referee) -> None:
    noisy = await referee.new_community()
    quiet = await referee.new_community()
    flooder = referee.client(await noisy.key("frontend"))

    answers = await asyncio.gather(*(flooder.get("/v1/settings") for _ in range(250)))
    limited = [a for a in answers if a.status_code == 429]
    assert limited, "250 requests at once must exceed the default burst of 100"
    assert {a.status_code for a in answers} <= {200, 429}
    body = error_of(limited[0], 429, "rate_limited")
    assert int(limited[0].headers["Retry-After"]) >= 1
    assert body["details"]["retry_after_seconds"] >= 1

    quiet_answers = await asyncio.gather(*(quiet.client.get("/v1/settings") for _ in range(20)))
    assert {a.status_code for a in quiet_answers} == {200}
