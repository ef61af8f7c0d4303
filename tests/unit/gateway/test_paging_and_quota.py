"""Cursors of the lists and the IETF RateLimit headers of a token bucket (pure parts)."""

from __future__ import annotations

import pytest

from gateway.errors import ApiError
from gateway.paging import decode_cursor, encode_cursor
from gateway.ratelimit import Quota


@pytest.mark.parametrize(
    "position",
    [{"at": 1733011200000, "id": "c_" + "f" * 32}, {"id": "ñandú"}, {"room": "plaza:1"}],
)
def test_a_cursor_gives_back_its_position(position: dict[str, object]) -> None:
    cursor = encode_cursor(position)
    assert "=" not in cursor and "/" not in cursor and "+" not in cursor
    assert decode_cursor(cursor, *position) == position


@pytest.mark.parametrize("cursor", ["%%%", "bm90LWpzb24", encode_cursor({"id": "x"})])
def test_a_cursor_of_another_list_or_none_at_all_is_refused(cursor: str) -> None:
    with pytest.raises(ApiError) as raised:
        decode_cursor(cursor, "at", "id")
    assert raised.value.code == "invalid_request"
    assert raised.value.details["errors"][0]["path"] == "query.cursor"


@pytest.mark.parametrize(
    ("quota", "policy", "state"),
    [
        # a full bucket of 100 at 50 a second: 2 s to refill, nothing to wait
        (Quota("key", 100, 50.0, 100.0, None), '"key";q=100;w=2', '"key";r=100;t=0'),
        # 9.5 tokens left of 20 at 2 a second: 9 requests, full again in 6 s
        (Quota("key", 20, 2.0, 9.5, None), '"key";q=20;w=10', '"key";r=9;t=6'),
        # refused: nothing left, the reset is at least the Retry-After
        (Quota("key", 20, 2.0, 0.2, 1), '"key";q=20;w=10', '"key";r=0;t=10'),
        (Quota("auth", 5, 0.1, 0.0, 10), '"auth";q=5;w=50', '"auth";r=0;t=50'),
    ],
)
def test_ratelimit_headers_of_a_bucket(quota: Quota, policy: str, state: str) -> None:
    assert quota.headers() == {"RateLimit-Policy": policy, "RateLimit": state}
