"""Views for players (docs/views.md): the community's ``visibility`` setting applied with
``view=player`` on a combat, its log and the stream, and by a read-only ``viewer`` key."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.referee import HttpCommunity, Referee, read_sse
from tests.support.play import error_of, expect, of_type, unique
from tests.support.sheets import offensive

pytestmark = [pytest.mark.e2e]

JSON = dict[str, Any]
BURN = {"kind": "indirect", "type": "quemadura", "amount": 20, "actions": 3}


async def a_hit(community: HttpCommunity) -> tuple[str, str, str]:
    """ana hits bruno (1000 VIT) for 300 with a burning skill: (combat, ana, bruno)."""
    ana, bruno = unique("ana"), unique("bruno")
    await community.register(ana, skills=[{**offensive("Golpe", damage=300), "effects": [BURN]}])
    await community.register(bruno, vit=1000, skills=[])
    combat = await community.start_attack(ana, [bruno], "Golpe")
    (window,) = combat["pending_reactions"]
    await community.react(combat["id"], bruno, window["action_id"], None)
    await community.wait_event(combat["id"], "effect.applied")
    return str(combat["id"]), ana, bruno


async def set_visibility(community: HttpCommunity, **visibility: Any) -> None:
    answer = await community.client.patch("/v1/settings", json={"visibility": visibility})
    assert expect(answer, 200).json()["visibility"] | visibility == answer.json()["visibility"]


def keys_in(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_in(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_in(v)}
    return set()


HIDDEN_WITH_A_BAR = {"vit", "vit_max", "vit_before", "vit_after", "damage", "steps", "sheets"}


async def test_a_viewer_key_sees_bars_and_effect_types_only(referee: Referee) -> None:
    community = await referee.new_community()
    cid, ana, bruno = await a_hit(community)
    await set_visibility(community, vit="bar", bar_step=10, effects="type")
    viewer = referee.client(await community.key("viewer"))

    combat = expect(await viewer.get(f"/v1/combats/{cid}"), 200).json()
    hurt = combat["participants"][bruno]
    assert hurt["vit_pct"] == 70 and combat["participants"][ana]["vit_pct"] == 100
    assert not {"vit", "vit_max"} & set(hurt)
    assert [(e["kind"], e["type"]) for e in hurt["effects"]] == [("indirect", "quemadura")]
    assert not {"amount", "actions_left"} & keys_in(hurt["effects"])
    listed = expect(await viewer.get("/v1/combats"), 200).json()["combats"]
    assert listed == [combat]

    log = expect(await viewer.get(f"/v1/combats/{cid}/log"), 200).json()["events"]
    assert not HIDDEN_WITH_A_BAR & keys_in(log)
    (resolved,) = of_type(log, "action.resolved")
    (row,) = resolved["data"]["results"]
    assert (row["target"], row["vit_pct_before"], row["vit_pct_after"]) == (bruno, 100, 70)
    (applied,) = of_type(log, "effect.applied")
    assert applied["data"]["effect"]["type"] == "quemadura"
    assert "amount" not in applied["data"]["effect"]
    started = of_type(log, "combat.started")[0]["data"]
    assert not {"sheets", "settings", "tenant"} & set(started)

    # The same key cannot see more, nor act, nor read sheets or settings.
    error_of(await viewer.get(f"/v1/combats/{cid}", params={"view": "full"}), 403, "forbidden")
    take = {"type": "pass_turn", "actor": ana}
    error_of(await viewer.post(f"/v1/combats/{cid}/actions", json=take), 403, "forbidden")
    error_of(await viewer.get(f"/v1/characters/{ana}"), 403, "forbidden")
    error_of(await viewer.get("/v1/settings"), 403, "forbidden")
    error_of(await viewer.post("/v1/keys", json={"scope": "viewer"}), 403, "forbidden")
    full_token = await viewer.post("/v1/stream-tokens", json={"view": "full"})
    error_of(full_token, 403, "forbidden")

    # The full view is unchanged for the moderator.
    full = expect(await community.client.get(f"/v1/combats/{cid}/log"), 200).json()["events"]
    (resolved_full,) = of_type(full, "action.resolved")
    assert resolved_full["data"]["results"][0]["vit_after"] == 700

    # The stream in the player view carries exactly the log's player view, through a key or
    # through a viewer's stream token.
    wanted = [{k: v for k, v in e.items() if k != "log_id"} for e in log]
    token = expect(await viewer.post("/v1/stream-tokens", json={"combat": cid}), 201).json()
    assert token["view"] == "player"
    for client, params in [
        (community.client, {"combat": cid, "view": "player"}),
        (referee.client(), {"token": token["token"]}),
    ]:
        seen = await read_sse(
            client,
            params=params,
            last_event_id="0-0",
            until=lambda got: len(got) >= len(wanted),
            within=10,
        )
        assert [sse.data for sse in seen] == wanted


@pytest.mark.parametrize(
    ("visibility", "shown", "hidden"),
    [
        ({"vit": "exact", "effects": "exact"}, {"vit", "vit_after", "amount", "steps"}, {"sheets"}),
        ({"vit": "none", "effects": "type"}, {"type"}, {"vit_pct", "vit_pct_after", "amount"}),
        ({"vit": "none", "effects": "none"}, set(), {"vit_pct", "effects", "effect", "vit"}),
    ],
    ids=["exact", "no-vit", "nothing"],
)
async def test_the_visibility_setting_decides_what_the_player_view_keeps(
    referee: Referee, visibility: JSON, shown: set[str], hidden: set[str]
) -> None:
    community = await referee.new_community()
    cid, _, _ = await a_hit(community)
    await set_visibility(community, **visibility)
    params = {"view": "player"}
    combat = expect(await community.client.get(f"/v1/combats/{cid}", params=params), 200)
    log = expect(await community.client.get(f"/v1/combats/{cid}/log", params=params), 200)
    seen = keys_in(combat.json()) | keys_in(log.json())
    assert shown <= seen, shown - seen
    assert not hidden & seen, hidden & seen
    assert "sheets" not in json.dumps(log.json())
