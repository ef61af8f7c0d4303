"""The referee console (issue 14): static pages served by the gateway at ``/console``.

Plain HTML, CSS and JavaScript modules in ``static/`` (package data, no build step, nothing
fetched from elsewhere). The pages call the public API of this same gateway with the key the
user typed, kept in the browser's ``sessionStorage``; see docs/console.md.

Every page is served with a Content-Security-Policy that allows only this origin. The console
refuses to be framed (``frame-ancestors 'none'``, ``X-Frame-Options: DENY``); the player view,
``/console/player.html``, is meant to be embedded in a forum or a Discord activity, so it
allows any frame ancestor and carries no ``X-Frame-Options``.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import RedirectResponse
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

STATIC = Path(__file__).parent / "static"
PREFIX = "/console"
PLAYER_PAGE = "player.html"

_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors {ancestors}"
)
CONSOLE_POLICY = _POLICY.format(ancestors="'none'")
PLAYER_POLICY = _POLICY.format(ancestors="*")


def headers_for(path: str) -> dict[str, str]:
    """The security headers of one file of the console (``path`` relative to ``static/``)."""
    common = {
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        # Revalidate every time (the ETag makes that a 304): a new version shows at once.
        "Cache-Control": "no-cache",
    }
    if path == PLAYER_PAGE:
        return {**common, "Content-Security-Policy": PLAYER_POLICY}
    return {**common, "Content-Security-Policy": CONSOLE_POLICY, "X-Frame-Options": "DENY"}


class ConsoleFiles(StaticFiles):
    """StaticFiles with the console's headers on every answer."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        file = "index.html" if path in ("", ".") else path
        response.headers.update(headers_for(file))
        return response


def mount(app: FastAPI) -> None:
    """Serve the console at ``/console/`` (``/console`` redirects there)."""

    @app.get(PREFIX, include_in_schema=False)
    async def console_root() -> RedirectResponse:
        return RedirectResponse(f"{PREFIX}/", status_code=308)

    app.mount(PREFIX, ConsoleFiles(directory=STATIC, html=True), name="console")
