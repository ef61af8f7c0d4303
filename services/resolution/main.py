"""Entrypoint of services/resolution: ``python -m services.resolution``."""

from __future__ import annotations

from services.resolution.handlers import spec
from shared.service_main import main as run


def main() -> None:
    run(spec)


if __name__ == "__main__":
    main()
