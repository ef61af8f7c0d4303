"""The console's static files (gateway/console/static/): both languages say every sentence
the pages ask for, nothing is fetched from another host, the assets stay small, and only the
player view may be framed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gateway.console import CONSOLE_POLICY, PLAYER_POLICY, STATIC, headers_for

JS = STATIC / "js"
BUDGET_BYTES = 160_000  # every file of the console, uncompressed


def dictionary(language: str) -> set[str]:
    """The keys of a language: lang/<language>.js and the parts it spreads in."""
    keys: set[str] = set()
    for path in sorted((JS / "lang").glob(f"{language}*.js")):
        keys |= set(re.findall(r'^\s*"([^"]+)":', path.read_text(encoding="utf-8"), re.MULTILINE))
    return keys


def test_every_part_of_a_language_is_spread_into_it() -> None:
    for language in ("es", "en"):
        main = (JS / "lang" / f"{language}.js").read_text(encoding="utf-8")
        for part in (JS / "lang").glob(f"{language}_*.js"):
            assert f'from "./{part.name}"' in main and "..." in main, part.name


def static_files() -> list[Path]:
    return [p for p in STATIC.rglob("*") if p.is_file()]


def test_spanish_and_english_have_the_same_sentences() -> None:
    spanish, english = dictionary("es"), dictionary("en")
    assert spanish, "no sentences found"
    assert sorted(spanish - english) == [], "in es.js only"
    assert sorted(english - spanish) == [], "in en.js only"


def test_every_sentence_a_page_asks_for_exists() -> None:
    asked = {
        key
        for path in JS.rglob("*.js")
        for key in re.findall(r"(?<![\w.])t\(\s*\"([\w.]+)\"", path.read_text(encoding="utf-8"))
    }
    assert asked, "no t() calls found"
    assert sorted(asked - dictionary("es")) == []


@pytest.mark.parametrize("path", static_files(), ids=lambda p: str(p.relative_to(STATIC)))
def test_nothing_is_loaded_from_another_host(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text), path
    assert not re.search(r"""(import|from)\s*["'](https?:)?//""", text), path
    assert "@import" not in text and "url(http" not in text, path


def test_the_assets_are_small() -> None:
    total = sum(p.stat().st_size for p in static_files())
    assert total < BUDGET_BYTES, f"{total} bytes"


@pytest.mark.parametrize(
    ("path", "framable"),
    [("index.html", False), ("js/app.js", False), ("player.html", True)],
    ids=["console", "a script", "player view"],
)
def test_only_the_player_view_may_be_framed(path: str, framable: bool) -> None:
    headers = headers_for(path)
    assert headers["Content-Security-Policy"] == (PLAYER_POLICY if framable else CONSOLE_POLICY)
    assert ("X-Frame-Options" in headers) is not framable
    assert "frame-ancestors *" in PLAYER_POLICY
    assert "frame-ancestors 'none'" in CONSOLE_POLICY
    assert "connect-src 'self'" in headers["Content-Security-Policy"]
