"""The console's other screens in a real browser (issue 14): the sheet editor and the settings
with the server's field errors next to their field, a moderator lifting a state with a
reason, keys and viewer links, a cypher and an l5r combat, framing rules, the English switch
and the first paint."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.e2e.console.page import Console
from tests.e2e.referee import Referee
from tests.support.play import expect as expect_status
from tests.support.play import start_in
from tests.support.sheets import pc, samurai
from tests.support.steps import knock_out, register_sheet, wait_status

pytestmark = [pytest.mark.e2e]

FIRST_PAINT_BUDGET_MS = 1000
FIRST_PAINT = """() => new Promise((resolve) => {
  const found = () => performance.getEntriesByName("first-contentful-paint")[0];
  if (found()) return resolve(found().startTime);
  new PerformanceObserver(() => found() && resolve(found().startTime))
    .observe({type: "paint", buffered: true});
})"""


@contextmanager
def forum_page(html: str) -> Iterator[str]:
    """A page of another origin (a forum thread) served on a port of its own."""

    class Thread(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Thread)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/thread"
    finally:
        server.shutdown()
        server.server_close()


async def test_the_sheet_editor_and_the_settings_show_the_servers_errors_by_their_field(
    browser: Browser, referee: Referee, shots: Path
) -> None:
    community = await referee.new_community()
    mod = await Console.open(browser, referee.suite, shots)
    await mod.sign_in(community.api_key)
    page = mod.page

    await mod.goto("#/characters/carla?new=umh")
    vit = mod.field("stats.vit")
    await vit.fill("-5")
    await page.click("#sheet-save")
    await expect(vit).to_have_attribute("aria-invalid", "true")
    message = page.locator('[data-path="stats.vit"] .field-error')
    await expect(message).to_be_visible()
    await mod.shot("01-sheet-field-error")
    await vit.fill("900")
    await page.click("#sheet-save")
    await expect(page.locator("#sheet-form .status-line")).to_have_text("Ficha guardada.")
    await expect(message).to_have_count(0)
    sheet = expect_status(await community.client.get("/v1/characters/carla"), 200).json()
    assert sheet["stats"]["vit"] == 900

    await page.click("#nav a[href='#/settings']")
    turn = mod.field("timers.turn_seconds")
    await turn.fill("0")
    await page.click("#settings-save")
    await expect(turn).to_have_attribute("aria-invalid", "true")
    await expect(page.locator('[data-path="timers.turn_seconds"] .field-error')).to_be_visible()
    await mod.shot("02-settings-field-error")
    await turn.fill("45")
    await mod.field("umh.readings.stat_below_one").select_option("clamp")
    await page.click("#settings-save")
    await expect(page.locator("#settings-form .status-line")).to_have_text("Ajustes guardados.")
    settings = expect_status(await community.client.get("/v1/settings"), 200).json()
    assert settings["timers"]["turn_seconds"] == 45
    assert settings["umh"]["readings"]["stat_below_one"] == "clamp"

    await page.click("#lang")  # English
    await expect(page.locator("h1")).to_have_text("Community settings")
    await expect(page.locator("#nav a[href='#/settings']")).to_have_text("Settings")
    await mod.shot("03-settings-english")
    await page.click("#lang")
    assert await mod.unlabelled_controls() == []
    assert await mod.low_contrast() == []
    await mod.close()


async def test_a_moderator_lifts_a_state_of_the_aftermath_with_a_reason(
    browser: Browser, referee: Referee, shots: Path
) -> None:
    community = await referee.new_community()
    await community.register("ana")
    await community.register("bruno", vit=100)
    combat = await community.start_challenge("ana", "bruno")
    await knock_out(community, combat["id"], "ana", "bruno", "Puño")
    await wait_status(community, "bruno", lambda s: s["vigor_lost"] > 0, what="bruno's vigor")

    mod = await Console.open(browser, referee.suite, shots)
    await mod.sign_in(community.api_key)
    await mod.goto("#/characters/bruno")
    row = mod.page.locator("#status li[data-kind=vigor]")
    await expect(row).to_be_visible()
    await mod.shot("01-aftermath")
    await row.locator("input[type=text]").fill("error del moderador")
    await row.locator("button[value=lift]").click()
    await expect(mod.page.locator("#status li[data-kind=vigor]")).to_have_count(0)
    await expect(mod.page.locator("#history")).to_contain_text("ajuste de moderador")
    await mod.shot("02-lifted")
    status = await community.status("bruno")
    assert status["vigor_lost"] == 0, status
    await mod.close()


async def test_a_join_waits_with_its_clock_and_a_side_member_vetoes_it_from_the_page(
    browser: Browser, referee: Referee, shots: Path
) -> None:
    community = await referee.new_community()
    for character in ("ana", "bruno", "carla"):
        await community.register(character)
    cid = (await community.start_challenge("ana", "bruno"))["id"]
    await community.wait_turn(cid, "ana", 1)
    mod = await Console.open(browser, referee.suite, shots)
    await mod.sign_in(community.api_key)
    await mod.goto(f"#/combat/{cid}")
    page = mod.page

    # carla bursts in on bruno's side (IRRUMPIR), sent from the schema form of the actions.
    await page.select_option("#action-type", "join")
    await mod.field("actor", "#action-form").fill("carla")
    await mod.field("side", "#action-form").select_option("defenders")
    await mod.field("via", "#action-form").select_option("irrumpir")
    await page.click("#action-submit")
    join_clock = page.locator(".clock-row.join time.clock")
    await expect(join_clock).to_have_text(re.compile(r"^\d+:\d\d$"))
    await mod.shot("01-join-pending")

    # bruno, the whole side, vetoes: the join is refused (umh 1.2.4.1).
    await page.select_option("#veto-carla-voter", "bruno")
    await page.click("#veto-carla")
    await expect(page.locator("#log li[data-type='join.vetoed']")).to_be_visible()
    await expect(join_clock).to_have_count(0)
    await mod.shot("02-join-vetoed")
    combat = await community.combat(cid)
    assert combat["pending_joins"] == [] and "carla" not in combat["participants"]
    await mod.close()


async def test_keys_and_viewer_links_and_only_the_player_view_can_be_framed(
    browser: Browser, referee: Referee, shots: Path
) -> None:
    community = await referee.new_community()
    await community.register("ana")
    await community.register("bruno")
    combat = await community.start_challenge("ana", "bruno")
    mod = await Console.open(browser, referee.suite, shots)
    await mod.sign_in(community.api_key)
    await mod.goto("#/keys")
    await mod.page.select_option("#key-scope", "frontend")
    await mod.page.click("#key-form button[type=submit]")
    created = mod.page.locator("#new-key")
    await expect(created).to_have_value(re.compile(r"^rk_"))
    frontend_key = await created.input_value()
    await mod.page.fill("#viewer-combat", combat["id"])
    await mod.page.click("#viewer-form button[type=submit]")
    probe = {"view": "player", "combat": combat["id"], "ttl_seconds": 60}
    tokens = (await community.client.post("/v1/stream-tokens", json=probe)).status_code == 201
    if tokens:  # a link with a short-lived player token, which opens the player view
        link = mod.page.locator("#viewer-link")
        await expect(link).to_have_value(re.compile(r"player\.html#combat=c_\w+&token=st_"))
    else:  # a server without stream tokens nor viewer keys says so
        await expect(mod.page.locator(".status-line.error")).to_be_visible()
    await mod.shot("01-keys")

    # A frontend key signs in without the moderator's screens.
    front = await Console.open(browser, referee.suite, shots)
    await front.sign_in(frontend_key)
    await expect(front.page.locator("#nav a[href='#/rooms']")).to_be_visible()
    assert await front.page.locator("#nav a[href='#/settings']").count() == 0
    await front.close()

    # The player view loads inside a frame of another page; the console refuses to be framed.
    base = referee.suite.base_url
    answer = await community.client.get(f"{base}/console/player.html")
    assert "frame-ancestors *" in answer.headers["content-security-policy"]
    assert "x-frame-options" not in answer.headers
    answer = await community.client.get(f"{base}/console/")
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"
    player = f"{base}/console/player.html#combat={combat['id']}&key={frontend_key}"
    forum = await mod.context.new_page()
    thread = (
        f'<iframe id="player" title="player" src="{player}" width="900" height="600"></iframe>'
        f'<iframe id="console" title="console" src="{base}/console/" height="200"></iframe>'
    )
    with forum_page(thread) as forum_url:  # another origin than the suite's
        await forum.goto(forum_url)
        await expect(forum.frame_locator("#player").locator("[data-fighter=ana]")).to_be_visible()
        assert await forum.frame_locator("#console").locator("#main").count() == 0
    await forum.screenshot(path=str(shots / "02-player-in-a-frame.png"), full_page=True)
    await mod.close()


async def test_rooms_update_live_and_cypher_and_l5r_combats_show_their_own_state(
    browser: Browser, referee: Referee, shots: Path
) -> None:
    community = await referee.new_community()
    await register_sheet(community, "ciro", pc("Ciro"))
    await register_sheet(community, "dora", pc("Dora"))
    await register_sheet(community, "kenji", samurai("Kenji"))
    await register_sheet(community, "hiro", samurai("Hiro"))
    mod = await Console.open(browser, referee.suite, shots)
    await mod.sign_in(community.api_key)
    page = mod.page
    await expect(page.locator("#active-list .empty")).to_be_visible()
    # Combats started elsewhere appear in the open rooms page, from the event stream.
    cypher = await start_in(community, "cypher", "ciro", ["dora"])
    l5r = await start_in(community, "l5r", "kenji", ["hiro"])
    for started in (cypher, l5r):
        await expect(page.locator(f"#active-list tr[data-combat={started['id']}]")).to_be_visible()
    await expect(page.locator("#rooms-list li")).to_have_count(2)
    await mod.shot("00-rooms-live")

    await mod.goto(f"#/combat/{cypher['id']}")
    await expect(page.locator("[data-fighter=ciro] [role=meter]")).to_have_count(3)  # pools
    actor = cypher["turn"]["actor"]
    foe = "dora" if actor == "ciro" else "ciro"
    await page.select_option("#action-type", "cypher.attack")
    await mod.field("actor", "#action-form").fill(actor)
    await mod.field("target", "#action-form").fill(foe)
    await mod.field("attack", "#action-form").fill("Espada")
    await page.click("#action-submit")
    await expect(page.locator("#log li[data-type='action.resolved']")).to_be_visible()
    await expect(page.locator("#dice .rolls li")).not_to_have_count(0)
    await expect(page.locator("#dice .die.kept").first).to_be_visible()
    await mod.shot("01-cypher")

    await mod.goto(f"#/combat/{l5r['id']}")
    await expect(page.locator("[data-fighter=kenji] .meter")).to_contain_text(["Heridas", "Vacío"])
    await expect(page.locator("#turn-order li.current")).to_be_visible()
    await expect(page.locator(".clock-row.turn time.clock")).to_be_visible()
    await mod.shot("02-l5r")
    await mod.close()


async def test_the_first_paint_is_under_a_second(
    browser: Browser, referee: Referee, shots: Path
) -> None:
    """The first contentful paint of the sign-in page in a fresh browser context (no cache),
    the best of three: the machine is shared, and a busy moment says nothing of the page."""
    paints: list[float] = []
    for _ in range(3):
        visitor = await Console.open(browser, referee.suite, shots)
        await visitor.goto("")
        await expect(visitor.page.locator("#key")).to_be_visible()
        paints.append(await visitor.page.evaluate(FIRST_PAINT))
        await visitor.shot("01-sign-in")
        await visitor.close()
    print(f"console first contentful paint: {', '.join(f'{p:.0f}' for p in paints)} ms")
    assert min(paints) < FIRST_PAINT_BUDGET_MS, paints
