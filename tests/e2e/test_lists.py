"""Lists with cursors (combats, characters with a name search, keys, rooms) and the IETF
``RateLimit`` headers on the real suite."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.referee import HttpCommunity, Referee
from tests.support.play import error_of, expect, unique
from tests.support.sheets import umh_sheet

pytestmark = [pytest.mark.e2e]

JSON = dict[str, Any]


async def every_page(community: HttpCommunity, path: str, field: str, **params: Any) -> list[JSON]:
    """Every item of a list, following ``next_cursor`` (each page at most ``limit``)."""
    items: list[JSON] = []
    cursor: str | None = None
    for _ in range(50):
        query = {**params, **({"cursor": cursor} if cursor else {})}
        page = expect(await community.client.get(path, params=query), 200).json()
        assert len(page[field]) <= params.get("limit", 50), page
        items += page[field]
        cursor = page["next_cursor"]
        if cursor is None:
            return items
    raise AssertionError(f"{path}: more than 50 pages")


async def test_characters_page_by_id_and_search_by_name(referee: Referee) -> None:
    community = await referee.new_community()
    ids = [f"c{n:02d}" for n in range(7)]
    for cid in ids:
        name = f"Ñandú {cid}" if cid in ("c03", "c05") else cid.upper()
        sheet = umh_sheet(name)
        expect(await community.client.put(f"/v1/characters/{cid}", json=sheet), 201)
    listed = await every_page(community, "/v1/characters", "characters", limit=3)
    assert [c["id"] for c in listed] == ids
    assert {c["ruleset"] for c in listed} == {"umh"}
    found = await every_page(community, "/v1/characters", "characters", limit=1, q="ñANDú")
    assert [c["id"] for c in found] == ["c03", "c05"]
    by_id = await every_page(community, "/v1/characters", "characters", q="C06")
    assert [c["id"] for c in by_id] == ["c06"]


async def test_combats_page_newest_first_without_repeats(referee: Referee) -> None:
    community = await referee.new_community()
    for cid in ("ana", "bruno", "carla", "dario", "elena", "fede"):
        await community.register(cid)
    room = unique("room")
    started = [
        (await community.start_challenge(a, d, room=room))["id"]
        for a, d in (("ana", "bruno"), ("carla", "dario"))
    ]
    started.append((await community.start_challenge("elena", "fede"))["id"])
    listed = await every_page(community, "/v1/combats", "combats", limit=1)
    assert [c["id"] for c in listed] == started[::-1]
    in_room = await every_page(community, "/v1/combats", "combats", limit=1, room=room)
    assert [c["id"] for c in in_room] == started[1::-1]

    rooms = await every_page(community, "/v1/rooms", "rooms", limit=1)
    assert len(rooms) == 2
    mine = next(r for r in rooms if r["room"] == room)
    assert mine == {"room": room, "combats": 2, "active_combats": 2}


async def test_keys_are_listed_without_secrets(referee: Referee) -> None:
    community = await referee.new_community()
    await community.key("frontend")
    await community.key("viewer")
    keys = await every_page(community, "/v1/keys", "keys", limit=2)
    assert sorted(k["scope"] for k in keys) == ["frontend", "moderator", "viewer"]
    assert [k["primary"] for k in keys if k["scope"] == "moderator"] == [True]
    assert all(set(k) == {"key_id", "scope", "created_at", "primary"} for k in keys)
    frontend = referee.client(await community.key("frontend"))
    error_of(await frontend.get("/v1/keys"), 403, "forbidden")


async def test_a_cursor_not_minted_here_is_a_field_error(referee: Referee) -> None:
    community = await referee.new_community()
    answer = await community.client.get(
        "/v1/combats", params={"cursor": "bm90LWpzb24"}, headers={"Accept-Language": "es"}
    )
    error = error_of(answer, 422, "invalid_request")
    assert error["details"]["errors"][0]["path"] == "query.cursor"
    assert "cursor" in error["details"]["errors"][0]["message"]


RATELIMIT = re.compile(r'^"key";r=(\d+);t=(\d+)$')
POLICY = re.compile(r'^"key";q=(\d+);w=(\d+)$')


async def test_every_answer_to_a_key_tells_its_rate_limit(referee: Referee) -> None:
    community = await referee.new_community()
    first = expect(await community.client.get("/v1/settings"), 200)
    second = expect(await community.client.get("/v1/combats/c_" + "0" * 32), 404)
    for answer in (first, second):
        assert POLICY.match(answer.headers.get("RateLimit-Policy", "")), (
            answer.url,
            answer.headers,
        )
        assert RATELIMIT.match(answer.headers["RateLimit"]), answer.headers
    # The bucket refills as time passes, so two answers in a row may show the same or even one
    # more request left: each stays within the policy's quota.
    for answer in (first, second):
        policy = POLICY.match(answer.headers["RateLimit-Policy"])
        left = RATELIMIT.match(answer.headers["RateLimit"])
        assert policy and left
        assert 0 <= int(left.group(1)) < int(policy.group(1))
