"""Driving the console in a browser page: sign-in, the fields of a schema form, screenshots."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect

from tests.support.suite import Suite

WAIT_MS = 15_000
expect.set_options(timeout=WAIT_MS)
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


class Console:
    """One browser context on the console of a running suite."""

    def __init__(self, context: BrowserContext, page: Page, suite: Suite, shots: Path) -> None:
        self.context = context
        self.page = page
        self.suite = suite
        self.shots = shots
        self.errors: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.set_default_timeout(WAIT_MS)

    @classmethod
    async def open(
        cls, browser: Browser, suite: Suite, shots: Path, *, viewport: ViewportSize = DESKTOP
    ) -> Console:
        context = await browser.new_context(viewport=viewport, locale="es-ES")
        return cls(context, await context.new_page(), suite, shots)

    def url(self, path: str) -> str:
        return f"{self.suite.base_url}/console/{path}"

    async def goto(self, path: str) -> None:
        await self.page.goto(self.url(path))

    async def sign_in(self, key: str) -> None:
        await self.goto("")
        await self.page.fill("#key", key)
        await self.page.click("form button[type=submit]")
        await expect(self.page.locator("#active-list")).to_be_visible()

    def field(self, path: str, within: str = "") -> Locator:
        """The input, select or textarea of a schema form's field (its data-path)."""
        wrapper = self.page.locator(f'{within} [data-path="{path}"]')
        return wrapper.locator("input, select, textarea").first

    async def shot(self, name: str) -> Path:
        path = self.shots / f"{name}.png"
        await self.page.screenshot(path=str(path), full_page=True)
        return path

    async def unlabelled_controls(self) -> list[str]:
        """Form controls a screen reader could not name (no label, no aria-label)."""
        found: list[str] = await self.page.evaluate(
            """() => [...document.querySelectorAll('input, select, textarea')]
                 .filter((el) => el.type !== 'hidden' && !el.labels?.length
                         && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'))
                 .map((el) => el.outerHTML.slice(0, 120))"""
        )
        return found

    async def overflows(self) -> bool:
        """The page scrolls sideways (it does not fit the width of a phone)."""
        wide: bool = await self.page.evaluate(
            "() => document.documentElement.scrollWidth > window.innerWidth + 1"
        )
        return wide

    async def close(self) -> None:
        await self.context.close()
        assert not self.errors, f"errors in the page: {self.errors}"
