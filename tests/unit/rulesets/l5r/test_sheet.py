"""The l5r sheet (seed 004): validated with clear messages; C-7's default wound table."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from shared.rulesets.l5r.sheet import L5rSheet, wound_rank
from shared.sheets import SHEET_ADAPTER
from tests.unit.turns.l5r.session import sheet


def test_c_7_default_wound_table_from_earth() -> None:
    table = L5rSheet.model_validate(sheet("Ana")).wound_table()
    assert [(w.name, w.up_to, w.penalty) for w in table] == [
        ("healthy", 10, 0),
        ("nicked", 14, 3),
        ("grazed", 18, 5),
        ("hurt", 22, 10),
        ("injured", 26, 15),
        ("crippled", 30, 20),
        ("down", 34, 40),
        ("out", 38, 40),
    ]
    dumped = list(table)
    assert wound_rank(0, dumped) == ("healthy", 0)
    assert wound_rank(34, dumped) == ("down", 40)
    assert wound_rank(39, dumped)[0] == "dead"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param({"void_points": 3}, "cannot exceed the Void ring", id="Vacío pool"),
        pytest.param({"weapon": {"damage": "2k3"}}, "XkY", id="C-1 damage XkY"),
        pytest.param({"skills": {"kenjutsu": 11}}, "0..10", id="Aumentos skill ranks"),
        pytest.param(
            {"wounds": [{"name": "healthy", "up_to": 5, "penalty": 0}]}, "in order", id="C-7"
        ),
    ],
)
def test_a_bad_sheet_is_refused_with_a_clear_message(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        SHEET_ADAPTER.validate_python(sheet("Ana", **change))


def test_the_sheet_union_takes_l5r() -> None:
    parsed = SHEET_ADAPTER.validate_python(sheet("Ana"))
    assert isinstance(parsed, L5rSheet) and parsed.rank_of("Kenjutsu") == 3
