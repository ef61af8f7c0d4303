"""Which methods a path serves: the ``Allow`` of a 405 and of ``OPTIONS``, and what a CORS
preflight may ask for (RFC 9110 15.5.6: a 405 MUST list the target's methods).

Starlette names in a 405 only the methods of the first route whose path matched, and
FastAPI's included routers hide the routes from a plain walk over ``app.router.routes``, so
each method is tried against the router itself: a method is allowed when some route matches
the path *and* that method in full.
"""

from __future__ import annotations

from starlette.routing import BaseRoute, Match
from starlette.types import Scope

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(routes: list[BaseRoute], scope: Scope) -> list[str]:
    """The methods some route serves on ``scope``'s path, in the order of :data:`METHODS`,
    plus ``OPTIONS`` when there is any (the gateway answers it on every path it serves)."""
    served: list[str] = []
    for method in METHODS:
        probe = {**scope, "method": method}
        if any(route.matches(probe)[0] == Match.FULL for route in routes):
            served.append(method)
    return [*served, "OPTIONS"] if served else []


def allow_header(routes: list[BaseRoute], scope: Scope) -> str:
    return ", ".join(allowed_methods(routes, scope))
