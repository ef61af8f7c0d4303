"""Hostile bodies (issue 12, defects 8 and 10): too large, or declared and never sent.

A body over the limit gets 413 with the error body whether it declares its length or comes
chunked; a request that declares a body and stalls is cut after the body timeout with 408
and the connection closed, so it cannot hold a connection open.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest

from shared.settings import GatewaySettings
from tests.e2e.referee import HttpCommunity, Referee, start_suite, stop_suite
from tests.support.play import error_of
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]

BODY_TIMEOUT = 2
LIMIT = 256 * 1024


@pytest.fixture(scope="module")
async def quick_cut(
    rabbitmq_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Suite]:
    """A suite whose gateway waits only BODY_TIMEOUT seconds for a body."""
    running = await start_suite(
        rabbitmq_url,
        redis_url,
        tmp_path_factory.mktemp("e2e-bodies"),
        extra_env={"REFEREE_BODY_TIMEOUT_SECONDS": str(BODY_TIMEOUT)},
    )
    try:
        yield running
    finally:
        await stop_suite(running)


@pytest.fixture(scope="module")
async def community(referee: Referee) -> HttpCommunity:
    return await referee.new_community()


async def test_a_body_over_the_limit_gets_413_with_the_error_body_with_or_without_length(
    community: HttpCommunity,
) -> None:
    big = json.dumps({"room": "x" * (LIMIT + 10)}).encode()
    headers = {"Content-Type": "application/json"}

    declared = await community.client.post("/v1/combats", content=big, headers=headers)
    assert declared.request.headers["Content-Length"] == str(len(big))
    error_of(declared, 413, "payload_too_large")

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(big), 64 * 1024):
            yield big[start : start + 64 * 1024]

    chunked = await community.client.post("/v1/combats", content=chunks(), headers=headers)
    assert "Content-Length" not in chunked.request.headers
    error_of(chunked, 413, "payload_too_large")

    spanish = await community.client.post(
        "/v1/combats", content=big, headers={**headers, "Accept-Language": "es"}
    )
    assert error_of(spanish, 413, "payload_too_large")["message"].startswith("El cuerpo")


async def _stalled_request(suite: Suite, api_key: str, *, within: float) -> bytes:
    """Declare a 1000-byte body, send 10 bytes, then wait for whatever the server does."""
    reader, writer = await asyncio.open_connection("127.0.0.1", suite.port)
    try:
        writer.write(
            b"POST /v1/combats HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + f"Authorization: Bearer {api_key}\r\n".encode()
            + b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            + b'{"room": "'
        )
        await writer.drain()
        async with asyncio.timeout(within):
            return await reader.read()  # until the server closes the connection
    finally:
        writer.close()


async def test_a_request_that_declares_a_body_and_stalls_is_cut_with_408(
    quick_cut: Suite,
) -> None:
    api = Referee(quick_cut)
    try:
        community = await api.new_community()
        try:
            answer = await _stalled_request(quick_cut, community.api_key, within=BODY_TIMEOUT + 8)
        except TimeoutError:
            pytest.fail(f"the stalled request was still open {BODY_TIMEOUT + 8} s later")
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b"connection: close" in head.lower()
        assert json.loads(body)["error"]["code"] == "request_timeout"
        # The gateway still serves everyone else.
        assert (await community.client.get("/v1/settings")).status_code == 200
    finally:
        await api.aclose()


def test_the_default_body_timeout_is_between_10_and_20_seconds() -> None:
    default = GatewaySettings.model_fields["referee_body_timeout_seconds"].default
    assert 10 <= default <= 20
