"""``python -m gateway``: serve the API with uvicorn on GATEWAY_HOST:GATEWAY_PORT."""

from __future__ import annotations

import math

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
        # Open event streams never end by themselves: past the time a request may wait for
        # its outcome, uvicorn cuts what is still open, so a stop never hangs on a viewer.
        timeout_graceful_shutdown=math.ceil(settings.referee_request_timeout) + 2,
    )


if __name__ == "__main__":
    main()
