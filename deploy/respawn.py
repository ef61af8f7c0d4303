"""Run one process of ``make run`` and start it again when it dies on its own.

    python deploy/respawn.py <command> [args...]

honcho (``make run``) stops every process as soon as one exits; each Procfile line runs
its process under this small supervisor instead, so a service that crashes (or is killed)
is restarted after a backoff (1 s, doubling up to 30 s, back to 1 s once it has run for a
minute), with a log line each time, while the others go on. SIGINT and SIGTERM (Ctrl-C:
honcho sends SIGTERM to each process group) are passed on to the process, and the
supervisor exits with it instead of restarting it. Only the Python standard library, so it
runs before any dependency is importable.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from types import FrameType

FIRST_DELAY = 1.0
MAX_DELAY = 30.0
STABLE_SECONDS = 60.0


def describe(code: int) -> str:
    if code < 0:
        return f"signal {signal.Signals(-code).name}"
    return f"code {code}"


def say(message: str) -> None:
    print(f"respawn: {message}", flush=True)


def main(command: list[str]) -> int:
    if not command:
        say("usage: python deploy/respawn.py <command> [args...]")
        return 2
    name = " ".join(command)
    stopping = threading.Event()
    child: subprocess.Popen[bytes] | None = None

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        stopping.set()
        if child is not None and child.poll() is None:
            child.send_signal(signum)  # also reaches it when only this process was signalled

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    delay = FIRST_DELAY
    while True:
        started = time.monotonic()
        child = subprocess.Popen(command)
        code = child.wait()
        if stopping.is_set():
            return code if code >= 0 else 128 - code
        ran = time.monotonic() - started
        if ran >= STABLE_SECONDS:
            delay = FIRST_DELAY
        say(f"{name!r} exited with {describe(code)} after {ran:.1f} s; restarting in {delay:g} s")
        if stopping.wait(delay):
            return 0
        delay = min(delay * 2, MAX_DELAY)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
