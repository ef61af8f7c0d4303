"""``make run`` (issue 12, defect 11): a service that dies is restarted on its own.

The suite is started as ``make run`` starts it (honcho over the Procfile, the virtual
environment first in ``PATH``), in a namespace and on a port of its own. A service killed
with SIGKILL comes back with a new pid while the other processes stay up; Ctrl-C (SIGINT
to honcho) still stops everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from redis.asyncio import Redis

from shared.keys import Keys
from shared.redis_client import redis_client
from shared.redis_streams import text
from tests.e2e.referee import wait_until
from tests.support.infra import delete_namespace_broker, delete_namespace_keys, new_namespace
from tests.support.suite import ROOT, Suite

pytestmark = [pytest.mark.e2e]

SERVICES = ("turns", "resolution", "states")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class MakeRun:
    """``honcho start -f Procfile`` with the environment ``make run`` gives it."""

    def __init__(self, suite: Suite, log: Path) -> None:
        self.suite = suite
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        empty_env = self.log.with_suffix(".env")
        empty_env.write_text("")
        venv_bin = Path(sys.executable).parent
        env = {**self.suite.env(), "PATH": f"{venv_bin}:{os.environ.get('PATH', '')}"}
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [str(venv_bin / "honcho"), "start", "-f", "Procfile", "-e", str(empty_env)],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # our own Ctrl-C target, like a terminal's foreground
            )

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@pytest.fixture
async def make_run(
    rabbitmq_url: str, redis_url: str, tmp_path: Path
) -> AsyncIterator[tuple[MakeRun, Redis]]:
    suite = Suite(new_namespace("e"), rabbitmq_url, redis_url, tmp_path)
    runner = MakeRun(suite, tmp_path / "make-run.log")
    redis = redis_client(redis_url)
    runner.start()
    try:
        yield runner, redis
    finally:
        if runner.proc is not None and runner.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(runner.proc.pid, signal.SIGKILL)
            runner.proc.wait(10)
        await delete_namespace_keys(redis, suite.namespace)
        await redis.aclose()
        await delete_namespace_broker(rabbitmq_url, suite.namespace)


async def service_pids(redis: Redis, keys: Keys, service: str) -> set[int]:
    """The pids whose heartbeat a service's replicas write (``host:pid``), alive ones only."""
    fields = await redis.hkeys(keys.heartbeat(service))
    pids = {int(text(f).rsplit(":", 1)[1]) for f in fields}
    return {pid for pid in pids if alive(pid)}


async def test_a_killed_service_comes_back_and_the_others_stay_up(
    make_run: tuple[MakeRun, Redis],
) -> None:
    runner, redis = make_run
    suite = runner.suite
    keys = Keys(suite.namespace)

    async def ready() -> bool | None:
        assert runner.running(), runner.text()[-3000:]
        with contextlib.suppress(httpx.HTTPError):
            async with httpx.AsyncClient(base_url=suite.base_url, timeout=5) as client:
                answer = await client.get("/readyz")
                if answer.status_code == 200 and answer.json().get("status") == "ready":
                    return True
        return None

    await wait_until(ready, within=90, what="make run to be ready", every=0.3)
    pids = {s: await service_pids(redis, keys, s) for s in SERVICES}
    assert all(len(p) == 1 for p in pids.values()), pids
    (victim,) = pids["resolution"]
    os.kill(victim, signal.SIGKILL)

    async def back() -> set[int] | None:
        assert runner.running(), "make run stopped: " + runner.text()[-3000:]
        now = await service_pids(redis, keys, "resolution")
        return now if now and victim not in now else None

    await wait_until(back, within=60, what="resolution to come back", every=0.3)
    for service in ("turns", "states"):
        assert await service_pids(redis, keys, service) == pids[service]
    await wait_until(ready, within=60, what="the suite to be ready again", every=0.3)
    assert "resolution" in runner.text() and "restarting" in runner.text()

    # Ctrl-C stops everything.
    assert runner.proc is not None
    runner.proc.send_signal(signal.SIGINT)
    await asyncio.to_thread(runner.proc.wait, 30)
    everyone = set().union(*(await _all_pids(redis, keys)))

    async def all_gone() -> bool | None:
        return True if not any(alive(pid) for pid in everyone) else None

    await wait_until(all_gone, within=15, what="every process to exit")


async def _all_pids(redis: Redis, keys: Keys) -> list[set[int]]:
    return [
        {int(text(f).rsplit(":", 1)[1]) for f in await redis.hkeys(keys.heartbeat(s))}
        for s in SERVICES
    ]
