"""Driving the console in a browser page: sign-in, the fields of a schema form, screenshots."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, BrowserContext, Locator, Page, ViewportSize, expect

from tests.support.suite import Suite

WAIT_MS = 15_000
expect.set_options(timeout=WAIT_MS)
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


CONTRAST_CHECK = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => {
    v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || c[3] === 1) return c.slice(0, 3);
    }
    return rgb(getComputedStyle(document.body).backgroundColor).slice(0, 3);
  };
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || !el.getClientRects().length) continue;
    if (el.closest("[disabled], .visually-hidden, option, del")) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || Number(style.opacity) < 1) continue;
    const [a, b] = [lum(rgb(style.color)), lum(background(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      const text = node.textContent.trim().slice(0, 40);
      bad.push(`${ratio.toFixed(2)} ${el.tagName}.${el.className}: ${text}`);
    }
  }
  return bad;
}"""


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
        cls,
        browser: Browser,
        suite: Suite,
        shots: Path,
        *,
        viewport: ViewportSize = DESKTOP,
        dark: bool = False,
    ) -> Console:
        context = await browser.new_context(
            viewport=viewport, locale="es-ES", color_scheme="dark" if dark else "light"
        )
        return cls(context, await context.new_page(), suite, shots)

    def url(self, path: str) -> str:
        return f"{self.suite.base_url}/console/{path}"

    async def goto(self, path: str) -> None:
        await self.page.goto(self.url(path))

    async def sign_in(self, key: str) -> None:
        """With the keyboard only: the key field has the focus when the page opens."""
        await self.goto("")
        await expect(self.page.locator("#key")).to_be_focused()
        await self.page.keyboard.type(key)
        await self.page.keyboard.press("Enter")
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

    async def low_contrast(self) -> list[str]:
        """Text whose contrast with its background is under WCAG AA (4.5:1; 3:1 for large
        text), the background being the nearest opaque one behind it."""
        found: list[str] = await self.page.evaluate(CONTRAST_CHECK)
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
