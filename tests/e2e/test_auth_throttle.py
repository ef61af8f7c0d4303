"""Failed authentication is throttled per client address (issue 12, defect 10).

Wrong admin tokens and wrong community keys from one address get 401 until the address
has failed too often, then 429 with ``Retry-After`` for every credential it presents; other
addresses are not affected. The tests name their address with ``X-Forwarded-For`` (the
gateway trusts it from loopback, as it trusts a proxy in front of it).
"""

from __future__ import annotations

import asyncio
import uuid

import pytest

from tests.e2e.referee import Referee
from tests.support.play import error_of, expect

pytestmark = [pytest.mark.e2e]

ATTEMPTS = 100  # the default allows 20 failures at once


def address() -> str:
    """A client address of its own (TEST-NET-2, only ever a header value here)."""
    return f"198.51.100.{uuid.uuid4().int % 250 + 1}"


def from_address(addr: str, token: str) -> dict[str, str]:
    return {"X-Forwarded-For": addr, "Authorization": f"Bearer {token}"}


async def test_wrong_admin_tokens_are_throttled_per_address(referee: Referee) -> None:
    client = referee.client()
    attacker = address()
    headers = from_address(attacker, "not-the-admin-token")
    answers = await asyncio.gather(
        *(
            client.post("/v1/admin/communities", json={"name": "x"}, headers=headers)
            for _ in range(ATTEMPTS)
        )
    )
    statuses = [a.status_code for a in answers]
    assert set(statuses) == {401, 429}, statuses
    limited = next(a for a in answers if a.status_code == 429)
    error_of(limited, 429, "rate_limited")
    assert int(limited.headers["Retry-After"]) >= 1

    # While throttled, the address gets 429 even with the right token (no more guesses)...
    right = from_address(attacker, referee.suite.admin_token)
    again = await client.post("/v1/admin/communities", json={"name": "x"}, headers=right)
    error_of(again, 429, "rate_limited")
    # ... and another address is not affected.
    other = from_address(address(), referee.suite.admin_token)
    created = await client.post("/v1/admin/communities", json={"name": "ok"}, headers=other)
    expect(created, 201)


async def test_wrong_community_keys_are_throttled_per_address(referee: Referee) -> None:
    community = await referee.new_community()
    client = referee.client()
    attacker = address()
    answers = await asyncio.gather(
        *(
            client.get("/v1/settings", headers=from_address(attacker, f"rk_guess{n}"))
            for n in range(ATTEMPTS)
        )
    )
    statuses = [a.status_code for a in answers]
    assert set(statuses) == {401, 429}, statuses
    limited = next(a for a in answers if a.status_code == 429)
    assert int(error_of(limited, 429, "rate_limited")["details"]["retry_after_seconds"]) >= 1

    honest = from_address(address(), community.api_key)
    expect(await client.get("/v1/settings", headers=honest), 200)
