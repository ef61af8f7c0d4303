"""Health while a service is down (issue 16, item 5): the gateway stays ready and serves
reads, refuses the down service's commands at once with 503 and ``Retry-After``, and every
answer carries a request id."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys

import httpx
import pytest

from tests.e2e.referee import Referee, wait_until
from tests.support.play import challenge_body
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]


async def test_a_down_service_costs_its_commands_not_the_reads(own_suite: Suite) -> None:
    referee = Referee(own_suite)
    try:
        community = await referee.new_community()
        await community.register("ana", vel=6)
        await community.register("bruno", vel=5)
        client = community.client

        await asyncio.to_thread(own_suite.kill, "turns")

        async def degraded() -> dict[str, object] | None:
            answer = await client.get("/readyz")
            body: dict[str, object] = answer.json()
            return body if answer.status_code == 200 and body["status"] == "degraded" else None

        body = await wait_until(degraded, within=20, what="readyz to say degraded")
        consumers = body["checks"]["consumers"]  # type: ignore[index]
        assert consumers["turns"].startswith("no consumer"), consumers
        assert consumers["resolution"] == consumers["states"] == "ok"

        read = await client.get("/v1/characters/ana")
        assert read.status_code == 200
        assert len(read.headers["X-Request-ID"]) >= 8

        refused = await client.post(
            "/v1/combats",
            json=challenge_body("ana", "bruno", room="plaza"),
            headers={"X-Request-ID": "client-chosen-id-1"},
        )
        assert refused.status_code == 503, refused.text
        assert refused.headers["Retry-After"] == "5"
        assert refused.headers["X-Request-ID"] == "client-chosen-id-1"
        assert refused.json()["error"]["code"] == "dependency_unavailable"
        assert refused.json()["error"]["details"]["service"] == "turns"

        await asyncio.to_thread(own_suite.restart, "turns")
        await asyncio.to_thread(own_suite.wait_ready, 30)
        combat = await community.start_challenge("ana", "bruno", room="plaza")
        assert combat["phase"] == "preparation"
        await community.wait_event(combat["id"], "combat.started", lambda d: True, within=10)
        metrics = (await client.get("/metrics")).text
        (lag,) = [
            float(line.split()[1])
            for line in metrics.splitlines()
            if line.startswith("referee_recorder_lag_seconds ")
        ]
        assert 0 <= lag < 30
    finally:
        await referee.aclose()


async def test_every_answer_has_a_request_id(suite: Suite) -> None:
    async with httpx.AsyncClient(base_url=suite.base_url) as client:
        for path in ("/healthz", "/readyz", "/v1/settings", "/nowhere"):
            answer = await client.get(path)
            assert len(answer.headers["X-Request-ID"]) == 32, path
        bad = await client.get("/healthz", headers={"X-Request-ID": "bad id with spaces"})
        assert bad.headers["X-Request-ID"] != "bad id with spaces"


def health(suite: Suite, service: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shared.ops", "health", "--service", service],
        env=suite.env(),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


async def test_a_hung_replica_fails_its_own_health_check(own_suite: Suite) -> None:
    """SIGSTOP: the process still holds its connection (the broker sees a consumer), but it
    beats no more, so the health check of its host fails; SIGCONT brings it back."""
    first = await asyncio.to_thread(health, own_suite, "turns")
    assert first.returncode == 0, first.stdout + first.stderr
    assert first.stdout.startswith("healthy")
    proc = own_suite.procs["turns"]
    proc.send_signal(signal.SIGSTOP)
    try:

        async def unhealthy() -> str | None:
            done = await asyncio.to_thread(health, own_suite, "turns")
            return done.stdout if done.returncode == 1 else None

        said = await wait_until(
            unhealthy, within=25, what="turns to fail its health check", every=1
        )
        assert "no fresh heartbeat" in said
        # The other services' replicas are not affected.
        assert (await asyncio.to_thread(health, own_suite, "states")).returncode == 0
    finally:
        proc.send_signal(signal.SIGCONT)

    async def healthy_again() -> bool | None:
        return (
            True if (await asyncio.to_thread(health, own_suite, "turns")).returncode == 0 else None
        )

    await wait_until(healthy_again, within=20, what="turns to beat again", every=1)
