"""Check that RabbitMQ and Redis answer before ``make run`` starts the suite.

Standard library only, so it runs before the virtual environment exists. It reads
``RABBITMQ_URL`` and ``REDIS_URL`` from the environment, else from ``.env`` in the current
directory, else the defaults of README.md, and speaks a few bytes of each protocol
instead of trusting a bare TCP connect:

- Redis: ``AUTH`` when the URL has a password, then ``PING``, expecting ``+PONG``;
- RabbitMQ: the AMQP 0-9-1 protocol header, expecting a ``connection.start`` method frame.

When a server on loopback does not answer and its binary is installed, it is started
(``rabbitmq-server -detached``; ``redis-server --daemonize yes`` on the URL's port, nothing
saved to disk) and waited for; when the binary is missing, the message says what to install.
When RabbitMQ runs on this machine it also asks ``rabbitmq-plugins`` whether the
consistent-hash exchange plugin is enabled (docs/DESIGN.md "Scale and placement") and
enables it when it is not. ``--no-start`` (or ``CHECK_DEPS_NO_START=1``) only checks.
Exit status 0 when everything answers, 1 otherwise, with how to fix what is missing.
"""

from __future__ import annotations

import os
import shutil
import socket
import ssl
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import unquote, urlsplit

DEFAULT_RABBITMQ_URL = "amqp://guest:guest@127.0.0.1:5672/"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
PLUGIN = "rabbitmq_consistent_hash_exchange"
RABBITMQ_HOME = "/var/lib/rabbitmq"
TIMEOUT = 3.0
LOOPBACK = {"localhost", "127.0.0.1", "::1", "0.0.0.0", "::"}

START_RABBITMQ = (
    f"rabbitmq-server -detached\n    HOME={RABBITMQ_HOME} rabbitmq-plugins enable {PLUGIN}"
)
START_REDIS = 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no'
ENABLE_PLUGIN = f"HOME={RABBITMQ_HOME} rabbitmq-plugins enable {PLUGIN}"
# Where Debian and the upstream tarball put RabbitMQ's commands, which a user's PATH may lack
# (CHECK_DEPS_SBIN overrides it, so a test can run with a PATH of its own only).
SBIN_DIRS = ("/usr/sbin", "/usr/lib/rabbitmq/bin", "/opt/rabbitmq/sbin")
INSTALL = {
    "RabbitMQ": (
        "RabbitMQ 3.10+ is not installed. Install it with your package manager, e.g.\n"
        "    apt-get install rabbitmq-server        (Debian, Ubuntu)\n"
        "    brew install rabbitmq                  (macOS)\n"
        "  or, with Docker: docker compose --profile deps up -d deps-rabbitmq deps-redis"
    ),
    "Redis": (
        "Redis 7 is not installed. Install it with your package manager, e.g.\n"
        "    apt-get install redis-server           (Debian, Ubuntu)\n"
        "    brew install redis                     (macOS)\n"
        "  or, with Docker: docker compose --profile deps up -d deps-rabbitmq deps-redis"
    ),
}


class ProbeError(Exception):
    """A dependency did not answer as expected; the message says what was seen."""


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines of a ``.env`` file (comments, ``export`` and quotes allowed)."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def setting(name: str, default: str, dotenv: dict[str, str]) -> str:
    """The environment wins over ``.env``, as in pydantic-settings."""
    return os.environ.get(name) or dotenv.get(name) or default


def open_socket(host: str, port: int, use_tls: bool) -> socket.socket:
    sock = socket.create_connection((host, port), timeout=TIMEOUT)
    if use_tls:
        context = ssl.create_default_context()
        return context.wrap_socket(sock, server_hostname=host)
    return sock


def read_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ProbeError(f"connection closed after {len(data)} of {size} bytes")
        data += chunk
    return data


def read_line(sock: socket.socket, limit: int = 512) -> bytes:
    data = b""
    while not data.endswith(b"\r\n"):
        chunk = sock.recv(1)
        if not chunk:
            raise ProbeError(f"connection closed after {data!r}")
        data += chunk
        if len(data) > limit:
            raise ProbeError(f"unexpected answer {data[:60]!r}...")
    return data[:-2]


def resp_command(*parts: str) -> bytes:
    encoded = [part.encode() for part in parts]
    out = b"*%d\r\n" % len(encoded)
    for part in encoded:
        out += b"$%d\r\n%s\r\n" % (len(part), part)
    return out


