"""001 DAÑO ESPECIAL (enfermedad) through the gateway and services/states: "Las enfermedades
funcionan como los venenos, pero sus efectos se aplican diariamente, de forma que la víctima
debe superar una tirada de defensa por Vigor cada día o padecer sus efectos"."""

from __future__ import annotations

from typing import Any

from shared.dice.purpose import RollPurpose
from shared.dice.rolls import replay
from shared.dice.streams import commitment
from tests.support.play import error_of, expect
from tests.support.sheets import pc
from tests.support.steps import register_sheet
from tests.support.table import ChainReferee

JSON = dict[str, Any]
DAY_MS = 86_400_000
URL = "/v1/characters/ana/commands"
FEVER = {"type": "cypher.disease", "name": "fiebre", "level": 10, "damage": 3}


def rolled(answer: JSON) -> list[JSON]:
    return [e["data"] for e in answer["events"] if e["type"] == "disease.rolled"]


async def might(community: Any) -> int:
    status = await community.status("ana")
    return int(status["ruleset_status"]["cypher"]["pools"]["might"])


async def test_001_enfermedad_a_might_defense_roll_each_day(referee: ChainReferee) -> None:
    """A level-10 disease (target number 30, never resisted) of 3 damage on Ana (Armor 1):
    2 off Might at once, 2 more the next day, none once cured; each roll replays from its
    revealed seed."""
    community = await referee.new_community()
    await register_sheet(community, "ana", pc("Ana", might=8))
    frontend = referee.client(await community.key("frontend"))
    error_of(await frontend.post(URL, json=FEVER), 403, "forbidden")
    first = expect(await community.client.post(URL, json=FEVER), 200).json()
    [day_one] = rolled(first)
    assert day_one["success"] is False and day_one["target_number"] == 30
    assert (day_one["raw"], day_one["armor"], day_one["damage"]) == (3, 1, 2)
    assert day_one["roll"]["purpose"] == RollPurpose.DISEASE_DEFENSE
    assert commitment(day_one["seed"]) == day_one["commitment"]
    assert replay(day_one["seed"], day_one["roll"]).total == day_one["roll"]["total"]
    assert await might(community) == 6

    await referee.chain.run_until(referee.chain.clock.now_ms() + DAY_MS)
    assert await might(community) == 4
    history = (await community.client.get("/v1/characters/ana/history")).json()
    assert history

    cure = {"type": "cypher.cure", "name": "fiebre", "reason": "a healer"}
    cured = expect(await community.client.post(URL, json=cure), 200).json()
    assert [e["type"] for e in cured["events"]] == ["disease.cured"]
    await referee.chain.run_until(referee.chain.clock.now_ms() + 2 * DAY_MS)
    assert await might(community) == 4
    again = await community.client.post(URL, json=cure)
    error_of(again, 422, "no_such_state")


async def test_001_enfermedad_resisted_has_no_effect(referee: ChainReferee) -> None:
    """A level-1 disease (target number 3): resisted on 3 or more, no damage then."""
    community = await referee.new_community()
    await register_sheet(community, "ana", pc("Ana", might=8))
    mild = {**FEVER, "level": 1}
    [day_one] = rolled(expect(await community.client.post(URL, json=mild), 200).json())
    resisted = day_one["roll"]["total"] >= 3
    assert day_one["success"] is resisted
    assert await might(community) == (8 if resisted else 6)
