"""The OpenAPI models describe the real answers: a umh combat played on the real suite, every
answer (and every event on the stream) validated by the model the document names for it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter

from gateway.routes.dice import CombatDice
from gateway.schemas.answers import (
    ActionAnswer,
    ActionOutcome,
    Character,
    CharacterPage,
    Combat,
    CombatPage,
    Health,
    History,
    KeyPage,
    LogPage,
    RoomPage,
)
from gateway.schemas.events import Event
from shared.payloads import CharacterStatus
from tests.e2e.referee import Referee, read_sse
from tests.support.play import expect

pytestmark = [pytest.mark.e2e]


def described(model: Any, answer: Any) -> Any:
    """The answer validated by its model; the answer's JSON is kept as it came."""
    body = answer.json()
    TypeAdapter(model).validate_python(body)
    return body


async def test_real_answers_match_the_documented_models(referee: Referee) -> None:
    community = await referee.new_community()
    client = community.client
    await community.register("ana")
    await community.register("bruno")
    stream = asyncio.create_task(
        read_sse(client, params={}, until=lambda got: len(got) >= 12, within=30)
    )
    combat = await community.start_challenge("ana", "bruno")
    cid = combat["id"]
    Combat.model_validate(combat)
    await community.wait_turn(cid, "ana", 1)
    described(Combat, await client.get(f"/v1/combats/{cid}"))
    described(Combat, await client.get(f"/v1/combats/{cid}", params={"view": "player"}))

    hit = described(
        ActionAnswer,
        await community.act(
            cid, {"type": "skill", "actor": "ana", "skill": "Puño", "targets": ["bruno"]}
        ),
    )
    answered = described(
        ActionAnswer,
        await community.act(
            cid,
            {"type": "react", "actor": "bruno", "action_id": hit["action_id"], "skill": "Bloqueo"},
        ),
    )
    assert any(e["type"] == "action.resolved" for e in answered["events"])
    described(ActionOutcome, await client.get(f"/v1/combats/{cid}/actions/{hit['action_id']}"))
    log = described(LogPage, await client.get(f"/v1/combats/{cid}/log"))
    assert log["events"] and all(e["text"] for e in log["events"])
    described(LogPage, await client.get(f"/v1/combats/{cid}/log", params={"view": "player"}))
    described(CombatDice, await client.get(f"/v1/combats/{cid}/dice"))

    described(CombatPage, await client.get("/v1/combats"))
    described(CharacterPage, await client.get("/v1/characters", params={"q": "an"}))
    described(Character, await client.get("/v1/characters/ana"))
    described(CharacterStatus, await client.get("/v1/characters/bruno/status"))
    described(History, await client.get("/v1/characters/bruno/history"))
    described(KeyPage, await client.get("/v1/keys"))
    described(RoomPage, await client.get("/v1/rooms"))
    described(Health, expect(await referee.client().get("/healthz"), 200))

    for sse in await stream:
        model: type[BaseModel] = type(TypeAdapter(Event).validate_python(sse.data))
        assert model.__name__.endswith("Event") and sse.data["type"] == sse.event
