"""A RabbitMQ node and a Redis of the chaos run's own, on ports of their own.

They are never the shared servers of the machine: restarting or killing them hurts nobody
else. RabbitMQ runs from the installed server's scripts with its own node name, ports,
database, logs and Erlang cookie, and only the consistent-hash plugin; Redis runs with
``appendonly yes`` and ``appendfsync always`` in a directory of its own.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.suite import free_port

RABBITMQ_SBIN = Path("/usr/lib/rabbitmq/lib")


def rabbitmq_sbin() -> Path:
    """The sbin folder of the installed RabbitMQ (3.10 on this machine)."""
    found = sorted(RABBITMQ_SBIN.glob("rabbitmq_server-*/sbin"))
    if not found:
        raise RuntimeError("RabbitMQ server scripts not found under /usr/lib/rabbitmq/lib")
    return found[-1]


def wait_port(port: int, *, timeout: float, up: bool = True) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                if up:
                    return
        except OSError:
            if not up:
                return
        time.sleep(0.2)
    raise RuntimeError(f"port {port} not {'up' if up else 'down'} after {timeout}s")


@dataclass
class PrivateRabbit:
    base: Path
    name: str = field(default_factory=lambda: f"chaos{os.getpid()}x{free_port()}")
    port: int = field(default_factory=free_port)
    dist_port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.port}/"

    @property
    def node(self) -> str:
        return f"{self.name}@localhost"

    def env(self) -> dict[str, str]:
        home = self.base / "home"
        home.mkdir(parents=True, exist_ok=True)
        (self.base / "enabled_plugins").write_text("[rabbitmq_consistent_hash_exchange].\n")
        (self.base / "rabbitmq.conf").write_text("loopback_users = none\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("RABBITMQ_")}
        env.update(
            HOME=str(home),
            RABBITMQ_NODENAME=self.node,
            RABBITMQ_NODE_IP_ADDRESS="127.0.0.1",
            RABBITMQ_NODE_PORT=str(self.port),
            RABBITMQ_DIST_PORT=str(self.dist_port),
            RABBITMQ_MNESIA_BASE=str(self.base / "mnesia"),
            RABBITMQ_LOG_BASE=str(self.base / "log"),
            RABBITMQ_ENABLED_PLUGINS_FILE=str(self.base / "enabled_plugins"),
            RABBITMQ_PLUGINS_EXPAND_DIR=str(self.base / "plugins-expand"),
            RABBITMQ_CONFIG_FILE=str(self.base / "rabbitmq"),
            RABBITMQ_PID_FILE=str(self.base / "pid"),
        )
        return env

    def start(self, *, timeout: float = 90) -> None:
        self.base.mkdir(parents=True, exist_ok=True)
        with open(self.base / "server.log", "ab") as log:
            self.process = subprocess.Popen(
                [str(rabbitmq_sbin() / "rabbitmq-server")],
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_port(self.port, timeout=timeout)
        self.ctl("await_startup", timeout=timeout)

    def ctl(self, *args: str, timeout: float = 60) -> str:
        done = subprocess.run(
            [str(rabbitmq_sbin() / "rabbitmqctl"), "-n", self.node, *args],
            env=self.env(),
            capture_output=True,
            timeout=timeout,
            check=False,
        )
        return done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")

    def restart(self) -> None:
        """Stop the broker application and start it again: every connection drops."""
        self.ctl("stop_app")
        self.ctl("start_app")
        wait_port(self.port, timeout=60)

    def stop(self) -> None:
        if self.process is None:
            return
        self.ctl("stop", timeout=60)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.base, ignore_errors=True)


@dataclass
class PrivateRedis:
    base: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, *, timeout: float = 30) -> None:
        self.base.mkdir(parents=True, exist_ok=True)
        with open(self.base / "server.log", "ab") as log:
            self.process = subprocess.Popen(
                [
                    shutil.which("redis-server") or "redis-server",
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--dir",
                    str(self.base),
                    "--appendonly",
                    "yes",
                    "--appendfsync",
                    "always",
                    "--save",
                    "",
                    "--maxmemory-policy",
                    "noeviction",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        wait_port(self.port, timeout=timeout)

    def kill(self) -> None:
        """SIGKILL: no shutdown, no final save; only the append-only file remains."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None
        wait_port(self.port, timeout=10, up=False)

    def restart(self) -> None:
        self.kill()
        self.start()

    def remove(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None
        shutil.rmtree(self.base, ignore_errors=True)
