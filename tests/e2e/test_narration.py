"""Spanish first (docs/events.md "Narration and languages"): a short umh combat read back in
Spanish and in English, the community's default language, and field errors in Spanish."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from httpx_sse import aconnect_sse

from tests.e2e.referee import HttpCommunity, Referee
from tests.support.play import error_of, expect, of_type
from tests.support.sheets import JSON, umh_sheet

pytestmark = [pytest.mark.e2e]

ANA, BRUNO = "ana-n1", "bruno-n2"  # ids that are not the sheets' names


async def log_of(community: HttpCommunity, cid: str, language: str | None = None) -> httpx.Response:
    headers = {"Accept-Language": language} if language else None
    return expect(await community.client.get(f"/v1/combats/{cid}/log", headers=headers), 200)


def texts(answer: httpx.Response) -> list[str]:
    return [str(e["text"]) for e in answer.json()["events"]]


def says(answer: httpx.Response, language: str) -> None:
    assert answer.headers["Content-Language"] == language, answer.headers
    assert "accept-language" in answer.headers["Vary"].lower(), answer.headers


async def fought(community: HttpCommunity) -> str:
    """Ana challenges Bruno, punches him (120, no defense) and passes the turn."""
    for character, name, vel in ((ANA, "Ana", 6), (BRUNO, "Bruno", 5)):
        body = umh_sheet(name, vel=vel)
        expect(await community.client.put(f"/v1/characters/{character}", json=body), 201)
    cid = str((await community.start_challenge(ANA, BRUNO))["id"])
    await community.wait_turn(cid, ANA, 1)
    punched = await community.use_skill(cid, ANA, "Puño", [BRUNO])
    declared = of_type(punched["events"], "action.declared")
    assert declared[0]["text"] == "Ana usa Puño contra Bruno (2 PA).", punched["events"]
    action_id = punched["action_id"]
    answered = await community.react(cid, BRUNO, action_id, None)
    resolved = of_type(answered["events"], "action.resolved")
    hit = "Puño de Ana: Bruno recibe 120 de daño, VIT 1000 → 880 (umh 9.1.1)."
    assert resolved[0]["text"] == hit, answered["events"]
    await community.pass_turn(cid, ANA)
    await community.wait_turn(cid, BRUNO, 1)
    return cid


async def test_a_combat_reads_in_spanish_by_default_and_in_english_on_request(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    cid = await fought(community)

    spanish = await log_of(community, cid)
    says(spanish, "es")
    told = texts(spanish)
    assert told[0].startswith("Ana reta a Bruno: empieza el combate en "), told
    assert told[0].endswith(" (umh 1.1.1.2)."), told
    expected = [
        "Empieza la ronda 1. Orden: Ana y Bruno (umh 2.2.5).",
        "Ana usa Puño contra Bruno (2 PA).",
        "Bruno no se defiende.",
        "Puño de Ana: Bruno recibe 120 de daño, VIT 1000 → 880 (umh 9.1.1).",
        "Ana pasa turno (umh 2.3.3).",
    ]
    for sentence in expected:
        assert sentence in told, (sentence, told)
    assert not [t for t in told if ANA in t or BRUNO in t], told  # names, never ids

    english = await log_of(community, cid, "en-GB,en;q=0.9")
    says(english, "en")
    assert "Ana's Puño: Bruno takes 120 damage, VIT 1000 → 880 (umh 9.1.1)." in texts(english)
    assert [e["data"] for e in english.json()["events"]] == [
        e["data"] for e in spanish.json()["events"]
    ]  # one stored event, told in either language

    # The community's default: English when no header names a language, Spanish on request.
    expect(await community.client.patch("/v1/settings", json={"language": "en"}), 200)
    default = await log_of(community, cid)
    says(default, "en")
    assert "Ana passes the turn (umh 2.3.3)." in texts(default)
    says(await log_of(community, cid, "es"), "es")


async def streamed(
    community: HttpCommunity, cid: str, language: str
) -> tuple[httpx.Response, list[JSON]]:
    """The combat's events from the start of the stream, told in ``language``, up to the
    last event of :func:`fought` (Bruno's turn)."""
    told: list[JSON] = []
    headers = {"Last-Event-ID": "0-0", "Accept-Language": language}
    async with (
        asyncio.timeout(10),
        aconnect_sse(
            community.client, "GET", "/v1/events", params={"combat": cid}, headers=headers
        ) as source,
    ):
        expect(source.response, 200)
        async for message in source.aiter_sse():
            data = message.json()
            if isinstance(data, dict) and "text" in data:
                told.append(data)
                if data["type"] == "turn.started" and data["data"]["actor"] == BRUNO:
                    return source.response, told
    raise AssertionError(f"the stream ended early: {told}")


async def test_the_event_stream_tells_events_in_the_language_of_its_request(
    referee: Referee,
) -> None:
    community = await referee.new_community()
    cid = await fought(community)
    response, told = await streamed(community, cid, "en")
    says(response, "en")
    texts = [e["text"] for e in told]
    assert "Ana uses Puño on Bruno (2 AP)." in texts, texts
    log = (await log_of(community, cid, "en")).json()["events"]
    assert [{k: v for k, v in e.items() if k != "log_id"} for e in log] == told

    response, told = await streamed(community, cid, "es")
    says(response, "es")
    assert "Ana usa Puño contra Bruno (2 PA)." in [e["text"] for e in told]


async def test_a_field_error_is_spanish_by_default_with_its_path(referee: Referee) -> None:
    community = await referee.new_community()
    sheet: JSON = umh_sheet("Ana")
    sheet["stats"]["vit"] = 0
    answer = await community.client.put("/v1/characters/ana-bad", json=sheet)
    error = error_of(answer, 422, "invalid_request")
    says(answer, "es")
    messages = [e["message"] for e in error["details"]["errors"]]
    assert "stats.vit: debe ser mayor o igual que 1" in messages, messages
    assert error["message"].startswith("La petición no cumple el esquema: "), error

    english = await community.client.put(
        "/v1/characters/ana-bad", json=sheet, headers={"Accept-Language": "en"}
    )
    says(english, "en")
    error = error_of(english, 422, "invalid_request")
    assert "stats.vit: Input should be greater than or equal to 1" in [
        e["message"] for e in error["details"]["errors"]
    ], error

    anonymous = await referee.client().get("/v1/combats")
    says(anonymous, "es")
    assert error_of(anonymous, 401, "unauthorized")["message"] == (
        "Falta la clave de API o no es válida."
    )
