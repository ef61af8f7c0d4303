"""Entrypoint of services/states: ``python -m services.states``."""

from __future__ import annotations

from services.states.handlers import spec
from shared.service_main import main as run


def main() -> None:
    run(spec)


if __name__ == "__main__":
    main()
