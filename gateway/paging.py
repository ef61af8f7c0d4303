"""Cursors of the lists (docs/api.md "Paging").

A cursor is opaque to a frontend: the URL-safe base64 of a small JSON object that says where
the last page ended (a combat's start time and id, a character's or a room's id, a key id).
A page answers ``next_cursor``: pass it as ``cursor`` for the next page; ``null`` means the
list is over. What the cursor points at is a position, not an offset, so combats started
while a frontend pages do not shift the pages it has not read yet.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Annotated, Any

from fastapi import Query

from gateway.errors import ApiError
from gateway.field_errors import found_error

CursorParam = Annotated[
    str | None,
    Query(max_length=400, description="the `next_cursor` of the previous page"),
]
LimitParam = Annotated[int, Query(ge=1, le=200, description="at most this many items")]


def encode_cursor(position: dict[str, Any]) -> str:
    raw = json.dumps(position, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str | None, *fields: str) -> dict[str, Any] | None:
    """The position in ``cursor`` (None without one); 422 when it is not one of ours."""
    if cursor is None:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        position = json.loads(raw)
    except (ValueError, binascii.Error):
        position = None
    if not isinstance(position, dict) or any(name not in position for name in fields):
        found = found_error("query.cursor", "cursor_invalid")
        raise ApiError("invalid_request", details={"errors": [found]})
    return position
