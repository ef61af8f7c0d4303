"""Browsers (docs/browsers.md): 405 and OPTIONS with a true ``Allow``, CORS per community,
read-only stream tokens for ``EventSource``, and the stream's ``retry:`` and resets."""

from __future__ import annotations

import asyncio
import hashlib
from typing import Any

import httpx
import pytest
from httpx_sse import aconnect_sse

from shared.redis_client import redis_client
from shared.redis_streams import entries
from tests.e2e.referee import HttpCommunity, Referee
from tests.support.play import error_of, expect, unique

pytestmark = [pytest.mark.e2e]

A_ORIGIN = "https://game-a.example.org"
EXPOSED = {"location", "retry-after", "ratelimit", "ratelimit-policy", "content-language"}


async def allow_origins(community: HttpCommunity, *origins: str) -> None:
    answer = await community.client.patch("/v1/settings", json={"cors": {"origins": origins}})
    assert expect(answer, 200).json()["cors"]["origins"] == list(origins)


def preflight(origin: str, method: str, headers: str = "authorization") -> dict[str, str]:
    return {
        "Origin": origin,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": headers,
    }


def cors_headers(answer: httpx.Response) -> dict[str, str]:
    return {k: v for k, v in answer.headers.items() if k.lower().startswith("access-control-")}


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/v1/combats", "GET, POST, OPTIONS"),
        ("PUT", "/v1/settings", "GET, PATCH, OPTIONS"),
        ("POST", f"/v1/combats/c_{'0' * 32}", "GET, OPTIONS"),
        ("GET", "/v1/stream-tokens", "POST, OPTIONS"),
        ("PATCH", "/v1/webhooks", "GET, POST, OPTIONS"),
    ],
    ids=["combats", "settings", "a-combat", "stream-tokens", "webhooks"],
)
async def test_a_405_names_every_method_of_the_path_and_has_the_error_body(
    referee: Referee, method: str, path: str, allow: str
) -> None:
    community = await referee.new_community()
    answer = await community.client.request(method, path)
    error_of(answer, 405, "method_not_allowed")
    assert answer.headers["allow"] == allow


async def test_options_answers_the_allowed_methods_and_unknown_paths_are_404(
    referee: Referee,
) -> None:
    client = referee.client()
    answer = await client.options("/v1/combats")
    assert answer.status_code == 204, answer.text
    assert answer.headers["allow"] == "GET, POST, OPTIONS"
    error_of(await client.options("/v1/nothing-here"), 404, "not_found")


