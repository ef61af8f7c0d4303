"""The vocabulary of narration: Spanish lists, counts, numbers, times and durations."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from shared.narration.words import Lang, Unit, clock, counted, listing, number, span, zone

POINT = Unit(("punto", "puntos"), ("point", "points"))


@pytest.mark.parametrize(
    ("items", "lang", "shown"),
    [
        ([], "es", "—"),
        (["Ana"], "es", "Ana"),
        (["Ana", "Bruno"], "es", "Ana y Bruno"),
        (["Ana", "Bruno", "Carla"], "es", "Ana, Bruno y Carla"),
        (["Ana", "Iván"], "es", "Ana e Iván"),
        (["Ana", "Hilda"], "es", "Ana e Hilda"),
        (["Ana", "Hielo"], "es", "Ana y Hielo"),
        (["Ana", "Iván"], "en", "Ana and Iván"),
    ],
    ids=["none", "one", "two", "three", "y-before-i", "y-before-hi", "y-before-hie", "english"],
)
def test_lists_join_with_y_or_e(items: list[str], lang: Lang, shown: str) -> None:
    assert listing(items, lang) == shown


@pytest.mark.parametrize(
    ("amount", "lang", "shown"),
    [
        (1, "es", "1 punto"),
        (2, "es", "2 puntos"),
        (0, "es", "0 puntos"),
        (1.5, "es", "1,5 puntos"),
        (1.0, "es", "1 punto"),
        (1, "en", "1 point"),
        (2.25, "en", "2.25 points"),
    ],
)
def test_counted_nouns_agree_with_their_number(amount: float, lang: Lang, shown: str) -> None:
    assert counted(amount, POINT, lang) == shown


def test_numbers_use_a_decimal_comma_in_spanish() -> None:
    assert (number(10.0, "es"), number(10.5, "es"), number(10.5, "en")) == ("10", "10,5", "10.5")
    assert number(True, "es") == "True"  # not a number: shown as it is


def test_times_show_in_the_community_zone_with_the_date_only_on_another_day() -> None:
    madrid = zone("Europe/Madrid")
    today = datetime(2025, 5, 14, 10, 0, tzinfo=UTC)
    assert clock("2025-05-14T18:15:00Z", "es", madrid, today) == "las 20:15"
    assert clock("2025-05-17T18:15:00Z", "es", madrid, today) == "las 20:15 del 17/05/2025"
    assert clock("2025-05-17T18:15:00Z", "en", madrid, today) == "20:15 on 2025-05-17"
    assert clock(1747246500000, "en", madrid, today) == "20:15"  # milliseconds
    assert clock("not a time", "es", madrid, today) == "?"
    assert zone("Mars/Olympus") is UTC


@pytest.mark.parametrize(
    ("ms", "lang", "shown"),
    [
        (45_000, "es", "45 segundos"),
        (60_000, "es", "1 minuto"),
        (120_000, "es", "2 minutos"),
        (90_000, "es", "90 segundos"),
        (3 * 3600_000, "en", "3 hours"),
        (72 * 3600_000, "es", "3 días"),
    ],
)
def test_durations_use_their_largest_whole_unit(ms: int, lang: Lang, shown: str) -> None:
    assert span(ms, lang) == shown
