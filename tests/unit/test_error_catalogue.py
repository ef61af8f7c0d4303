"""Every error code the code can raise has a status and a message in both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.errors import CATALOGUE, error_body

ROOT = Path(__file__).resolve().parents[2]
PATTERNS = (
    re.compile(r'RuleViolation\(\s*"([a-z_]+)"'),
    re.compile(r'ApiError\(\s*"([a-z_]+)"'),
    re.compile(r'code="([a-z_]+)"'),
)


def raised_codes() -> set[str]:
    codes: set[str] = set()
    for top in ("shared", "services", "gateway"):
        for path in (ROOT / top).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for pattern in PATTERNS:
                codes |= set(pattern.findall(text))
    return codes


@pytest.mark.parametrize("code", sorted(raised_codes()))
def test_every_raised_code_is_catalogued(code: str) -> None:
    assert code in CATALOGUE, f"add {code!r} to shared/errors.py CATALOGUE"


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_code_speaks_english_and_spanish(code: str) -> None:
    kind = CATALOGUE[code]
    assert (kind.en and kind.es and kind.en != kind.es) or code == "not_found"
    assert error_body(code, spanish=True)["error"]["message"] == kind.es
    assert 400 <= kind.status < 600
