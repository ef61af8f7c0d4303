"""cypher (seed 001 RECUPERAR) end to end: pools outlive the combat, four rests a day out of
combat through ``POST /v1/characters/{id}/commands``, each roll recomputable from its seed."""

from __future__ import annotations

import asyncio
from typing import Any

from shared.dice.rolls import replay
from shared.dice.streams import commitment
from tests.support.play import error_of, expect, start_in
from tests.support.sheets import npc, pc
from tests.support.steps import register_sheet
from tests.support.table import ChainReferee

JSON = dict[str, Any]


def of_type(answer: JSON, event_type: str) -> JSON:
    return next(e["data"] for e in answer["events"] if e["type"] == event_type)


async def test_four_rests_a_day_then_no_rests_left(referee: ChainReferee) -> None:
    community = await referee.new_community()
    await register_sheet(community, "ana", pc("Ana", might=8))
    await register_sheet(community, "orco", npc("Orco"))
    combat = await start_in(community, "cypher", "ana", ["orco"])
    cid = combat["id"]
    hurt = {"type": "cypher.inflict", "actor": "orco", "target": "ana", "damage": 7}
    await community.act_ok(cid, hurt)
    await community.act_ok(cid, {"type": "annul", "actor": "ana", "reason": "test"})
    await community.wait_combat(cid, lambda c: c["phase"] == "ended", what="ended")

    async def status() -> JSON:
        body = await community.status("ana")
        cypher: JSON = body["ruleset_status"].get("cypher", {})
        return cypher

    async def wait_left() -> JSON:
        for _ in range(50):
            shown = await status()
            if shown.get("pools") and shown["pools"]["might"] == 1:
                return shown
            await asyncio.sleep(0.1)
        raise AssertionError(await status())

    shown = await wait_left()
    assert shown["rests_today"] == 0 and shown["next_rest"] == {"number": 1, "seconds": 0}

    url = "/v1/characters/ana/commands"
    first = expect(await community.client.post(url, json={"type": "cypher.rest"}), 200).json()
    recovered = of_type(first, "rest.recovered")
    assert commitment(recovered["seed"]) == recovered["commitment"]
    again = replay(recovered["seed"], recovered["roll"])
    assert again.total == recovered["roll"]["total"] == recovered["points"]
    assert first["status"]["ruleset_status"]["cypher"]["rests_today"] == 1

    frontend = referee.client(await community.key("frontend"))
    for number, seconds in ((2, 600), (3, 3600), (4, 36000)):
        started = expect(await community.client.post(url, json={"type": "cypher.rest"}), 200)
        data = of_type(started.json(), "rest.started")
        assert data["rest"] == number and "seed" not in data
        busy = await community.client.post(url, json={"type": "cypher.rest"})
        error_of(busy, 422, "rest_in_progress")
        resting = (await status())["resting"]
        assert resting["due_ms"] - resting["started_ms"] == seconds * 1000
        end = {"type": "cypher.end_rest", "reason": "test"}
        error_of(await frontend.post(url, json=end), 403, "forbidden")
        ended = expect(await community.client.post(url, json=end), 200).json()
        assert of_type(ended, "rest.recovered")["rest"] == number
    fifth = await community.client.post(url, json={"type": "cypher.rest"})
    body = error_of(fifth, 422, "no_rests_left")
    assert body["rule"].startswith("cypher RECUPERAR")
    wrong = await community.client.post("/v1/characters/orco/commands", json={"type": "l5r.rest"})
    error_of(wrong, 422, "ruleset_mismatch")


async def test_the_next_combat_starts_from_the_pools_kept(referee: ChainReferee) -> None:
    """001 RECUPERAR: pools lost in one combat are still lost in the next, less what the
    rests since gave back; the sheet's maxima stay the bound."""
    community = await referee.new_community()
    await register_sheet(community, "ana", pc("Ana", might=8))
    await register_sheet(community, "orco", npc("Orco"))
    first = await start_in(community, "cypher", "ana", ["orco"])
    hurt = {"type": "cypher.inflict", "actor": "orco", "target": "ana", "damage": 5}
    await community.act_ok(first["id"], hurt)
    await community.act_ok(first["id"], {"type": "annul", "actor": "ana", "reason": "test"})
    await community.wait_combat(first["id"], lambda c: c["phase"] == "ended", what="ended")
    for _ in range(50):
        kept = (await community.status("ana"))["ruleset_status"].get("cypher", {})
        if kept.get("pools") and kept["pools"]["might"] == 3:
            break
        await asyncio.sleep(0.1)
    assert kept["pools"]["might"] == 3, kept

    second = await start_in(community, "cypher", "ana", ["orco"])
    ana = second["participants"]["ana"]
    assert ana["pools"]["might"] == 3 and ana["pools_max"]["might"] == 8, ana
