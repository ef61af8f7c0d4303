"""Rate limits per key: a noisy community gets 429 with Retry-After, the others do not.

The suite of this test has a small rate (2 a second, a burst of 20), so a flood exceeds it
however slowly a busy machine serves the requests: the limit is what is checked, not speed.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from tests.e2e.referee import Referee, start_suite, stop_suite
from tests.support.play import error_of

pytestmark = [pytest.mark.e2e]


@pytest.fixture
async def slow_referee(
    rabbitmq_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Referee]:
    suite = await start_suite(
        rabbitmq_url,
        redis_url,
        tmp_path_factory.mktemp("e2e-rate-logs"),
        extra_env={"REFEREE_RATE_PER_SECOND": "2", "REFEREE_RATE_BURST": "20"},
    )
    api = Referee(suite)
    try:
        yield api
    finally:
        await api.aclose()
        await stop_suite(suite)


async def test_a_flooding_key_is_limited_and_another_community_is_not(
    slow_referee: Referee,
) -> None:
    noisy = await slow_referee.new_community()
    quiet = await slow_referee.new_community()
    flooder = slow_referee.client(await noisy.key("frontend"))

    answers = await asyncio.gather(*(flooder.get("/v1/settings") for _ in range(60)))
    assert {a.status_code for a in answers} == {200, 429}
    limited = [a for a in answers if a.status_code == 429]
    body = error_of(limited[0], 429, "rate_limited")
    assert int(limited[0].headers["Retry-After"]) >= 1
    assert limited[0].headers["RateLimit-Policy"] == '"key";q=20;w=10'
    assert limited[0].headers["RateLimit"].startswith('"key";r=0;t=')
    assert body["details"]["retry_after_seconds"] >= 1

    quiet_answers = await asyncio.gather(*(quiet.client.get("/v1/settings") for _ in range(10)))
    assert {a.status_code for a in quiet_answers} == {200}