def check_redis(url: str) -> str:
    """``PING`` the server (after ``AUTH`` if the URL carries a password)."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        raise ProbeError(f"unsupported scheme {parts.scheme!r} (redis:// or rediss://)")
    host = parts.hostname or "127.0.0.1"
    port = parts.port or 6379
    with open_socket(host, port, parts.scheme == "rediss") as sock:
        if parts.password is not None:
            auth = [unquote(parts.password)]
            if parts.username:
                auth.insert(0, unquote(parts.username))
            sock.sendall(resp_command("AUTH", *auth))
            answer = read_line(sock)
            if answer != b"+OK":
                raise ProbeError(f"AUTH refused: {answer.decode(errors='replace')}")
        sock.sendall(resp_command("PING"))
        answer = read_line(sock)
    if answer != b"+PONG":
        raise ProbeError(f"PING answered {answer.decode(errors='replace')!r}, not +PONG")
    return f"Redis answers PONG at {host}:{port}"


def check_rabbitmq(url: str) -> str:
    """Send the AMQP 0-9-1 header and expect ``connection.start`` (class 10, method 10)."""
    parts = urlsplit(url)
    if parts.scheme not in ("amqp", "amqps"):
        raise ProbeError(f"unsupported scheme {parts.scheme!r} (amqp:// or amqps://)")
    tls = parts.scheme == "amqps"
    host = parts.hostname or "127.0.0.1"
    port = parts.port or (5671 if tls else 5672)
    with open_socket(host, port, tls) as sock:
        sock.sendall(b"AMQP\x00\x00\x09\x01")
        header = read_exactly(sock, 7)
        if header.startswith(b"AMQP"):
            raise ProbeError(f"the broker refused AMQP 0-9-1 and offered {header!r}")
        frame_type, channel, size = struct.unpack(">BHI", header)
        if frame_type != 1 or channel != 0 or size < 4:
            raise ProbeError(f"expected a method frame, got type {frame_type} size {size}")
        class_id, method_id = struct.unpack(">HH", read_exactly(sock, 4))
    if (class_id, method_id) != (10, 10):
        raise ProbeError(f"expected connection.start, got method {class_id}.{method_id}")
    return f"RabbitMQ answers AMQP 0-9-1 at {host}:{port}"


def find_command(name: str) -> str | None:
    """``name`` on ``PATH`` or in RabbitMQ's usual sbin folders."""
    extra = os.environ.get("CHECK_DEPS_SBIN", os.pathsep.join(SBIN_DIRS))
    return shutil.which(name, path=os.environ.get("PATH", "") + os.pathsep + extra)


def find_rabbitmq_plugins() -> str | None:
    return find_command("rabbitmq-plugins")


@dataclass(frozen=True)
class Plan:
    """What to do about a server that does not answer: run ``command``, or tell ``message``."""

    command: list[str] | None
    message: str


def start_plan(name: str, url: str, which: Callable[[str], str | None]) -> Plan:
    """How to start the server ``name`` of ``url`` here, or what to tell when it cannot be.

    Only a server on loopback is started, and only from an installed binary.
    """
    parts = urlsplit(url)
    host = parts.hostname or "127.0.0.1"
    if host not in LOOPBACK:
        return Plan(None, f"{name} at {host} is not on this machine: start it there")
    if name == "Redis":
        binary = which("redis-server")
        if binary is None:
            return Plan(None, INSTALL[name])
        port = str(parts.port or 6379)
        command = [binary, "--daemonize", "yes", "--bind", "127.0.0.1", "--port", port]
        return Plan([*command, "--save", "", "--appendonly", "no"], f"starting {name} on {port}")
    binary = which("rabbitmq-server")
    if binary is None:
        return Plan(None, INSTALL[name])
    return Plan([binary, "-detached"], f"starting {name} ({binary} -detached)")


def start_and_wait(name: str, plan: Plan, probe: Callable[[], str], timeout: float) -> str:
    """Run the plan's command and probe until the server answers; raises ProbeError."""
    assert plan.command is not None
    env = {**os.environ, "HOME": RABBITMQ_HOME} if name == "RabbitMQ" else None
    try:
        subprocess.run(plan.command, env=env, check=True, timeout=120, capture_output=True)
    except (OSError, subprocess.SubprocessError) as exc:
        raise ProbeError(f"{' '.join(plan.command)} failed: {exc}") from exc
    deadline = time.monotonic() + timeout
    while True:
        try:
            return probe()
        except (OSError, ProbeError) as exc:
            if time.monotonic() >= deadline:
                raise ProbeError(f"started, no answer after {timeout:.0f} s: {exc}") from exc
            time.sleep(0.5)


