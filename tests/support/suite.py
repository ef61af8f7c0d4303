"""Start the real processes the way ``make run`` does, in a namespace and on a port of their own.

Used by the end-to-end tests and by the benchmark. Each process is a child started with the
virtual environment's Python (``python -m gateway``, ``python -m services.turns``, ...); its
output goes to a log file. ``kill`` (SIGKILL) and ``restart`` let a test crash a service.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = {
    "gateway": "gateway",
    "turns": "services.turns",
    "resolution": "services.resolution",
    "states": "services.states",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Suite:
    namespace: str
    rabbitmq_url: str
    redis_url: str
    log_dir: Path
    port: int = field(default_factory=free_port)
    admin_token: str = "e2e-admin-token-0123456789abcdef"
    partitions: int = 4
    # Processes per service (the gateway stays one): the extra ones are named turns-2...
    replicas: int = 1
    extra_env: dict[str, str] = field(default_factory=dict)
    # Variables of one process only (a metrics port, a faster reconciler), by process name.
    process_env: dict[str, dict[str, str]] = field(default_factory=dict)
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def env(self, name: str | None = None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
        env.update(
            REFEREE_ENV="test",
            REFEREE_NAMESPACE=self.namespace,
            REFEREE_ADMIN_TOKEN=self.admin_token,
            REFEREE_PARTITIONS=str(self.partitions),
            RABBITMQ_URL=self.rabbitmq_url,
            REDIS_URL=self.redis_url,
            GATEWAY_HOST="127.0.0.1",
            GATEWAY_PORT=str(self.port),
            PYTHONUNBUFFERED="1",
            **self.extra_env,
        )
        env.update(self.process_env.get(name or "", {}))
        return env

    def start(self, name: str) -> None:
        """Start the process ``name``: ``turns``, or ``turns-2`` for a second replica."""
        with open(self.log_dir / f"{name}.log", "ab") as log:  # the child keeps its own fd
            self.procs[name] = subprocess.Popen(
                [sys.executable, "-m", PROCESSES[name.split("-")[0]]],
                cwd=ROOT,
                env=self.env(name),
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def start_all(self, *, ready_timeout: float = 60.0) -> None:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        for name in PROCESSES:
            self.start(name)
            if name != "gateway":
                for replica in range(2, self.replicas + 1):
                    self.start(f"{name}-{replica}")
        self.wait_ready(ready_timeout)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        last = ""
        while time.monotonic() < deadline:
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with {proc.returncode}: {self.tail(name)}")
            with contextlib.suppress(httpx.HTTPError):
                answer = httpx.get(f"{self.base_url}/readyz", timeout=5)
                # 200 already while a service starts (reads are served): wait for "ready",
                # every service consuming.
                if answer.status_code == 200 and answer.json().get("status") == "ready":
                    return
                last = answer.text
            time.sleep(0.2)
        raise RuntimeError(f"suite not ready after {timeout}s: {last}")

    def kill(self, name: str) -> None:
        """SIGKILL, as a crash: no cleanup in the process."""
        proc = self.procs[name]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)

    def restart(self, name: str) -> None:
        self.start(name)

    def freeze(self, name: str) -> None:
        """SIGSTOP: the process hangs with its connections open (its consumers stay attached)."""
        self.procs[name].send_signal(signal.SIGSTOP)

    def thaw(self, name: str) -> None:
        """SIGCONT: a frozen process goes on where it stopped."""
        self.procs[name].send_signal(signal.SIGCONT)

    def stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)

    def tail(self, name: str, lines: int = 40) -> str:
        path = self.log_dir / f"{name}.log"
        if not path.exists():
            return ""
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
