"""``python -m gateway``: serve the API with uvicorn on GATEWAY_HOST:GATEWAY_PORT."""

from __future__ import annotations

import uvicorn

from gateway.app import create_app
from shared.settings import GatewaySettings


def main() -> None:
    settings = GatewaySettings()
    uvicorn.run(
        create_app(settings),
        host=settings.gateway_host,
        port=settings.gateway_port,
        log_level=settings.log_level.lower(),
        access_log=False,
        lifespan="on",
    )


if __name__ == "__main__":
    main()
