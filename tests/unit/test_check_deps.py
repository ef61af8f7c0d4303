"""``make run`` on a fresh machine (issue 16, item 1): deploy/check_deps.py starts a local
RabbitMQ or Redis that is installed but stopped, enables the consistent-hash plugin, and
says what to install when a server is missing. Every server binary here is a fake on a
``PATH`` of the test's own: nothing real is started, stopped or enabled.
"""

from __future__ import annotations

import importlib.util
import socket
import struct
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from shared.settings import GatewaySettings

ROOT = Path(__file__).resolve().parents[2]


def load_check_deps() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_deps", ROOT / "deploy/check_deps.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_deps"] = module
    spec.loader.exec_module(module)
    return module


deps = load_check_deps()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def fake(bin_dir: Path, name: str, body: str) -> Path:
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.fixture
def bin_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty PATH of the test's own (plus /bin for sh) and no sbin folders."""
    folder = tmp_path / "bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", f"{folder}")
    monkeypatch.setenv("CHECK_DEPS_SBIN", "")
    monkeypatch.setenv("CHECK_DEPS_START_TIMEOUT", "1")
    monkeypatch.delenv("CHECK_DEPS_NO_START", raising=False)
    monkeypatch.chdir(tmp_path)
    return folder


@pytest.fixture
def fake_amqp() -> Iterator[int]:
    """A loopback listener that answers the AMQP header with ``connection.start``."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            with conn:
                conn.recv(8)
                conn.sendall(struct.pack(">BHIHH", 1, 0, 4, 10, 10))

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    server.close()


def which_of(*installed: str) -> object:
    return lambda name: f"/opt/fake/{name}" if name in installed else None


@pytest.mark.parametrize(
    ("name", "url", "installed", "command", "message"),
    [
        pytest.param(
            "Redis",
            "redis://127.0.0.1:6390/0",
            ("redis-server",),
            [
                "/opt/fake/redis-server",
                *("--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6390"),
                *("--save", "", "--appendonly", "no"),
            ],
            "starting Redis on 6390",
            id="redis-installed-on-loopback-is-started-on-the-urls-port",
        ),
        pytest.param(
            "RabbitMQ",
            "amqp://guest:guest@localhost:5672/",
            ("rabbitmq-server",),
            ["/opt/fake/rabbitmq-server", "-detached"],
            "starting RabbitMQ",
            id="rabbitmq-installed-on-loopback-is-started-detached",
        ),
        pytest.param(
            "Redis",
            "redis://127.0.0.1:6379/0",
            (),
            None,
            "apt-get install redis-server",
            id="redis-missing-says-what-to-install",
        ),
        pytest.param(
            "RabbitMQ",
            "amqp://guest:guest@127.0.0.1:5672/",
            ("redis-server",),
            None,
            "apt-get install rabbitmq-server",
            id="rabbitmq-missing-says-what-to-install",
        ),
        pytest.param(
            "Redis",
            "redis://cache.example:6379/0",
            ("redis-server",),
            None,
            "not on this machine",
            id="a-remote-server-is-never-started-here",
        ),
    ],
)
def test_start_plan(
    name: str, url: str, installed: tuple[str, ...], command: list[str] | None, message: str
) -> None:
    plan = deps.start_plan(name, url, which_of(*installed))
    assert plan.command == command
    assert message in plan.message


def test_a_stopped_redis_is_started_from_the_binary_on_path(
    bin_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = bin_dir.parent / "calls"
    fake(bin_dir, "redis-server", f'echo "redis-server $*" >> {calls}')
    fake(bin_dir, "rabbitmq-server", f'echo "rabbitmq-server $*" >> {calls}')
    redis_port, amqp_port = free_port(), free_port()
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{redis_port}/0")
    monkeypatch.setenv("RABBITMQ_URL", f"amqp://guest:guest@127.0.0.1:{amqp_port}/")

    assert deps.main([]) == 1  # the fakes start nothing that answers

    assert calls.read_text().splitlines() == [
        "rabbitmq-server -detached",
        f"redis-server --daemonize yes --bind 127.0.0.1 --port {redis_port}"
        " --save  --appendonly no",
    ]
    out = capsys.readouterr().out
    assert "FAIL  RabbitMQ: started, no answer after 1 s" in out
    assert "FAIL  Redis: started, no answer after 1 s" in out


def test_no_start_only_checks(
    bin_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = bin_dir.parent / "calls"
    fake(bin_dir, "redis-server", f'echo "redis-server $*" >> {calls}')
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")
    monkeypatch.setenv("RABBITMQ_URL", f"amqp://guest:guest@127.0.0.1:{free_port()}/")

    assert deps.main(["--no-start"]) == 1

    assert not calls.exists()
    out = capsys.readouterr().out
    assert "Start it on this machine with:" in out
    assert "apt-get install rabbitmq-server" in out  # its binary is not on the PATH


def test_a_disabled_plugin_is_enabled(
    bin_dir: Path,
    fake_amqp: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    enabled = bin_dir.parent / "enabled"
    fake(
        bin_dir,
        "rabbitmq-plugins",
        f"""case "$1" in
  -q) [ -e {enabled} ] && exit 0; echo "Plugin {deps.PLUGIN} is not enabled"; exit 2;;
  enable) [ "$2" = "{deps.PLUGIN}" ] && [ "$HOME" = /var/lib/rabbitmq ] && : > {enabled};;
esac""",
    )
    monkeypatch.setenv("RABBITMQ_URL", f"amqp://guest:guest@127.0.0.1:{fake_amqp}/")
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")

    deps.main(["--no-start"])  # Redis is down: only the plugin matters here
    assert not enabled.exists(), "--no-start never enables the plugin"
    assert f"{deps.PLUGIN} is NOT enabled" in capsys.readouterr().out

    deps.main([])
    assert enabled.exists()
    assert f"ok    {deps.PLUGIN} was not enabled: enabled it" in capsys.readouterr().out


def test_the_environment_wins_over_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(
        "REFEREE_ADMIN_TOKEN=from-the-dotenv-file-000000\nREDIS_URL=redis://dotenv:1/0\n"
    )
    monkeypatch.setenv("REFEREE_ADMIN_TOKEN", "from-the-environment-00000")
    settings = GatewaySettings()
    assert settings.referee_admin_token == "from-the-environment-00000"
    assert settings.redis_url == "redis://dotenv:1/0"  # what the environment lacks: .env
    monkeypatch.setenv("REDIS_URL", "redis://env:2/0")
    assert deps.setting("REDIS_URL", "x", deps.read_dotenv(tmp_path / ".env")) == "redis://env:2/0"


def test_make_run_gives_honcho_no_env_file() -> None:
    """honcho would put .env over the environment: ``make run`` gives it none."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "honcho start -f Procfile -e /dev/null" in text
