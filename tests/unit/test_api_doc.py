"""docs/api.md is the whole contract: it names every error code of the catalogue, every
public event type (with the rulesets' own pages), every operation, and no document outside
the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gateway.app import create_app
from gateway.schemas.events import event_types
from shared.errors import CATALOGUE

ROOT = Path(__file__).resolve().parents[2]
API = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
RULESET_PAGES = "".join(
    (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8")
    for name in ("umh", "cypher", "l5r", "events")
)


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_error_code_is_in_the_table(code: str) -> None:
    row = re.search(rf"^\| `{re.escape(code)}` \| (\d+) \|", API, re.MULTILINE)
    assert row, (
        f"{code} is not in docs/api.md's error table: add the row "
        f"| `{code}` | {CATALOGUE[code].status} | {CATALOGUE[code].en} |"
    )
    assert int(row.group(1)) == CATALOGUE[code].status


@pytest.mark.parametrize("event_type", event_types())
def test_every_event_type_is_named(event_type: str) -> None:
    assert f"`{event_type}`" in API + RULESET_PAGES, (
        f"name `{event_type}` in docs/api.md (Events) or in its ruleset's page"
    )


def test_every_path_is_in_the_endpoint_table() -> None:
    def generic(text: str) -> str:
        return re.sub(r"\{[a-z_]+\}", "{}", text)

    table = generic(API)
    missing = [p for p in create_app().openapi()["paths"] if f"{generic(p)}`" not in table]
    assert not missing, missing


def test_no_document_outside_the_repository_and_no_old_page() -> None:
    for page in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        text = page.read_text(encoding="utf-8")
        assert "API-extensions" not in text, page
        assert "/work/" not in text, page
    assert not (ROOT / "docs" / "API-extensions.md").exists()