def enable_plugin() -> tuple[str, str]:
    """``rabbitmq-plugins enable`` the consistent-hash plugin on the local node."""
    command = find_rabbitmq_plugins()
    if command is None:
        return "FAIL", f"{PLUGIN} is NOT enabled (no rabbitmq-plugins):\n    {ENABLE_PLUGIN}"
    env = {**os.environ, "HOME": RABBITMQ_HOME}
    try:
        done = subprocess.run(
            [command, "enable", PLUGIN], env=env, capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return "FAIL", f"could not enable {PLUGIN} ({exc}); run:\n    {ENABLE_PLUGIN}"
    if done.returncode != 0:
        last = (done.stdout + done.stderr).strip().splitlines()[-1:] or ["no output"]
        return "FAIL", f"enabling {PLUGIN} failed ({last[0]}); run:\n    {ENABLE_PLUGIN}"
    return "ok", f"{PLUGIN} was not enabled: enabled it"


def check_plugin(url: str) -> tuple[str, str]:
    """Ask the local node whether the plugin is enabled: (``ok|warn|FAIL``, message).

    Only a clear "not enabled" answer fails: a remote broker, a missing command or a CLI
    that cannot reach the node (another user's Erlang cookie) only warn.
    """
    host = urlsplit(url).hostname or "127.0.0.1"
    if host not in LOOPBACK and host != socket.gethostname():
        return "warn", f"RabbitMQ is remote ({host}): make sure {PLUGIN} is enabled on every node"
    command = find_rabbitmq_plugins()
    if command is None:
        return "warn", f"rabbitmq-plugins not found: could not check that {PLUGIN} is enabled"
    env = {**os.environ, "HOME": RABBITMQ_HOME}
    try:
        done = subprocess.run(
            [command, "-q", "is_enabled", PLUGIN],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return "warn", f"could not run rabbitmq-plugins ({exc}); check {PLUGIN} yourself"
    output = (done.stdout + done.stderr).strip()
    if done.returncode == 0:
        return "ok", f"{PLUGIN} is enabled"
    if "not enabled" in output:
        return "FAIL", f"{PLUGIN} is NOT enabled. Enable it with:\n    {ENABLE_PLUGIN}"
    last = output.splitlines()[-1] if output else f"exit status {done.returncode}"
    return "warn", f"could not ask rabbitmq-plugins ({last}); check {PLUGIN} yourself"


def safe_address(url: str) -> str:
    """The URL's scheme, host and port, never its credentials."""
    parts = urlsplit(url)
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ":?"
    return f"{parts.scheme}://{parts.hostname or '?'}{port}"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    may_start = "--no-start" not in args and os.environ.get("CHECK_DEPS_NO_START") != "1"
    timeout = float(os.environ.get("CHECK_DEPS_START_TIMEOUT", "120"))
    dotenv = read_dotenv(Path(".env"))
    rabbitmq_url = setting("RABBITMQ_URL", DEFAULT_RABBITMQ_URL, dotenv)
    redis_url = setting("REDIS_URL", DEFAULT_REDIS_URL, dotenv)
    failed = False

    checks = [
        ("RabbitMQ", rabbitmq_url, check_rabbitmq, START_RABBITMQ),
        ("Redis", redis_url, check_redis, START_REDIS),
    ]
    rabbitmq_up = False
    for name, url, check, how_to_start in checks:
        try:
            print(f"ok    {check(url)}")
            rabbitmq_up = rabbitmq_up or name == "RabbitMQ"
        except ValueError as exc:  # a malformed URL (a port that is not a number...)
            failed = True
            print(f"FAIL  {name}_URL is not a valid URL: {exc}")
        except ProbeError as exc:  # something answers, but not as the URL says
            failed = True
            print(f"FAIL  {name} at {safe_address(url)} answered wrongly: {exc}")
            print(f"      Check {name.upper()}_URL (credentials, port, TLS).")
        except OSError as exc:
            plan = start_plan(name, url, find_command)
            if not may_start or plan.command is None:
                failed = True
                print(f"FAIL  {name} does not answer at {safe_address(url)}: {exc}")
                if plan.command is None:
                    print(f"      {plan.message}")
                else:
                    print(f"      Start it on this machine with:\n    {how_to_start}")
                continue
            print(f"..    {name} does not answer at {safe_address(url)}: {plan.message}")
            try:
                print(f"ok    {start_and_wait(name, plan, partial(check, url), timeout)}")
                rabbitmq_up = rabbitmq_up or name == "RabbitMQ"
            except ProbeError as err:
                failed = True
                print(f"FAIL  {name}: {err}")

    if rabbitmq_up:
        status, message = check_plugin(rabbitmq_url)
        if status == "FAIL" and may_start:
            status, message = enable_plugin()
        print(f"{status:<4}  {message}")
        failed = failed or status == "FAIL"

    if failed:
        print("Dependencies are missing: fix the lines marked FAIL and run the command again.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
