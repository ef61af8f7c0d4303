"""Fixtures of the console's browser tests: Debian's chromium driven by Playwright.

Playwright's own browser download cannot work here, so the system browser is launched by its
path (``CONSOLE_CHROMIUM``, ``/usr/bin/chromium`` by default). Without it the tests skip with
a message, except in CI (``CI`` set), where a missing browser fails them: ``.ci/run`` installs
it. Each test gets fresh browser contexts; screenshots of every step go to
``tests/e2e/console/artifacts/<test>/`` (ignored by git; ``CONSOLE_ARTIFACTS`` moves them).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.async_api import Browser

CHROMIUM = os.environ.get("CONSOLE_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ARTIFACTS = Path(os.environ.get("CONSOLE_ARTIFACTS", Path(__file__).parent / "artifacts"))


def _browser_missing() -> str | None:
    if not Path(CHROMIUM).exists() and shutil.which(CHROMIUM) is None:
        return f"{CHROMIUM} is not installed (apt-get install -y chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    missing = _browser_missing()
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"console browser tests: {missing}; CI must install it (.ci/run)")
        pytest.skip(f"console browser tests skipped: {missing}")
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Path:
    """The folder of this test's screenshots (emptied first)."""
    folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder
