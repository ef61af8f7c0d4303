"""The console in a real browser against the real suite (issue 14): from the page alone, an
operator creates a community, its moderator sets fast timers, creates two characters, starts
a umh combat, watches the clocks count down, acts and reacts for both
fighters, reads the narrated hit with its damage breakdown, and sees the combat end and its
aftermath; a second browser context, a player's viewer link, watches the same combat live
without anything to act with. Every step leaves a screenshot in tests/e2e/console/artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.async_api import Browser, expect

from tests.e2e.console.page import PHONE, Console
from tests.e2e.referee import Referee
from tests.support.play import expect as expect_status
from tests.support.suite import Suite

pytestmark = [pytest.mark.e2e]


async def create_character(mod: Console, cid: str, vit: int) -> None:
    """Screen 5: a new umh character from its template, its VIT changed, saved."""
    await mod.goto("#/characters")
    await mod.page.fill("#new-id", cid)
    await mod.page.select_option("#new-ruleset", "umh")
    await mod.page.click("#new-character button[type=submit]")
    await mod.field("stats.vit").fill(str(vit))
    await mod.page.click("#sheet-save")
    await expect(mod.page.locator("#sheet-form .status-line")).to_have_text("Ficha guardada.")


async def start_combat(mod: Console, room: str) -> str:
    """Screen 2: ana opens with Puño on bruno (umh 1.1.1.1); the page goes to the combat."""
    await mod.goto("#/rooms")
    form = "#start-form"
    await mod.field("room", form).fill(room)
    await mod.field("ruleset", form).select_option("umh")
    await mod.field("attacker", form).fill("ana")
    await mod.page.check(f'{form} [data-path="defenders"] input[value="bruno"]')
    await mod.field("opening.kind", form).select_option("skill")
    await mod.field("opening.skill", form).fill("Puño")
    await mod.page.check(f'{form} [data-path="opening.targets"] input[value="bruno"]')
    await mod.shot("03-start-form")
    await mod.page.click("#start-submit")
    await mod.page.wait_for_url(re.compile(r"#/combat/c_[0-9a-f]{32}$"))
    return mod.page.url.rsplit("/", 1)[1]


async def viewer_link(mod: Console, client: httpx.AsyncClient, combat_id: str) -> tuple[str, bool]:
    """The player view's link, from the combat's page: a short-lived player stream token
    bound to the combat where the server mints them (then the view hides what the community
    hides: by default exact VIT); on a server without tokens nor viewer keys the page says
    so, and the viewer uses a frontend key (the page still offers nothing to act with)."""
    await mod.page.click("#combat-viewer-link")
    link = mod.page.locator("#combat-link")
    refused = mod.page.locator("#h-viewer ~ .status-line.error")
    await expect(link.or_(refused)).to_be_visible()
    if await link.count():
        value = await link.input_value()
        assert re.search(rf"player\.html#combat={combat_id}&(token=st_|key=rk_)", value), value
        return value.split("/console/", 1)[1], True
    key = expect_status(await client.post("/v1/keys", json={"scope": "frontend"}), 201)
    return f"player.html#combat={combat_id}&key={key.json()['api_key']}", False


async def new_community(mod: Console) -> str:
    """Screen 1 for an operator: a community created with the operator token; its moderator
    key lands in the sign-in field, and signs in."""
    await mod.goto("")
    await mod.page.click("details.operator summary")
    await mod.page.fill("#admin-token", mod.suite.admin_token)
    await mod.page.fill("#community-name", "Plaza Mayor")
    await mod.page.click("#community-form button[type=submit]")
    key = await mod.page.locator("#community-key").text_content()
    assert key and key.startswith("rk_"), key
    await expect(mod.page.locator("#key")).to_have_value(key)
    await mod.shot("01-sign-in")
    await mod.page.keyboard.press("Enter")
    await expect(mod.page.locator("#active-list")).to_be_visible()
    return key


async def fast_timers(mod: Console) -> None:
    """Screen 4: a 1 s preparation round and one minute to act or defend."""
    await mod.page.click("#nav a[href='#/settings']")
    for field, value in (("preparation_seconds", 1), ("turn_seconds", 60), ("defense_seconds", 60)):
        await mod.field(f"timers.{field}").fill(str(value))
    await mod.page.click("#settings-save")
    await expect(mod.page.locator("#settings-form .status-line")).to_have_text("Ajustes guardados.")


async def test_a_moderator_runs_a_umh_combat_from_the_page_and_a_viewer_watches_it(
    browser: Browser, suite: Suite, referee: Referee, shots: Path
) -> None:
    mod = await Console.open(browser, suite, shots)
    page = mod.page
    key = await new_community(mod)
    client = referee.client(key)
    await expect(page.locator("#nav a[href='#/settings']")).to_be_visible()  # a moderator
    await mod.shot("02-rooms")
    await fast_timers(mod)

    await create_character(mod, "ana", 1000)
    await create_character(mod, "bruno", 150)
    await mod.shot("02-sheet-saved")
    cid = await start_combat(mod, "plaza")

    # A player's viewer link, opened in another browser context, follows the combat live.
    link, hidden_view = await viewer_link(mod, client, cid)
    viewer = await Console.open(browser, suite, shots, dark=True)
    await viewer.goto(link)
    await expect(viewer.page.locator("[data-fighter=bruno]")).to_be_visible()

    # The defense window of bruno: its clock counts down.
    clock = page.locator(".clock-row.defense time.clock")
    await expect(clock).to_have_text(re.compile(r"^\d+:\d\d$"))
    first = await clock.text_content()
    await expect(clock).not_to_have_text(first or "")
    await mod.shot("04-defense-clock")

    # bruno defends with Bloqueo: the hit is narrated, its damage broken down step by step.
    await page.click(".quick-row.reaction[data-reactor=bruno] button[id$='-defend']")
    hit = page.locator("#log li[data-type='action.resolved']").first
    await expect(hit).to_contain_text("40")
    await hit.locator("summary").click()
    steps = hit.locator("table.steps")
    await expect(steps).to_contain_text("umh 9.2.1")  # the defense step and its rule
    await expect(steps).to_contain_text("umh 9.1.1")
    await expect(page.locator("[data-fighter=bruno] [role=meter]").first).to_have_attribute(
        "aria-valuenow", "110"
    )
    await mod.shot("05-hit-narrated")

    # Round 1, ana's turn: the turn clock runs; she uses Puño and bruno takes the hit.
    await expect(page.locator(".clock-row.turn time.clock")).to_be_visible()
    await expect(page.locator("[data-fighter=ana]")).to_have_class(re.compile(r"\bcurrent\b"))
    await mod.shot("06-ana-turn")
    await page.locator("#quick-use").press("Enter")  # buttons work from the keyboard
    # While bruno may defend, ana's turn clock stands still (umh 2.4.2) and says so.
    await expect(page.locator(".clock-row.turn time.clock.paused")).to_contain_text("en pausa")
    await mod.shot("06-turn-paused")
    await page.locator(".quick-row.reaction[data-reactor=bruno] button[id$='-take']").press(" ")

    # The combat ends; the aftermath of both fighters appears; the dice verify.
    await expect(page.locator("#result")).to_be_visible()
    await expect(page.locator("#log li[data-type='combat.ended']")).to_be_visible()
    await expect(page.locator("#aftermath li[data-character=bruno]")).to_be_visible()
    await expect(page.locator("[data-verdict]")).to_have_attribute("data-verdict", "verified")
    await mod.shot("07-ended-aftermath")
    assert await mod.unlabelled_controls() == []
    assert await mod.low_contrast() == []

    # The viewer saw the same combat end, live, with nothing to act with and no aftermath.
    await expect(viewer.page.locator("#result")).to_be_visible()
    await expect(viewer.page.locator("#log li[data-type='action.resolved']")).to_have_count(2)
    assert await viewer.page.locator("#h-act, #aftermath, form").count() == 0
    if hidden_view:  # the default visibility: a bar, not the numbers
        await expect(viewer.page.locator("[data-fighter=ana]")).to_contain_text("100 %")
        await expect(viewer.page.locator("[data-fighter=ana]")).not_to_contain_text("1000")
    await viewer.shot("08-player-view-dark")
    assert await viewer.low_contrast() == []

    # The same combat on a phone: one column, nothing wider than the screen.
    await page.set_viewport_size(PHONE)
    await mod.shot("09-phone")
    assert not await mod.overflows()
    await viewer.close()
    await mod.close()
    ended = expect_status(await client.get(f"/v1/combats/{cid}"), 200).json()
    assert ended["result"]["winner"] == "attackers", ended["result"]
