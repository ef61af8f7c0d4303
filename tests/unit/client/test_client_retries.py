"""The client's retries, as the API defines them, against a scripted server (in memory):
429 waits Retry-After, a request in progress and a 503 are sent again with the same
Idempotency-Key, a 202 is polled at its Location, a version mismatch is raised or, when asked,
retried with the combat's new version."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from referee_client import ApiError, AsyncReferee, Referee, Retries, VersionMismatchError

FAST = Retries(attempts=4, max_wait=0.05, pause=0.001, poll_every=0.001, poll_timeout=2)
COMBAT = {"id": "c_1", "version": 8, "phase": "fighting"}


def error(
    status: int, code: str, headers: dict[str, str] | None = None, **details: Any
) -> httpx.Response:
    body = {"error": {"code": code, "message": code, "rule": None, "details": details}}
    return httpx.Response(status, json=body, headers=headers)


class Server:
    """Answers each request with the next scripted answer of its path; keeps what it got."""

    def __init__(self, script: dict[str, list[Callable[[httpx.Request], httpx.Response]]]):
        self.script = script
        self.got: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.got.append(request)
        return self.script[f"{request.method} {request.url.path}"].pop(0)(request)

    def client(self) -> AsyncReferee:
        return AsyncReferee(
            "http://referee", "rk_x", retries=FAST, transport=httpx.MockTransport(self)
        )


def ok(body: Any, status: int = 200, **headers: str) -> Callable[[httpx.Request], httpx.Response]:
    return lambda _: httpx.Response(status, json=body, headers=headers)


def fails(status: int, code: str, **headers: str) -> Callable[[httpx.Request], httpx.Response]:
    return lambda _: error(status, code, headers)


ACT = "POST /v1/combats/c_1/actions"
ANSWER = {"action_id": "a_1", "events": [], "combat": COMBAT}


@pytest.mark.parametrize(
    ("first", "sent"),
    [
        pytest.param(fails(429, "rate_limited", **{"Retry-After": "0"}), 2, id="429-retry-after"),
        pytest.param(fails(409, "request_in_progress"), 2, id="409-request-in-progress"),
        pytest.param(fails(503, "dependency_unavailable"), 2, id="503-nothing-changed"),
    ],
)
async def test_an_action_is_sent_again_with_the_same_idempotency_key(
    first: Callable[[httpx.Request], httpx.Response], sent: int
) -> None:
    server = Server({ACT: [first, ok(ANSWER)]})
    async with server.client() as api:
        answer = await api.act("c_1", {"type": "pass_turn", "actor": "ana"})
    assert answer["action_id"] == "a_1"
    keys = {r.headers["Idempotency-Key"] for r in server.got}
    assert len(server.got) == sent and len(keys) == 1


async def test_a_rule_violation_is_raised_at_once() -> None:
    server = Server({ACT: [fails(422, "insufficient_pa")]})
    async with server.client() as api:
        with pytest.raises(ApiError) as raised:
            await api.act("c_1", {"type": "pass_turn", "actor": "ana"})
    assert (raised.value.status, raised.value.code, len(server.got)) == (422, "insufficient_pa", 1)


async def test_rate_limits_give_up_after_the_attempts() -> None:
    server = Server(
        {"GET /v1/combats/c_1": [fails(429, "rate_limited", **{"Retry-After": "0"})] * 4}
    )
    async with server.client() as api:
        with pytest.raises(ApiError) as raised:
            await api.get_combat("c_1")
    assert raised.value.status == 429 and len(server.got) == 4


async def test_a_202_is_polled_until_the_chain_is_over() -> None:
    location = "/v1/combats/c_1/actions/a_1"
    server = Server(
        {
            ACT: [ok({"action_id": "a_1", "status": "pending"}, 202, Location=location)],
            f"GET {location}": [
                ok({"action_id": "a_1", "status": "pending"}),
                ok({"action_id": "a_1", "status": "completed", "events": [{"type": "turn.ended"}]}),
            ],
            "GET /v1/combats/c_1": [ok(COMBAT)],
        }
    )
    async with server.client() as api:
        answer = await api.act("c_1", {"type": "pass_turn", "actor": "ana"})
    assert answer == {"action_id": "a_1", "events": [{"type": "turn.ended"}], "combat": COMBAT}


async def test_a_202_whose_action_was_rejected_raises_its_error() -> None:
    location = "/v1/combats/c_1/actions/a_1"
    rejected = {"code": "reaction_pending", "message": "m", "rule": "umh 2.4.2", "details": {}}
    server = Server(
        {
            ACT: [ok({"action_id": "a_1", "status": "pending"}, 202, Location=location)],
            f"GET {location}": [ok({"action_id": "a_1", "status": "rejected", "error": rejected})],
        }
    )
    async with server.client() as api:
        with pytest.raises(ApiError) as raised:
            await api.act("c_1", {"type": "pass_turn", "actor": "ana"})
    assert (raised.value.code, raised.value.rule) == ("reaction_pending", "umh 2.4.2")


async def test_a_version_mismatch_is_raised_unless_asked_to_retry() -> None:
    def mismatch(_: httpx.Request) -> httpx.Response:
        return error(409, "version_mismatch", expected=7, actual=8)

    server = Server({ACT: [mismatch]})
    async with server.client() as api:
        with pytest.raises(VersionMismatchError) as raised:
            await api.act("c_1", {"type": "pass_turn", "actor": "ana"}, if_match=7)
    assert raised.value.actual == 8

    server = Server({ACT: [mismatch, ok(ANSWER)]})
    async with server.client() as api:
        await api.act(
            "c_1", {"type": "pass_turn", "actor": "ana"}, if_match=7, retry_on_conflict=True
        )
    assert [r.headers["If-Match"] for r in server.got] == ["7", "8"]
    assert server.got[0].headers["Idempotency-Key"] != server.got[1].headers["Idempotency-Key"]


async def test_lists_are_followed_cursor_after_cursor() -> None:
    pages = {None: (["a", "b"], "k1"), "k1": (["c"], None)}

    def page(request: httpx.Request) -> httpx.Response:
        items, cursor = pages[request.url.params.get("cursor")]
        return httpx.Response(
            200, json={"characters": [{"id": i} for i in items], "next_cursor": cursor}
        )

    server = Server({"GET /v1/characters": [page, page]})
    async with server.client() as api:
        found = [c["id"] async for c in api.every("/v1/characters", "characters", q="a")]
    assert found == ["a", "b", "c"]
    assert all(r.url.params["q"] == "a" for r in server.got)


def test_the_blocking_client_makes_the_same_calls() -> None:
    server = Server(
        {
            "PATCH /v1/settings": [
                fails(429, "rate_limited", **{"Retry-After": "0"}),
                ok({"language": "es"}),
            ]
        }
    )
    api = Referee("http://referee", "rk_x", retries=FAST)
    try:
        api.aio.http._transport = httpx.MockTransport(server)
        assert api.patch_settings({"language": "es"}) == {"language": "es"}
    finally:
        api.close()
    assert [json.loads(r.content) for r in server.got] == [{"language": "es"}] * 2


async def test_the_stream_resumes_after_the_last_position_when_the_connection_ends() -> None:
    first = (
        'retry: 1\nid: 5-0\nevent: stream.opened\ndata: {"position": "5-0"}\n\n'
        'id: 6-0\nevent: turn.started\ndata: {"type": "turn.started", "text": "uno"}\n\n'
    )
    second = (
        'id: 6-0\nevent: stream.opened\ndata: {"position": "6-0"}\n\n'
        'id: 7-0\nevent: turn.ended\ndata: {"type": "turn.ended", "text": "dos"}\n\n'
    )

    def stream(body: str) -> Callable[[httpx.Request], httpx.Response]:
        return lambda _: httpx.Response(
            200, content=body.encode(), headers={"Content-Type": "text/event-stream"}
        )

    server = Server({"GET /v1/events": [stream(first), stream(second)]})
    got = []
    async with server.client() as api:
        async for message in api.events(combat="c_1"):
            got.append((message.id, message.event, message.is_control))
            if message.event == "turn.ended":
                break
    assert got == [
        ("5-0", "stream.opened", True),
        ("6-0", "turn.started", False),
        ("6-0", "stream.opened", True),
        ("7-0", "turn.ended", False),
    ]
    assert "Last-Event-ID" not in server.got[0].headers
    assert server.got[1].headers["Last-Event-ID"] == "6-0"
    assert all(r.url.params["combat"] == "c_1" for r in server.got)
