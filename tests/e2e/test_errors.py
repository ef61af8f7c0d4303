"""docs/api.md "Errors": one body for every error, the right status, Spanish on request."""

from __future__ import annotations

import pytest

from tests.e2e.referee import HttpCommunity, Referee
from tests.support.play import error_of, unique

pytestmark = [pytest.mark.e2e]

UNKNOWN_COMBAT = "c_" + "0" * 32


@pytest.fixture(scope="module")
async def fighting(referee: Referee) -> tuple[HttpCommunity, str]:
    """A community and one of its combats where it is ana's turn (round 1)."""
    community = await referee.new_community()
    await community.register("ana", vel=6)
    await community.register("bruno", vel=5)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    return community, cid


async def test_malformed_json_is_400(fighting: tuple[HttpCommunity, str]) -> None:
    community, cid = fighting
    headers = {"Content-Type": "application/json"}
    for path in ("/v1/combats", f"/v1/combats/{cid}/actions"):
        answer = await community.client.post(path, content=b'{"room": ', headers=headers)
        error_of(answer, 400, "malformed_json")


async def test_a_missing_or_wrong_key_is_401(
    referee: Referee, fighting: tuple[HttpCommunity, str]
) -> None:
    _, cid = fighting
    for client in (referee.client(), referee.client("rk_not-a-key-of-anyone")):
        for answer in (
            await client.get("/v1/combats"),
            await client.get(f"/v1/combats/{cid}"),
            await client.post(
                f"/v1/combats/{cid}/actions", json={"type": "pass_turn", "actor": "ana"}
            ),
        ):
            error_of(answer, 401, "unauthorized")
            assert answer.headers["WWW-Authenticate"] == "Bearer"
    # The admin token is not a community key, nor a community key the admin token.
    error_of(
        await referee.client(referee.suite.admin_token).get("/v1/combats"), 401, "unauthorized"
    )
    community = fighting[0]
    admin_call = await community.client.post("/v1/admin/communities", json={"name": "x"})
    error_of(admin_call, 401, "unauthorized")


async def test_a_frontend_key_on_moderator_calls_is_403(
    referee: Referee, fighting: tuple[HttpCommunity, str]
) -> None:
    community, cid = fighting
    frontend = referee.client(await community.key("frontend"))
    error_of(
        await frontend.patch("/v1/settings", json={"timers": {"turn_seconds": 5}}),
        403,
        "forbidden",
    )
    annul = {"type": "annul", "actor": "ana", "reason": "trampas"}
    error_of(await frontend.post(f"/v1/combats/{cid}/actions", json=annul), 403, "forbidden")
    error_of(await frontend.post("/v1/keys", json={"scope": "moderator"}), 403, "forbidden")
    # The frontend key may still play and read.
    ok = await frontend.get(f"/v1/combats/{cid}")
    assert ok.status_code == 200, ok.text
    assert (await frontend.get("/v1/settings")).json()["timers"]["turn_seconds"] == 30
    # A moderator's annul gets past the scope check and annuls (umh 4.2.4); on a combat of
    # its own, so that the module's combat goes on.
    for character in ("carla", "dani"):
        await community.register(character)
    other = (await community.start_challenge("carla", "dani"))["id"]
    annulled = await community.act(other, {**annul, "actor": "carla"})
    assert annulled.status_code == 200, annulled.text
    assert annulled.json()["combat"]["result"]["reason"] == "annulled"


async def test_an_unknown_combat_is_404(fighting: tuple[HttpCommunity, str]) -> None:
    community, _ = fighting
    client = community.client
    for answer in (
        await client.get(f"/v1/combats/{UNKNOWN_COMBAT}"),
        await client.get(f"/v1/combats/{UNKNOWN_COMBAT}/log"),
        await community.act(UNKNOWN_COMBAT, {"type": "pass_turn", "actor": "ana"}),
        await client.get(f"/v1/combats/{UNKNOWN_COMBAT}/actions/a_{'1' * 32}"),
        await client.get("/v1/characters/nobody"),
    ):
        error_of(answer, 404, "not_found")


async def test_a_schema_violation_is_422_with_the_field_path(
    fighting: tuple[HttpCommunity, str],
) -> None:
    community, cid = fighting
    bad_start = {
        "room": "no spaces allowed",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": [],
        "opening": {"kind": "challenge"},
    }
    error = error_of(
        await community.client.post("/v1/combats", json=bad_start), 422, "invalid_request"
    )
    paths = {e["path"] for e in error["details"]["errors"]}
    assert {"body.room", "body.defenders"} <= paths, error

    missing_skill = {"type": "skill", "actor": "ana", "targets": ["bruno"]}
    error = error_of(await community.act(cid, missing_skill), 422, "invalid_request")
    assert any(e["path"].endswith(".skill") for e in error["details"]["errors"]), error

    unknown_type = {"type": "dance", "actor": "ana"}
    error = error_of(await community.act(cid, unknown_type), 422, "invalid_request")
    assert any(e["path"].startswith("body") for e in error["details"]["errors"]), error


@pytest.mark.parametrize(
    ("accept_language", "message"),
    [
        ("es", "No es tu turno."),
        ("es-ES,es;q=0.9,en;q=0.5", "No es tu turno."),
        (None, "No es tu turno."),  # the community's language: Spanish unless changed
        ("en-GB,es;q=0.5", "It is not your turn."),
        ("fr", "No es tu turno."),
    ],
    ids=["es", "es-ES-preferred", "no-header", "en-preferred", "unsupported"],
)
async def test_a_rule_violation_names_its_rule_in_the_preferred_language(
    fighting: tuple[HttpCommunity, str], accept_language: str | None, message: str
) -> None:
    community, cid = fighting
    headers = {"Accept-Language": accept_language} if accept_language else None
    out_of_turn = {"type": "pass_turn", "actor": "bruno"}  # it is ana's turn (umh 2.4.1)
    error = error_of(await community.act(cid, out_of_turn, headers), 422, "not_your_turn")
    assert error["rule"] == "umh 2.4.1"
    assert error["message"] == message
    assert error["details"]["current"] == "ana"


async def test_an_unknown_character_cannot_start_a_combat(
    fighting: tuple[HttpCommunity, str],
) -> None:
    community, _ = fighting
    room = unique("room")
    body = {
        "room": room,
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["nadie"],
        "opening": {"kind": "challenge"},
    }
    error = error_of(
        await community.client.post("/v1/combats", json=body), 422, "unknown_character"
    )
    assert error["details"] == {"character": "nadie"}
    listed = await community.client.get("/v1/combats", params={"room": room})
    assert listed.json()["combats"] == []
