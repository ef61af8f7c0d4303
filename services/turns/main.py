"""Entrypoint of services/turns: ``python -m services.turns``."""

from __future__ import annotations

from services.turns.handlers import spec
from shared.service_main import main as run


def main() -> None:
    run(spec)


if __name__ == "__main__":
    main()
