"""schemathesis against /openapi.json of the running suite: no server error, and no answer
(status, content type, body, headers) outside what the schema documents."""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.referee import Referee, start_suite, stop_suite
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CHECKS = ",".join(
    [
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
        "response_headers_conformance",
        "allow_header_conformance",
        "unsupported_method",
        "missing_required_header",
        "ignored_auth",
    ]
)


def st_command() -> list[str]:
    """The schemathesis CLI of this virtual environment."""
    local = Path(sys.executable).with_name("st")
    return [str(local)] if local.exists() else [shutil.which("st") or "st"]


@pytest.fixture
async def unthrottled(
    rabbitmq_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Suite]:
    """A suite whose throttle of failed authentications never closes: schemathesis sends
    wrong keys and stream tokens on purpose, and then checks that a call without a key gets
    401, which a closed throttle would answer 429 (tests/e2e/test_auth_throttle.py)."""
    running = await start_suite(
        rabbitmq_url,
        redis_url,
        tmp_path_factory.mktemp("e2e-st-logs"),
        extra_env={"REFEREE_AUTH_FAILURE_BURST": "1000000"},
    )
    try:
        yield running
    finally:
        await stop_suite(running)


@pytest.mark.timeout(300)
async def test_schemathesis_finds_nothing(unthrottled: Suite) -> None:
    suite = unthrottled
    referee = Referee(suite)
    community = await referee.new_community()
    seconds = 40
    process = await asyncio.create_subprocess_exec(
        *st_command(),
        "run",
        f"{suite.base_url}/openapi.json",
        "--header",
        f"Authorization: Bearer {community.api_key}",
        "--checks",
        CHECKS,
        "--exclude-path",
        "/v1/events",  # an endless Server-Sent Events stream
        "--phases",
        "examples,coverage,fuzzing",
        "--max-time",
        str(seconds),
        "--request-timeout",
        "10",
        # One worker: with two threads, hypothesis describing a filter lambda met CPython
        # 3.11's ast.parse thread bug ("AST constructor recursion depth mismatch") in CI.
        "--workers",
        "1",
        "--rate-limit",
        "40/s",  # under the key's own limit (50/s), so the API is exercised, not the limiter
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await process.communicate()
    text = output.decode(errors="replace")
    assert process.returncode == 0, text[-6000:]
    assert "passed" in text, text[-3000:]
    await referee.aclose()
