"""Numbers from hostile clients (issue 12, defects 2, 3 and 9).

NaN, Infinity and numbers that overflow to infinity are refused everywhere with 422
``invalid_request`` (settings, sheets of every ruleset with their nested maps and lists,
action bodies); a boolean or a numeric string is not a number; a request that fails changes
nothing. Stored data is validated again when read: a community whose stored settings or
sheet are bad gets a clear error, never a 500, and repairs them through the API.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.keys import Keys
from shared.redis_client import redis_client
from tests.e2e.referee import HttpCommunity, Referee
from tests.support.play import error_of, expect, unique
from tests.support.sheets import umh_sheet

pytestmark = [pytest.mark.e2e]

JSON = dict[str, Any]
NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400"]


def raw(body: str) -> dict[str, Any]:
    """A request whose JSON text is sent as written (NaN is not JSON, but parsers take it)."""
    return {"content": body.encode(), "headers": {"Content-Type": "application/json"}}


def refused(answer: Any) -> None:
    error_of(answer, 422, "invalid_request")


@pytest.fixture(scope="module")
async def community(referee: Referee) -> HttpCommunity:
    return await referee.new_community()


@pytest.mark.parametrize("number", NON_FINITE)
async def test_a_non_finite_setting_is_refused_and_the_community_still_works(
    community: HttpCommunity, number: str
) -> None:
    before = expect(await community.client.get("/v1/settings"), 200).json()
    body = f'{{"umh": {{"readings": {{"ambidextrous_four_plus": [{number}, 1.5]}}}}}}'
    refused(await community.client.patch("/v1/settings", **raw(body)))
    assert expect(await community.client.get("/v1/settings"), 200).json() == before
    ana, bruno = unique("ana"), unique("bruno")
    await community.register(ana)
    await community.register(bruno)
    await community.start_challenge(ana, bruno)


@pytest.mark.parametrize(
    "value",
    ["true", '"60"', "60.5", "NaN", "1e400"],
    ids=["bool", "string", "fraction", "nan", "overflow"],
)
async def test_an_integer_setting_takes_only_an_integer(
    community: HttpCommunity, value: str
) -> None:
    body = f'{{"timers": {{"turn_seconds": {value}}}}}'
    refused(await community.client.patch("/v1/settings", **raw(body)))


STATS = '"stats": {"vit": VIT, "vel": VEL, "ref": REF, "vol": 2, "fue": 100, "rank": 2, "vigor": 5}'
SKILL = '"skills": [{"name": "P", "tier": 1, "pa": 1, "type": "offensive", "natures": ["fisica"], '


def stats(vit: str = "1000", vel: str = "6", ref: str = "3") -> str:
    return STATS.replace("VIT", vit).replace("VEL", vel).replace("REF", ref)


UMH_BAD = {
    "reductions": '"reductions": {"general": NaN}',
    "boosters": '"boosters": {"fisica": [NaN]}',
    "vel": stats(vel="Infinity"),
    "vit-bool": stats(vit="true"),
    "vit-string": stats(vit='"300"'),
    "ref-string": stats(ref='"3"'),
    "skill-percent": SKILL + '"ignore_defense_pct": -Infinity}]',
    "skill-bool": SKILL + '"pierces_defense": 1}]',
}


def umh_with(fragment: str) -> str:
    head = '"name": "Ana", "ruleset": "umh"'
    if not fragment.startswith('"stats"'):
        head += ", " + stats()
    return "{" + head + ", " + fragment + "}"


CYPHER = (
    '{"name": "Lia", "ruleset": "cypher", "kind": "pc", '
    '"pools": {"might": MIGHT, "speed": 8, "intellect": 8}, "tier": 1, "effort": 1, "armor": 1, '
    '"attacks": [{"name": "Espada", "damage": 5}]}'
)
L5R = (
    '{"name": "Kakita", "ruleset": "l5r", '
    '"rings": {"earth": 2, "air": 2, "water": 2, "fire": 2, "void": VOID}, '
    '"traits": {"reflexes": 1, "agility": 3, "strength": 2}, "insight_rank": 1, '
    '"skills": {"kenjutsu": 2}, "armor_tn": 0, '
    '"weapon": {"name": "katana", "skill": "kenjutsu", "damage": "3k2"}}'
)
SHEETS = {
    **{f"umh-{name}": umh_with(fragment) for name, fragment in UMH_BAD.items()},
    "cypher-nan": CYPHER.replace("MIGHT", "NaN"),
    "cypher-bool": CYPHER.replace("MIGHT", "true"),
    "cypher-string": CYPHER.replace("MIGHT", '"8"'),
    "l5r-infinity": L5R.replace("VOID", "Infinity"),
    "l5r-bool": L5R.replace("VOID", "false"),
    "l5r-skill-nan": L5R.replace("VOID", "2").replace('"kenjutsu": 2}', '"kenjutsu": NaN}'),
}


@pytest.mark.parametrize("body", SHEETS.values(), ids=SHEETS.keys())
async def test_a_sheet_with_a_bad_number_is_refused_and_nothing_is_stored(
    community: HttpCommunity, body: str
) -> None:
    fresh, existing = unique("fresh"), unique("kept")
    stored = expect(
        await community.client.put(f"/v1/characters/{existing}", json=umh_sheet("K")), 201
    )
    refused(await community.client.put(f"/v1/characters/{fresh}", **raw(body)))
    error_of(await community.client.get(f"/v1/characters/{fresh}"), 404, "not_found")
    refused(await community.client.put(f"/v1/characters/{existing}", **raw(body)))
    assert (
        expect(await community.client.get(f"/v1/characters/{existing}"), 200).json()
        == stored.json()
    )


ACTIONS = {
    "use-number-bool": '{"type": "skill", "actor": "A", "skill": "Puño", "targets": ["B"], '
    '"use_number": true}',
    "square-nan": '{"type": "move", "actor": "A", "to": [NaN, 0]}',
    "square-string": '{"type": "move", "actor": "A", "to": ["1", 0]}',
    "cypher-distance": '{"type": "cypher.attack", "actor": "A", "target": "B", "attack": "E", '
    '"stat": "might", "circumstances": {"distance_m": Infinity}}',
    "l5r-meters": '{"type": "l5r.move", "actor": "A", "meters": NaN}',
    "l5r-feint-string": '{"type": "l5r.attack", "actor": "A", "target": "B", '
    '"raises": {"feint": "yes"}}',
}


@pytest.mark.parametrize("body", ACTIONS.values(), ids=ACTIONS.keys())
async def test_an_action_with_a_bad_number_is_refused_and_changes_nothing(
    community: HttpCommunity, body: str
) -> None:
    ana, bruno = unique("ana"), unique("bruno")
    await community.register(ana)
    await community.register(bruno)
    cid = (await community.start_challenge(ana, bruno))["id"]
    await community.wait_turn(cid, ana, 1)
    before = await community.combat(cid)
    text = body.replace('"A"', f'"{ana}"').replace('"B"', f'"{bruno}"')
    refused(await community.client.post(f"/v1/combats/{cid}/actions", **raw(text)))
    assert (await community.combat(cid))["version"] == before["version"]


async def test_bad_stored_settings_get_a_clear_error_and_are_repaired_with_patch(
    referee: Referee, redis_url: str
) -> None:
    community = await referee.new_community()
    ana, bruno = unique("ana"), unique("bruno")
    await community.register(ana)
    await community.register(bruno)
    redis = redis_client(redis_url)
    try:
        key = Keys(referee.suite.namespace).settings(community.id)
        stored = expect(await community.client.get("/v1/settings"), 200).json()
        stored["umh"]["readings"]["ambidextrous_four_plus"] = [None, None]  # what defect 2 left

        await redis.set(key, json.dumps(stored))
    finally:
        await redis.aclose()

    broken = error_of(await community.client.get("/v1/settings"), 409, "settings_invalid")
    paths = [e["path"] for e in broken["details"]["errors"]]
    assert any("ambidextrous_four_plus" in p for p in paths), broken
    start = await community.client.post(
        "/v1/combats",
        json={
            "room": unique("r"),
            "ruleset": "umh",
            "attacker": ana,
            "defenders": [bruno],
            "opening": {"kind": "challenge"},
        },
    )
    error_of(start, 409, "settings_invalid")
    # Another bad patch is refused and names what is still wrong...
    refused(await community.client.patch("/v1/settings", json={"timers": {"turn_seconds": 0}}))
    # ... and a patch of the broken field repairs the community, keeping the rest.
    repaired = await community.client.patch(
        "/v1/settings", json={"umh": {"readings": {"ambidextrous_four_plus": None}}}
    )
    assert expect(repaired, 200).json()["timers"] == stored["timers"]
    expect(await community.client.get("/v1/settings"), 200)
    await community.start_challenge(ana, bruno)


async def test_a_bad_stored_sheet_gets_a_clear_error_and_is_replaced_with_put(
    referee: Referee, redis_url: str
) -> None:
    community = await referee.new_community()
    ana, bruno = unique("ana"), unique("bruno")
    await community.register(ana)
    await community.register(bruno)
    redis = redis_client(redis_url)
    try:
        key = Keys(referee.suite.namespace).character_sheet(community.id, ana)
        stored_sheet = await redis.get(key)
        assert isinstance(stored_sheet, bytes)
        text = stored_sheet.decode()
        await redis.set(key, text.replace('"reductions": {}', '"reductions": {"general": NaN}'))
    finally:
        await redis.aclose()

    error_of(await community.client.get(f"/v1/characters/{ana}"), 409, "sheet_invalid")
    start = await community.client.post(
        "/v1/combats",
        json={
            "room": unique("r"),
            "ruleset": "umh",
            "attacker": ana,
            "defenders": [bruno],
            "opening": {"kind": "challenge"},
        },
    )
    assert error_of(start, 409, "sheet_invalid")["details"]["character"] == ana
    expect(await community.client.put(f"/v1/characters/{ana}", json=umh_sheet("Ana")), 200)
    expect(await community.client.get(f"/v1/characters/{ana}"), 200)
    await community.start_challenge(ana, bruno)
