"""The console shows what a umh skill keeps on the terrain (umh 4.1.5.1, 11.6.1): a wall put
on two squares is listed in the combat's page with its keeper, squares and rounds left, in
Spanish, and the list empties when it ends. Against the real suite, in Debian's chromium."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.e2e.console.page import Console
from tests.e2e.referee import Referee
from tests.support.sheets import DEFAULT_SKILLS, JSON, supplementary
from tests.support.steps import act_as, register_with

pytestmark = [pytest.mark.e2e]

WALL: JSON = {
    **supplementary("Muro", pa=1),
    "reach": 3,
    "terrain": {"effect": "obstacle", "rounds": 1, "size": 2},
}


async def test_4_1_5_1_the_combat_page_lists_what_is_kept_on_the_terrain(
    browser: Browser, referee: Referee, shots: Path
) -> None:
    community = await referee.new_community(
        timers={"preparation_seconds": 60, "turn_seconds": 60, "defense_seconds": 60}
    )
    await register_with(community, "ana", vel=6, skills=[*DEFAULT_SKILLS, WALL])
    await register_with(community, "bruno", vel=5)
    body = {
        "room": "plaza-terreno",
        "ruleset": "umh",
        "attacker": "ana",
        "defenders": ["bruno"],
        "opening": {"kind": "challenge"},
        "positions": {"ana": [0, 0], "bruno": [3, 0]},
        "terrain": {"size": [8, 8]},
    }
    cid = (await community.start(body))["id"]
    for who in ("ana", "bruno"):
        await act_as(community, cid, "ready", who)
    await community.wait_turn(cid, "ana", 1)

    mod = await Console.open(browser, referee.suite, shots)
    await mod.sign_in(community.api_key)
    await mod.goto(f"#/combat/{cid}")
    box = mod.page.locator("#terrain")
    await expect(box).to_contain_text("Nada sobre el terreno.")

    await community.act_ok(
        cid, {"type": "skill", "actor": "ana", "skill": "Muro", "targets": [[2, 0], [2, 1]]}
    )
    wall = box.locator("li.terrain.obstacle")
    await expect(wall).to_contain_text("Obstáculo")
    await expect(wall).to_contain_text("Muro (Ana)")
    await expect(wall).to_contain_text("casillas 2,0 2,1")
    await expect(wall).to_contain_text("quedan 1")
    await mod.shot("01-terrain-wall")

    # One round: when round 2 begins the wall is gone (terrain.ended, expired).
    for who in ("ana", "bruno"):
        await community.pass_turn(cid, who)
    await community.wait_turn(cid, "ana", 2)
    await expect(box).to_contain_text("Nada sobre el terreno.")
