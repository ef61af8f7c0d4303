"""``python -m gateway``: serve the API with uvicorn on GATEWAY_HOST:GATEWAY_PORT."""

from __future__ import annotations

import contextlib
import math
import socket
import sys

import uvicorn
from fastapi import FastAPI
from uvicorn.config import STARTUP_FAILURE

from gateway.app import create_app
from shared.settings import GatewaySettings


class GatewayServer(uvicorn.Server):
    """uvicorn's server, which ends the open event streams as soon as it starts to stop: it
    then waits only for the requests under way, not ``timeout_graceful_shutdown`` for
    streams that never end by themselves."""

    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self._app = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        gw = getattr(self._app.state, "gateway", None)
        if gw is not None:
            gw.hub.end_streams()
        await super().shutdown(sockets)


def main() -> None:
    settings = GatewaySettings()
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=settings.gateway_host,
        port=settings.gateway_port,
        log_level=settings.log_level.lower(),
        access_log=False,
        lifespan="on",
        # Past the time a request may wait for its outcome, uvicorn cuts what is still open,
        # so a stop never hangs on a client.
        timeout_graceful_shutdown=math.ceil(settings.referee_request_timeout) + 2,
    )
    server = GatewayServer(config, app)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)  # as uvicorn.run: the lifespan or the bind failed


if __name__ == "__main__":
    main()
