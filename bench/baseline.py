"""Start the bare stack, drive it as the suite is driven, clean up what it created."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import aio_pika
import httpx
from redis.asyncio import Redis

from bench.bare import ThreadServer, queue_name
from bench.load import Window
from bench.load import clients as client_pool
from bench.procs import cpu_over_window, per_operation
from bench.stats import Tally
from tests.support.infra import delete_namespace_keys
from tests.support.suite import ROOT, free_port

Bare = subprocess.Popen[bytes]
BODY = {"type": "skill", "actor": "a", "skill": "Golpe", "targets": ["b"]}


def spawn(port: int, namespace: str, rabbitmq_url: str, redis_url: str, log_dir: Path) -> Bare:
    """``python -m bench.bare`` in a child process, its output in ``log_dir/bare.log``."""
    log_dir.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "bench.bare", str(port), namespace]
    command += ["--rabbitmq-url", rabbitmq_url, "--redis-url", redis_url]
    with open(log_dir / "bare.log", "ab") as log:
        return subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)


async def _wait_up(base_url: str, proc: Bare | None, within: float) -> None:
    deadline = time.monotonic() + within
    async with httpx.AsyncClient(base_url=base_url, timeout=2) as client:
        while time.monotonic() < deadline:
            if proc is not None and proc.poll() is not None:
                raise RuntimeError(f"the bare stack exited with {proc.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get("/healthz")).status_code == 200:
                    return
            await asyncio.sleep(0.2)
    raise RuntimeError(f"the bare stack did not answer in {within}s")


async def _client(
    client: httpx.AsyncClient, index: int, tally: Tally, window: Window, stop_at: float
) -> None:
    body = {"room": f"r{index}", **BODY}
    while time.monotonic() < stop_at:
        sent = time.monotonic()
        try:
            answer = await client.post("/act", json=body)
            status = answer.status_code
        except httpx.HTTPError as exc:
            status = 0
            if sent in window:
                tally.error(f"transport {type(exc).__name__}")
        if sent in window:
            tally.record("bare", time.monotonic() - sent, status)
        if status >= 500 or status == 0:
            await asyncio.sleep(0.1)


async def drive(
    base_url: str, clients: int, warmup: float, seconds: float, cpu: Awaitable[dict[str, Any]]
) -> dict[str, Any]:
    """``clients`` loops, each one request at a time, for ``warmup + seconds``."""
    start = time.monotonic() + warmup
    window = Window(start, start + seconds)
    tally = Tally()
    cpu_task = asyncio.ensure_future(cpu)
    async with client_pool(base_url, clients) as pool:
        await asyncio.gather(
            *(_client(client, i, tally, window, window.end) for i, client in enumerate(pool))
        )
    figures = tally.summary(window.seconds)
    figures["cpu"] = await cpu_task
    per_operation(figures["cpu"], tally.completed)
    return figures


async def _cleanup(namespace: str, rabbitmq_url: str, redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    try:
        await delete_namespace_keys(redis, namespace)
    finally:
        await redis.aclose()
    connection = await aio_pika.connect(rabbitmq_url)
    try:
        channel = await connection.channel()
        with contextlib.suppress(Exception):
            await channel.queue_delete(queue_name(namespace))
    finally:
        await connection.close()


async def run_bare(
    *,
    namespace: str,
    rabbitmq_url: str,
    redis_url: str,
    clients: int,
    warmup: float,
    seconds: float,
    mode: str,
    log_dir: Path,
) -> dict[str, Any]:
    """Serve the bare stack (child process or thread), drive it, stop it, delete its names."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    proc: Bare | None = None
    thread: ThreadServer | None = None
    try:
        if mode == "thread":
            thread = ThreadServer(port, namespace, rabbitmq_url, redis_url)
            thread.start()
        else:
            proc = spawn(port, namespace, rabbitmq_url, redis_url, log_dir)
        await _wait_up(base_url, proc, 30)
        pids = {"bare stack": proc.pid} if proc is not None else {}
        async with contextlib.aclosing(Redis.from_url(redis_url)) as redis:
            cpu = cpu_over_window(pids, redis, warmup, seconds)
            figures = await drive(base_url, clients, warmup, seconds, cpu)
        figures["mode"] = mode
        return figures
    finally:
        if thread is not None:
            await asyncio.to_thread(thread.stop)
        if proc is not None:
            proc.terminate()
            try:
                await asyncio.to_thread(proc.wait, 15)
            except subprocess.TimeoutExpired:
                proc.kill()
        await _cleanup(namespace, rabbitmq_url, redis_url)