async def test_cors_answers_only_the_origins_a_community_allows(referee: Referee) -> None:
    a, b = await referee.new_community(), await referee.new_community()
    origin = f"https://{unique('game')}.example.org"
    anonymous = referee.client()

    # Nobody allows the origin yet: the preflight is refused, with no CORS header.
    refused = await anonymous.options("/v1/combats", headers=preflight(origin, "POST"))
    error_of(refused, 403, "origin_not_allowed")
    assert not cors_headers(refused)

    await allow_origins(a, origin)
    granted = await anonymous.options(
        "/v1/combats", headers=preflight(origin, "POST", "authorization, content-type")
    )
    assert granted.status_code == 204, granted.text
    assert granted.headers["access-control-allow-origin"] == origin
    assert set(granted.headers["access-control-allow-methods"].split(", ")) == {
        "GET",
        "POST",
        "OPTIONS",
    }
    asked = {h.strip().lower() for h in granted.headers["access-control-allow-headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key", "if-match"} <= asked
    assert int(granted.headers["access-control-max-age"]) > 0
    assert "origin" in granted.headers["vary"].lower()
    # A method the path does not serve: 405 with Allow, no CORS grant.
    wrong = await anonymous.options("/v1/combats", headers=preflight(origin, "DELETE"))
    error_of(wrong, 405, "method_not_allowed")
    assert wrong.headers["allow"] == "GET, POST, OPTIONS"
    assert "access-control-allow-origin" not in wrong.headers

    # The request that follows: readable with a's key, not with b's (b never allowed it).
    mine = await a.client.get("/v1/combats", headers={"Origin": origin})
    expect(mine, 200)
    assert mine.headers["access-control-allow-origin"] == origin
    exposed = {h.strip().lower() for h in mine.headers["access-control-expose-headers"].split(",")}
    assert exposed >= EXPOSED
    assert "origin" in mine.headers["vary"].lower()
    theirs = await b.client.get("/v1/combats", headers={"Origin": origin})
    expect(theirs, 200)
    assert not cors_headers(theirs)
    # An error before any key is known is readable by an origin some community allows.
    unauthorized = await anonymous.get("/v1/combats", headers={"Origin": origin})
    error_of(unauthorized, 401, "unauthorized")
    assert unauthorized.headers["access-control-allow-origin"] == origin

    # Taking it back: the preflight is refused again and a's answers lose the headers.
    await allow_origins(a)
    again = await anonymous.options("/v1/combats", headers=preflight(origin, "POST"))
    error_of(again, 403, "origin_not_allowed")
    assert not cors_headers(await a.client.get("/v1/combats", headers={"Origin": origin}))


async def test_an_origin_must_be_an_exact_origin(referee: Referee) -> None:
    community = await referee.new_community()
    for bad in ["*", "game.example.org", "https://game.example.org/path", "ftp://x.org", "null"]:
        answer = await community.client.patch("/v1/settings", json={"cors": {"origins": [bad]}})
        error_of(answer, 422, "invalid_request")


# --- stream tokens --------------------------------------------------------------------------
async def mint(client: httpx.AsyncClient, status: int = 201, **body: Any) -> dict[str, Any]:
    answer = await client.post("/v1/stream-tokens", json=body)
    assert answer.status_code == status, answer.text
    minted: dict[str, Any] = answer.json()
    return minted


async def stream_with_token(
    client: httpx.AsyncClient, params: dict[str, str], count: int, within: float = 10
) -> tuple[int | None, list[tuple[str, dict[str, Any]]]]:
    """The first ``count`` events of ``GET /v1/events`` (stream controls included), and the
    ``retry`` of the first one."""
    got: list[tuple[str, dict[str, Any]]] = []
    retry = None
    async with (
        asyncio.timeout(within),
        aconnect_sse(
            client, "GET", "/v1/events", params=params, timeout=httpx.Timeout(10.0, read=None)
        ) as source,
    ):
        expect(source.response, 200)
        async for message in source.aiter_sse():
            if not got:
                retry = message.retry
            got.append((message.event, dict(message.json())))
            if len(got) >= count:
                break
    return retry, got


async def start_fight(community: HttpCommunity, room: str | None = None) -> str:
    ana, bruno = unique("ana"), unique("bruno")
    await community.register(ana)
    await community.register(bruno)
    return str((await community.start_challenge(ana, bruno, room=room))["id"])


async def test_a_stream_token_opens_an_event_source_without_a_key_and_cannot_act(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    frontend = referee.client(await community.key("frontend"))
    room = unique("room")
    cid = await start_fight(community, room)
    other = await start_fight(community, room)  # same room, another combat
    token = await mint(frontend, combat=cid, view="full", ttl_seconds=600)
    assert token["token"].startswith("st_") and token["combat"] == cid
    assert token["ttl_seconds"] == 600 and token["expires_at"].endswith("Z")

    browser = referee.client()  # no Authorization: only the token
    retry, got = await stream_with_token(
        browser, {"token": token["token"], "since": "0-0"}, count=2
    )
    assert retry is not None and retry > 0
    assert [kind for kind, _ in got] == ["stream.opened", "combat.started"]
    assert got[1][1]["combat_id"] == cid  # bound to its combat: the other one never shows

    combat = expect(await browser.get(f"/v1/combats/{cid}", params={"token": token["token"]}), 200)
    assert combat.json()["id"] == cid
    # A page of an origin the community allows may read what its token reads.
    origin = f"https://{unique('page')}.example.org"
    await allow_origins(community, origin)
    async with browser.stream(
        "GET", "/v1/events", params={"token": token["token"]}, headers={"Origin": origin}
    ) as from_page:
        expect(from_page, 200)
        assert from_page.headers["access-control-allow-origin"] == origin
    log = await browser.get(f"/v1/combats/{cid}/log", params={"token": token["token"]})
    assert expect(log, 200).json()["events"][0]["type"] == "combat.started"
    # Another combat, even in the same room, is unknown to the token.
    error_of(
        await browser.get(f"/v1/combats/{other}", params={"token": token["token"]}),
        404,
        "not_found",
    )
    error_of(
        await browser.get("/v1/events", params={"token": token["token"], "combat": other}),
        404,
        "not_found",
    )

    # It cannot act, read sheets, change settings or mint tokens, in the query or as a key.
    as_key = referee.client(token["token"])
    pass_turn = {"type": "pass_turn", "actor": "x"}
    for answer in [
        await browser.post(f"/v1/combats/{cid}/actions?token={token['token']}", json=pass_turn),
        await as_key.post(f"/v1/combats/{cid}/actions", json=pass_turn),
        await browser.get(f"/v1/characters/ana?token={token['token']}"),
        await as_key.get("/v1/settings"),
        await as_key.post("/v1/stream-tokens", json={}),
    ]:
        error_of(answer, 401, "unauthorized")


async def test_a_token_bound_to_rooms_streams_only_those_rooms(referee: Referee) -> None:
    community = await referee.new_community()
    here, there = unique("here"), unique("there")
    token = (await mint(community.client, rooms=[here], view="full"))["token"]
    await start_fight(community, there)
    mine = await start_fight(community, here)
    browser = referee.client()
    _, got = await stream_with_token(browser, {"token": token, "since": "0-0"}, count=2)
    assert got[1][1]["combat_id"] == mine and got[1][1]["room"] == here
    error_of(
        await browser.get("/v1/events", params={"token": token, "room": there}), 404, "not_found"
    )


async def test_a_token_dies_with_its_key_and_expires_with_its_ttl(
    referee: Referee, redis_url: str
) -> None:
    community = await referee.new_community()
    answer = expect(await community.client.post("/v1/keys", json={"scope": "frontend"}), 201)
    key = answer.json()
    token = (await mint(referee.client(key["api_key"]), ttl_seconds=60))["token"]
    browser = referee.client()
    expect(await browser.get("/v1/combats", params={"token": token}), 200)

    redis = redis_client(redis_url)
    digest = hashlib.sha256(token.encode()).hexdigest()
    try:  # only its hash is stored, and Redis forgets it when it expires
        ttl = await redis.ttl(f"{referee.suite.namespace}:stream-token:{digest}")
    finally:
        await redis.aclose()
    assert 0 < ttl <= 60, ttl

    expect(await community.client.delete(f"/v1/keys/{key['key_id']}"), 204)
    error_of(await browser.get("/v1/combats", params={"token": token}), 401, "unauthorized")
    error_of(await browser.get("/v1/combats", params={"token": "st_nonsense"}), 401, "unauthorized")
    too_long = await community.client.post("/v1/stream-tokens", json={"ttl_seconds": 3601})
    error_of(too_long, 422, "invalid_request")


async def test_a_resume_point_older_than_the_retention_gets_an_expired_reset(
    referee: Referee, redis_url: str
) -> None:
    """The stream keeps a day of events; a client resuming from before its first retained
    entry is told (``stream.reset``, ``reason: expired``) and gets every retained event."""
    community = await referee.new_community()
    first = await start_fight(community)
    await community.wait_event(first, "combat.started")
    second = await start_fight(community)
    await community.wait_event(second, "combat.started")
    redis = redis_client(redis_url)
    stream = f"{referee.suite.namespace}:{{tenant:{community.id}}}:events"
    try:
        recorded = entries(await redis.xrange(stream))
        old = recorded[0][0]
        kept = next(sid for sid, fields in recorded if second.encode() in fields["e"])
        await redis.xtrim(stream, minid=kept)  # what the retention does to old entries
    finally:
        await redis.aclose()
    retry, got = await stream_with_token(
        community.client, {"since": old, "combat": second}, count=2
    )
    kind, data = got[0]
    assert kind == "stream.reset" and data["reason"] == "expired", got
    assert data["requested"] == old and data["first"] == kept
    assert retry is not None
    assert got[1][0] == "combat.started" and got[1][1]["combat_id"] == second
